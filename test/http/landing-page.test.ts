/**
 * GET /: the landing page a first visit in a browser gets. Over plain HTTP: HTML without a key (a
 * wrong key does not turn it away either), the links to /docs, /register, /health and
 * /openapi.json, the pages' security headers, HEAD as the GET without body, POST a 405; every
 * other unknown path is still the JSON 404. In Debian's Chromium with JavaScript off (the page
 * needs none): each link leads to its page, with nothing refused and no request off 127.0.0.1.
 */
import { existsSync } from "node:fs"
import type { Page } from "playwright-core"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Browser, CHROMIUM, openBrowser } from "../accounts/support/browser.ts"
import { expectErrorShape, get, header, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"

/** Where the page must lead, as paths of the server. */
const DESTINATIONS = ["/docs", "/register", "/health", "/openapi.json"]

/** The href of every link of `html`, resolved against the page's own URL. */
const linksOf = (html: string, pageUrl: string): string[] =>
  [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map((m) => new URL(m[1]!.replaceAll("&amp;", "&"), pageUrl).href)

/** Collects what the page reports going wrong: script errors, console errors, CSP refusals. */
const problemsOf = (page: Page): string[] => {
  const problems: string[] = []
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`))
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`)
  })
  return problems
}

describe("/: the landing page", () => {
  const fx = makeFixtureA()
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("is HTML, keyless, and links to /docs, /register, /health and /openapi.json, each of which answers", async () => {
    const res = await get(`${server.url}/`)
    expect(res.status).toBe(200)
    expect(header(res, "content-type")).toBe("text/html; charset=utf-8")
    expect(res.text).toMatch(/^<!doctype html>/)
    expect(res.text).toContain("<h1>Fund Data Service</h1>")
    expect(res.text).toContain("Chilean mutual funds, investment funds and ETFs")

    const links = linksOf(res.text, `${server.url}/`)
    expect(links.map((l) => new URL(l).pathname).sort()).toEqual([...DESTINATIONS].sort())
    for (const link of links) {
      expect(new URL(link).origin, link).toBe(server.url)
      expect((await get(link)).status, link).toBe(200)
    }

    // the key requirement of the data routes does not reach it: a wrong key is not looked at
    const wrongKey = await get(`${server.url}/`, { "x-api-key": "fds_nope" })
    expect(wrongKey.status).toBe(200)
    expect(wrongKey.text).toBe(res.text)
    // a query string does not change the route
    expect((await get(`${server.url}/?utm_source=x`)).text).toBe(res.text)
  })

  it("carries the pages' security headers and runs no script", async () => {
    const res = await get(`${server.url}/`)
    const csp = header(res, "content-security-policy") ?? ""
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain("script-src")
    expect(header(res, "x-frame-options")).toBe("DENY")
    expect(header(res, "x-content-type-options")).toBe("nosniff")
    expect(header(res, "referrer-policy")).toBe("same-origin")
    expect(header(res, "cache-control")).toBe("no-cache")
    expect(res.text).not.toMatch(/<script\b|\son[a-z]+=/i)
    expect(res.text).not.toMatch(/https?:\/\//)
  })

  it("answers HEAD as the GET without its body, and POST with 405 naming GET", async () => {
    const got = await get(`${server.url}/`)
    const head = await request(`${server.url}/`, { method: "HEAD" })
    const bytes = Buffer.from(await head.body.arrayBuffer())
    expect(head.statusCode).toBe(200)
    expect(bytes.length).toBe(0)
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(Number(head.headers["content-length"])).toBe(Buffer.byteLength(got.text))

    const post = await request(`${server.url}/`, { method: "POST" })
    const body = await post.body.json()
    expect(post.statusCode).toBe(405)
    expect(post.headers.allow).toBe("GET, HEAD, OPTIONS")
    expectErrorShape(body, 405)
  })

  it("leaves every other unknown path the 404 problem document", async () => {
    for (const path of ["/index.html", "/home", "/nowhere", "/api", "/api/", "/api/nowhere", "/docs/nowhere", "/%2f"]) {
      const res = await get(`${server.url}${path}`)
      expect(res.status, path).toBe(404)
      expect(header(res, "content-type"), path).toBe("application/problem+json")
      expectErrorShape(res.body, 404, res)
      expect(res.body, path).toMatchObject({ error: "not_found" })
    }
  })

  describe("in Chromium", () => {
    let browser: Browser

    beforeAll(async () => {
      expect(existsSync(CHROMIUM), "make test installs Debian's chromium").toBe(true)
      browser = await openBrowser({ javaScriptEnabled: false })
    })
    afterAll(async () => {
      await browser?.close()
    })

    it("shows the page and each link leads to its page, with nothing refused and nothing off loopback", async () => {
      const requested: string[] = []
      browser.context.on("request", (r) => requested.push(r.url()))
      const page = await browser.context.newPage()
      const problems = problemsOf(page)

      const response = await page.goto(`${server.url}/`)
      expect(response?.status()).toBe(200)
      expect(await page.title()).toBe("Chilean fund data API · Fund Data Service")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Fund Data Service")

      const names: Array<[string, string]> = [
        ["API reference", "/docs"],
        ["Get an API key", "/register"],
        ["Service status", "/health"],
        ["OpenAPI contract", "/openapi.json"],
      ]
      for (const [name, path] of names) {
        await page.goto(`${server.url}/`)
        const [landed] = await Promise.all([
          page.waitForResponse((r) => r.request().isNavigationRequest()),
          page.getByRole("link", { name }).click(),
        ])
        expect(new URL(landed.url()).pathname, name).toBe(path)
        expect(landed.status(), name).toBe(200)
        const json = path === "/health" || path === "/openapi.json"
        expect(landed.headers()["content-type"], name).toMatch(json ? /^application\/json/ : /^text\/html/)
        await page.waitForLoadState()
      }

      await page.close()
      expect(problems).toEqual([])
      for (const url of requested) expect(new URL(url).hostname, url).toBe("127.0.0.1")
    })
  })
})
