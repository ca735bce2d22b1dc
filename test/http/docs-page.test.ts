/**
 * GET /docs: the client guidance and Swagger UI on /openapi.json, served from swagger-ui-dist (no
 * CDN). In Debian's Chromium (loopback only) the page renders every operation of the document
 * under its strict CSP, without a script or style refused and without a request off 127.0.0.1, and
 * "Try it out" sends the key given under Authorize in X-Api-Key; over plain HTTP its files have their content types and caching, and nothing outside the
 * allow-list of files is reachable.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { gunzipSync } from "node:zlib"
import type { Page } from "playwright-core"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Browser, CHROMIUM, openBrowser } from "../accounts/support/browser.ts"
import { createKey, get, header, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
type Json = any

/** The client guidance the page must carry (README.md "Using the API", docs/clients.md). */
const GUIDANCE = [
  "X-Api-Key",
  "Authorization: Bearer",
  "Never in the query string",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "quota_exceeded",
  "If-None-Match",
  "ETag",
  "Batch-Id",
  "links.next",
]

/** Collects what the page reports going wrong: script errors, console errors, CSP refusals. */
const problemsOf = (page: Page): string[] => {
  const problems: string[] = []
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`))
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`)
  })
  return problems
}

describe("/docs: the interactive reference", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let browser: Browser
  let operations: number

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), "make test installs Debian's chromium").toBe(true)
    server = await startServer({ dataDir: fx.dataDir })
    const doc = (await get(`${server.url}/openapi.json`)).body as Json
    operations = Object.values(doc.paths as Record<string, Json>).reduce((n, item) => n + Object.keys(item).length, 0)
    browser = await openBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    fx.cleanup()
  })

  it("renders in Chromium and lists every operation, with no request off loopback and nothing refused", async () => {
    const requested: string[] = []
    const failed: string[] = []
    browser.context.on("request", (r) => requested.push(r.url()))
    const page = await browser.context.newPage()
    const problems = problemsOf(page)
    page.on("requestfailed", (r) => failed.push(r.url()))

    const response = await page.goto(`${server.url}/docs`)
    expect(response?.status()).toBe(200)
    expect(await page.title()).toBe("API reference · Fund Data Service")
    await page.locator(".opblock").first().waitFor({ timeout: 30_000 })
    await expect.poll(() => page.locator(".opblock").count(), { timeout: 10_000 }).toBe(operations)
    expect(operations).toBeGreaterThanOrEqual(39)

    const paths = await page.locator(".opblock-summary-path").allTextContents()
    const shown = new Set(paths.map((p) => p.replace(/\u200b/g, "").trim()))
    for (const path of ["/api/all-funds", "/api/fi/instruments", "/api/real_assets/{asset_id}/days", "/health"]) {
      expect(shown.has(path), `${path} is listed`).toBe(true)
    }
    expect(await page.locator(".info .title").textContent()).toContain("Fund Data Service")
    // the key goes in a header: Swagger UI offers the X-Api-Key scheme under Authorize
    expect(await page.locator("button.authorize").count()).toBe(1)

    const guidance = (await page.locator("section.guidance").textContent()) ?? ""
    for (const text of GUIDANCE) expect(guidance, `guidance mentions ${text}`).toContain(text)
    expect(await page.getByRole("heading", { level: 1 }).first().textContent()).toBe("Fund Data Service API")

    await page.close()
    expect(problems).toEqual([])
    expect(failed).toEqual([])
    expect(requested.length).toBeGreaterThanOrEqual(5)
    for (const url of requested) expect(new URL(url).hostname, url).toBe("127.0.0.1")
    expect(requested.some((u) => new URL(u).pathname === "/openapi.json")).toBe(true)
  })

  it("Try it out sends the key from Authorize in the X-Api-Key header, not in the URL", async () => {
    const key = await createKey(fx.dataDir, { email: "docs@example.cl" })
    const page = await browser.context.newPage()
    const problems = problemsOf(page)
    await page.goto(`${server.url}/docs`)
    await page.locator("button.authorize").click()
    await page.locator(".modal-ux input").fill(key.key)
    await page.locator(".modal-ux button.authorize").click()
    await page.locator(".modal-ux button.btn-done").click()
    const op = page.locator(".opblock", {
      has: page.locator(".opblock-summary-path", { hasText: /^\/api\/asset_providers$/ }),
    })
    await op.locator(".opblock-summary").click()
    await op.locator("button.try-out__btn").click()
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/asset_providers"),
      op.locator("button.execute").click(),
    ])
    expect(response.status()).toBe(200)
    expect(response.request().headers()["x-api-key"]).toBe(key.key)
    expect(response.url()).not.toContain(key.key)
    // the live response can take over a second to render (more so since the document declares `servers`)
    const rendered = { timeout: 10_000 }
    await expect.poll(() => op.locator(".live-responses-table .response .response-col_status").first().textContent(), rendered).toBe("200")
    await expect.poll(() => op.locator(".live-responses-table").first().textContent(), rendered).toContain("Alfa AGF S.A.")
    await page.close()
    expect(problems).toEqual([])
  })

  it("serves a page without inline script, under a CSP of script-src 'self', without a key", async () => {
    const res = await get(`${server.url}/docs`)
    expect(res.status).toBe(200)
    expect(header(res, "content-type")).toBe("text/html; charset=utf-8")
    const csp = header(res, "content-security-policy") ?? ""
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain("unsafe-inline")
    expect(csp).not.toContain("unsafe-eval")
    expect(header(res, "x-frame-options")).toBe("DENY")
    const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts).toHaveLength(2)
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="docs\/[^"]+"/)
      expect(body).toBe("")
    }
    expect(res.text).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i)
    expect(res.text).not.toMatch(/https?:\/\//)

    const slash = await get(`${server.url}/docs/`)
    expect(slash.status).toBe(301)
    expect(header(slash, "location")).toBe("../docs")
  })

  it("serves its files with their content types, a year's cache for the versioned URL, compressed on demand", async () => {
    const page = (await get(`${server.url}/docs`)).text
    const urls = [...page.matchAll(/(?:href|src)="(docs\/[^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"))
    const expected: Record<string, string> = {
      "swagger-ui.css": "text/css; charset=utf-8",
      "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
      "docs.css": "text/css; charset=utf-8",
      "docs-initializer.js": "text/javascript; charset=utf-8",
    }
    expect(urls.map((u) => u.slice("docs/".length).split("?")[0]).sort()).toEqual(Object.keys(expected).sort())
    for (const url of urls) {
      const name = url.slice("docs/".length).split("?")[0]!
      expect(url, "versioned URL").toMatch(/\?v=[0-9a-f]{16}$/)
      const res = await get(`${server.url}/${url}`)
      expect(res.status, url).toBe(200)
      expect(header(res, "content-type"), url).toBe(expected[name])
      expect(header(res, "cache-control"), url).toBe("public, max-age=31536000, immutable")
      expect(header(res, "x-content-type-options")).toBe("nosniff")
      const unversioned = await get(`${server.url}/docs/${name}`)
      expect(unversioned.status).toBe(200)
      expect(header(unversioned, "cache-control")).toBe("no-cache")
      const stale = await get(`${server.url}/docs/${name}?v=0000000000000000`)
      expect(header(stale, "cache-control")).toBe("no-cache")
    }

    const initializer = (await get(`${server.url}/docs/docs-initializer.js`)).text
    expect(initializer).toContain("SwaggerUIBundle(")
    expect(initializer).toContain('"openapi.json"')

    const bundle = urls.find((u) => u.includes("swagger-ui-bundle.js"))!
    const zipped = await request(`${server.url}/${bundle}`, { headers: { "accept-encoding": "gzip" } })
    expect(zipped.statusCode).toBe(200)
    expect(zipped.headers["content-encoding"]).toBe("gzip")
    expect(zipped.headers.vary).toBe("Accept-Encoding")
    const body = gunzipSync(Buffer.from(await zipped.body.arrayBuffer()))
    const installed = readFileSync(fileURLToPath(import.meta.resolve("swagger-ui-dist/swagger-ui-bundle.js")))
    expect(body.equals(installed), "the bundle is swagger-ui-dist's").toBe(true)
  })

  it("reaches nothing outside its list of files: traversal and other package files are the JSON 404", async () => {
    for (const path of [
      "/docs/..%2fpackage.json",
      "/docs/..%2f..%2fpackage.json",
      "/docs/%2e%2e/package.json",
      "/docs/%2e%2e%2f%2e%2e%2fpackage.json",
      "/docs/..\\package.json",
      "/docs/package.json",
      "/docs/index.html",
      "/docs/swagger-initializer.js",
      "/docs/swagger-ui.js",
      "/docs/swagger-ui-bundle.js.map",
      "/docs%2fswagger-ui.css",
    ]) {
      const res = await get(`${server.url}${path}`)
      expect(res.status, path).toBe(404)
      expect(res.body, path).toMatchObject({ error: "not_found", status: 404 })
      expect(res.text, path).not.toContain("swagger-ui-dist")
    }
  })
})
