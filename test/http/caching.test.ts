/**
 * HTTP behaviour of api/http/ over real HTTP against fixture A: ETag/304 (counted, with fresh
 * quota headers), Cache-Control/Vary only on data routes, gzip and brotli round trips, the
 * request id and the JSON access log (key lookup token only; no key, no headers).
 */

import { connect } from "node:net"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpServer } from "effect/http"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isCacheableDataRequest, secondsUntilNextBatch } from "../../api/http/Caching.ts"
import type { AccessLogLine } from "../../api/http/RequestLog.ts"
import { PAGE_ROUTES } from "../../api/NotFound.ts"
import { ServerLive } from "../../api/Server.ts"
import { type CreatedKey, createKey, expectErrorShape, waitFor } from "../support/server.ts"
import { makeFixtureA, publishFixtureB, testCrc32 } from "../support/snapshotFixture.ts"

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly bytes: Buffer
}

const h = (res: Raw, name: string): string | undefined => {
  const v = res.headers[name]
  return Array.isArray(v) ? v.join(", ") : v
}

describe("HTTP caching, compression, request id and access log", () => {
  const fx = makeFixtureA()
  const lines: Array<AccessLogLine> = []
  const scope = Effect.runSync(Scope.make())
  let url = ""
  let key: CreatedKey
  const QUOTA = 1000

  const raw = async (path: string, headers: Record<string, string> = {}): Promise<Raw> => {
    const res = await request(url + path, { method: "GET", headers })
    const bytes = Buffer.from(await res.body.arrayBuffer())
    return { status: res.statusCode, headers: res.headers, bytes }
  }
  const withKey = (path: string, headers: Record<string, string> = {}) => raw(path, { "x-api-key": key.key, ...headers })
  /** Bytes written as they are on a new connection whose client side then ends; all the server sent, once it closed. */
  const rawExchange = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), "127.0.0.1", () => socket.end(text))
      let got = ""
      socket.on("data", (chunk: Buffer) => {
        got += chunk.toString("latin1")
      })
      socket.on("close", () => resolve(got))
      socket.on("error", reject)
    })

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "http@example.cl", dailyQuota: QUOTA })
    const layer = ServerLive({
      dataDir: fx.dataDir,
      host: "127.0.0.1",
      port: 0,
      pollMillis: 50,
      accessLog: (line) => lines.push(line),
    })
    const ctx = await Effect.runPromise(Layer.buildWithScope(layer, scope))
    const address = Context.get(ctx, HttpServer.HttpServer).address
    if (address._tag === "UnixPathAddress") throw new Error("expected TCP")
    url = `http://127.0.0.1:${address.port}`
  })
  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fx.cleanup()
  })

  it("gives a strong ETag and answers 304 to If-None-Match, counting it and sending fresh quota headers", async () => {
    const first = await withKey("/api/asset_providers")
    expect(first.status).toBe(200)
    const etag = h(first, "etag")
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    const remaining = Number(h(first, "x-ratelimit-remaining"))
    expect(remaining).toBeLessThan(QUOTA)

    const again = await withKey("/api/asset_providers")
    expect(h(again, "etag")).toBe(etag)

    const notModified = await withKey("/api/asset_providers", { "if-none-match": etag! })
    expect(notModified.status).toBe(304)
    expect(notModified.bytes.length).toBe(0)
    expect(h(notModified, "etag")).toBe(etag)
    expect(h(notModified, "cache-control")).toMatch(/^private, max-age=\d+$/)
    expect(h(notModified, "x-ratelimit-limit")).toBe(String(QUOTA))
    expect(Number(h(notModified, "x-ratelimit-remaining"))).toBe(remaining - 2)
    expect(h(notModified, "x-ratelimit-reset")).toMatch(/^\d+$/)

    const other = await withKey("/api/asset_providers", { "if-none-match": '"something-else"' })
    expect(other.status).toBe(200)
    expect(Number(h(other, "x-ratelimit-remaining"))).toBe(remaining - 3)
  })

  it("gives another ETag for another query or route, and none without a valid key", async () => {
    const a = h(await withKey("/api/asset_providers"), "etag")
    const b = h(await withKey("/api/asset_providers?scope=all"), "etag")
    const c = h(await withKey(`/api/asset_providers/${testCrc32("agf:96639280")}/conceptual_assets`), "etag")
    expect(new Set([a, b, c]).size).toBe(3)
    const unauthorized = await raw("/api/asset_providers", { "if-none-match": a! })
    expect(unauthorized.status).toBe(401)
    expect(h(unauthorized, "etag")).toBeUndefined()
  })

  it("sets Cache-Control private until the next batch and Vary on data routes only", async () => {
    const data = await withKey("/api/asset_providers")
    const cc = h(data, "cache-control")!
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(cc)?.[1])
    expect(maxAge).toBeGreaterThanOrEqual(60)
    // Saturday 07:30 to Monday 07:30 is the longest wait: 48 h, 49 h over the April night Chile's clocks go back
    expect(maxAge).toBeLessThanOrEqual(49 * 3600)
    const vary = h(data, "vary")!.toLowerCase()
    expect(vary).toContain("x-api-key")
    expect(vary).toContain("authorization")

    const info = await withKey("/api/key/info")
    expect(h(info, "cache-control")).toBe("no-store")
    expect(h(info, "etag")).toBeUndefined()

    // the same routes in the other spellings the router accepts: not cached either
    for (const spelling of ["/api/key/info/", "//api/key/info", "/api//key/info", "/api/key/info;", "/api/%6Bey/info"]) {
      const res = await withKey(spelling)
      expect(res.status, spelling).toBe(200)
      expect(h(res, "cache-control"), spelling).toBe("no-store")
      expect(h(res, "etag"), spelling).toBeUndefined()
    }
    // the router reads what follows `;` as a query: a parameter /api/key/info does not take (api/http/StrictQuery.ts)
    const semicolon = await withKey("/api/key/info;x=1")
    expect(semicolon.status).toBe(422)
    expect(h(semicolon, "etag")).toBeUndefined()
    for (const spelling of ["/api/me", "/api/me/", "//api/me", "/api/me;x"]) {
      const me = await raw(spelling)
      expect(h(me, "cache-control"), spelling).toBe("no-store")
      expect(h(me, "etag"), spelling).toBeUndefined()
    }
    const register = await raw("/register")
    expect(h(register, "cache-control") ?? "").not.toContain("private, max-age")
    expect(h(register, "etag")).toBeUndefined()
  })

  it("computes max-age to the next 07:30 in Santiago, skipping Sunday", () => {
    // Saturday 2026-11-21 12:00 Santiago (UTC−3) → Monday 07:30 = 43.5 h later
    expect(secondsUntilNextBatch(Date.parse("2026-11-21T15:00:00Z"))).toBe(43.5 * 3600)
    // Tuesday 2026-11-24 07:00 Santiago → 30 min
    expect(secondsUntilNextBatch(Date.parse("2026-11-24T10:00:00Z"))).toBe(1800)
    expect(isCacheableDataRequest("GET", "/api/me")).toBe(false)
    expect(isCacheableDataRequest("GET", "/api/key/info")).toBe(false)
    expect(isCacheableDataRequest("POST", "/api/all-funds")).toBe(false)
    expect(isCacheableDataRequest("GET", "/api/all-funds?vehicle=all")).toBe(true)
    // as the router reads the path: trailing and repeated slashes, `;`, percent-encoding
    for (const uncached of ["/api/key/info/", "//api/key/info", "/api/key/info;a", "/api/%6Bey/info", "/api/me/x", "//register", "/api/%ZZ"]) {
      expect(isCacheableDataRequest("GET", uncached), uncached).toBe(false)
    }
    expect(isCacheableDataRequest("GET", "http://127.0.0.1:8080//api/key/info/")).toBe(false) // effect's originalUrl
    for (const cached of ["/api/all-funds/", "//api/all-funds", "/api/all-funds;a", "/api/meta", "/api/registered", "http://h/api/meta"]) {
      expect(isCacheableDataRequest("GET", cached), cached).toBe(true)
    }
  })

  it("round-trips gzip and brotli bodies, identical to the identity body, with per-coding ETags", async () => {
    const path = `/api/real_assets/${testCrc32("fm:8043:A")}/returns`
    const plain = await withKey(path)
    expect(plain.status).toBe(200)
    expect(plain.bytes.length).toBeGreaterThanOrEqual(1024)
    expect(h(plain, "content-encoding")).toBeUndefined()
    const gz = await withKey(path, { "accept-encoding": "gzip" })
    expect(h(gz, "content-encoding")).toBe("gzip")
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true)
    const br = await withKey(path, { "accept-encoding": "br, gzip;q=0.5" })
    expect(br.status).toBe(200)
    expect(h(br, "content-encoding")).toBe("br")
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true)
    expect(br.bytes.length).toBeLessThan(plain.bytes.length)
    expect(h(br, "vary")!.toLowerCase()).toContain("accept-encoding")
    const tags = new Set([h(plain, "etag"), h(gz, "etag"), h(br, "etag")])
    expect(tags.size).toBe(3)
    // the content is the same, so any of them revalidates any coding
    const revalidated = await withKey(path, { "accept-encoding": "br", "if-none-match": h(plain, "etag")! })
    expect(revalidated.status).toBe(304)
  })

  it("compresses a rendered /api/all-funds answer (kept per snapshot) in the coding asked for", async () => {
    // Fixture A has no ready bytes: the route renders the answer and keeps its bytes.
    const plain = await withKey("/api/all-funds")
    expect(plain.bytes.length).toBeGreaterThanOrEqual(1024)
    for (const [accept, coding, decode] of [
      ["gzip", "gzip", gunzipSync],
      ["br", "br", brotliDecompressSync],
      ["gzip, br", "br", brotliDecompressSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await withKey("/api/all-funds", { "accept-encoding": accept })
        expect(h(res, "content-encoding"), accept).toBe(coding)
        expect(decode(res.bytes).equals(plain.bytes)).toBe(true)
        expect(h(res, "etag")).toBe(h(plain, "etag")!.replace(/"$/, `-${coding}"`))
        expect(h(res, "cache-control")).toMatch(/^private, max-age=\d+$/)
      }
    }
  })

  it("sends identity when asked or when every coding is refused, and small bodies as they are", async () => {
    const big = await withKey(`/api/real_assets/${testCrc32("fm:8043:A")}/returns`, { "accept-encoding": "identity" })
    expect(h(big, "content-encoding")).toBeUndefined()
    const small = await withKey("/api/key/info", { "accept-encoding": "gzip, br" })
    expect(h(small, "content-encoding")).toBeUndefined()
    const refused = await withKey(`/api/real_assets/${testCrc32("fm:8043:A")}/returns`, {
      "accept-encoding": "br;q=0, gzip;q=0",
    })
    expect(h(refused, "content-encoding")).toBeUndefined()
    JSON.parse(refused.bytes.toString("utf8"))
  })

  it("echoes a sane X-Request-Id, replaces an odd one, and sets one on every answer", async () => {
    const echoed = await withKey("/api/asset_providers", { "x-request-id": "abc-123.def" })
    expect(h(echoed, "x-request-id")).toBe("abc-123.def")
    const odd = await withKey("/api/asset_providers", { "x-request-id": "bad id <script>" })
    expect(h(odd, "x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    const notFound = await raw("/nowhere")
    expect(notFound.status).toBe(404)
    expect(h(notFound, "x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    const health = await raw("/health")
    expect(h(health, "x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("writes one JSON access log line per request: lookup token only, key-like query values redacted", async () => {
    lines.length = 0
    await withKey("/api/asset_providers", { "x-request-id": "log-check-1", authorization: "Basic c2VjcmV0" })
    await raw(`/api/asset_providers?api_key=${encodeURIComponent(key.key)}&scope=all`, { "x-request-id": "log-check-2" })
    await raw("/api/asset_providers", { authorization: `Bearer ${key.key}`, "x-request-id": "log-check-3" })
    // a key in the path (after `;`, where the router's query begins, or as an id): refused, and redacted in the log
    const encoded = `%66${key.key.slice(1)}` // "f" percent-encoded: the router decodes it
    const inPath = [
      `/api/asset_providers;k=${key.key}`,
      `/api/real_assets/${key.key}/days`,
      `/api/asset_providers;k=${encoded}`,
      `/api/real_assets/${encoded}/days`,
      // as a query parameter's name
      `/api/asset_providers?${key.key}`,
      `/api/asset_providers?x=1&${key.key}=1`,
    ]
    for (const [i, path] of inPath.entries()) {
      const res = await withKey(path, { "x-request-id": `log-check-path-${i}` })
      expect(res.status, path).toBe(401)
      expect(JSON.parse(res.bytes.toString()).message, path).toMatch(/may have leaked/)
    }
    // a secret name after `;` (where the router's query begins) is redacted as after `?`
    await withKey("/api/asset_providers;token=not-a-key-but-secret", { "x-request-id": "log-check-semicolon" })
    expect(await waitFor(async () => lines.length >= 10)).toBe(true)
    const pathOf = (id: string) => lines.find((l) => l.request_id === id)?.path
    expect(pathOf("log-check-path-0")).toBe("/api/asset_providers;k=[redacted]")
    expect(pathOf("log-check-path-1")).toBe("/api/real_assets/[redacted]/days")
    expect(pathOf("log-check-path-2")).toBe("/api/asset_providers;k=[redacted]")
    expect(pathOf("log-check-path-3")).toBe("/api/real_assets/[redacted]/days")
    expect(pathOf("log-check-semicolon")).toBe("/api/asset_providers;token=[redacted]")
    expect(pathOf("log-check-path-4")).toBe("/api/asset_providers?[redacted]=")
    expect(pathOf("log-check-path-5")).toBe("/api/asset_providers?x=1&[redacted]=1")
    const byId = (id: string) => lines.find((l) => l.request_id === id)!
    const one = byId("log-check-1")
    expect(one).toMatchObject({ method: "GET", path: "/api/asset_providers", status: 200, key_lookup: key.lookup, msg: "request" })
    expect(one.duration_ms).toBeGreaterThanOrEqual(0)
    const two = byId("log-check-2")
    expect(two.status).toBe(401)
    expect(two.path).toBe("/api/asset_providers?api_key=[redacted]&scope=all")
    expect(two.key_lookup).toBeNull()
    expect(byId("log-check-3").key_lookup).toBe(key.lookup)
    const text = lines.map((l) => JSON.stringify(l)).join("\n")
    expect(text).not.toContain(key.key)
    expect(text).not.toContain(key.key.slice(1))
    expect(text).not.toContain("not-a-key-but-secret")
    expect(text).not.toContain("c2VjcmV0")
    expect(text.toLowerCase()).not.toContain("x-api-key")
    expect(text.toLowerCase()).not.toContain("user-agent")
    for (const l of lines) {
      expect(Object.keys(l).sort()).toEqual(
        ["duration_ms", "key_lookup", "level", "method", "msg", "path", "request_id", "status", "time"].sort(),
      )
    }
  })

  it("requests with Expect: 100-continue or asking to upgrade are answered, logged and given a request id too", async () => {
    const exchange = (extra: string, id: string) =>
      rawExchange(`GET /api/asset_providers HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key.key}\r\nX-Request-Id: ${id}\r\n${extra}\r\n`)
    lines.length = 0
    const cases = [
      ["Expect: 100-continue\r\nConnection: close\r\n", "expect-1"],
      // an upgrade is asked for only with `Connection: Upgrade` (without it Node sees none)
      ["Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", "upgrade-1"],
      ["Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n", "upgrade-2"],
    ] as const
    for (const [extra, id] of cases) {
      const text = await exchange(extra, id)
      const finalHead = text.slice(text.lastIndexOf("HTTP/1.1 "))
      expect(finalHead, id).toMatch(/^HTTP\/1\.1 200 /)
      expect(finalHead.toLowerCase(), id).toContain(`x-request-id: ${id}`)
      expect(finalHead.toLowerCase(), id).toContain("x-ratelimit-remaining:")
    }
    expect(await waitFor(async () => lines.length >= cases.length)).toBe(true)
    expect(lines.map((l) => [l.request_id, l.status, l.key_lookup])).toEqual(cases.map(([, id]) => [id, 200, key.lookup]))
  })

  it("a wrong method on a known path is 405 with Allow (OPTIONS: 204 with Allow); an unknown path 404", async () => {
    const call = async (method: string, path: string) => {
      const res = await request(url + path, { method, headers: { "x-api-key": key.key } })
      const text = await res.body.text()
      const json = String(res.headers["content-type"] ?? "").includes("json")
      return { status: res.statusCode, allow: res.headers.allow, body: json && text !== "" ? JSON.parse(text) : text }
    }
    const cases: ReadonlyArray<readonly [string, string, number, string | undefined]> = [
      ["POST", "/api/asset_providers", 405, "GET, HEAD, OPTIONS"],
      ["DELETE", "/api/real_assets/123/days", 405, "GET, HEAD, OPTIONS"],
      // account and registration paths: no HEAD (their GETs can act; see the register tests)
      ["PUT", "/register", 405, "GET, POST, OPTIONS"],
      ["GET", "/api/auth/magic-link", 405, "POST, OPTIONS"],
      ["POST", "/api/me", 405, "GET, DELETE, OPTIONS"],
      ["HEAD", "/api/me", 405, "GET, DELETE, OPTIONS"],
      ["OPTIONS", "/api/asset_providers", 204, "GET, HEAD, OPTIONS"],
      ["POST", "/api/nothing", 404, undefined],
    ]
    for (const [method, path, status, allow] of cases) {
      const res = await call(method, path)
      expect([res.status, res.allow], `${method} ${path}`).toEqual([status, allow])
      if (status === 405 && method !== "HEAD") {
        expect(res.body, `${method} ${path}`).toMatchObject({ error: "method_not_allowed", status: 405 })
      }
      if (status === 404) expect(res.body).toMatchObject({ error: "not_found", status: 404 })
    }
    // every page route listed for the 405 check is served
    for (const [method, path] of PAGE_ROUTES) {
      const served = await call(method, path.replace("*", "docs.css"))
      expect([404, 405], `${method} ${path}`).not.toContain(served.status)
    }
  })

  it("answers HEAD as the GET without its body: same status and headers, counted, logged as HEAD", async () => {
    const head = async (path: string, headers: Record<string, string> = {}) => {
      const res = await request(url + path, { method: "HEAD", headers: { "x-api-key": key.key, ...headers } })
      return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) }
    }
    const got = await withKey("/api/asset_providers")
    lines.length = 0
    const asked = await head("/api/asset_providers", { "x-request-id": "head-1" })
    expect(asked.status).toBe(200)
    expect(asked.bytes.length).toBe(0)
    expect(Number(h(asked, "content-length"))).toBe(got.bytes.length)
    expect(h(asked, "etag")).toBe(h(got, "etag"))
    expect(h(asked, "content-type")).toBe(h(got, "content-type"))
    expect(Number(h(asked, "x-ratelimit-remaining"))).toBe(Number(h(got, "x-ratelimit-remaining")) - 1)
    expect((await head("/api/asset_providers", { "if-none-match": h(got, "etag")! })).status).toBe(304)
    // a compressed answer: the HEAD carries the coding and length of the GET's compressed body
    const zipped = await withKey("/api/all-funds", { "accept-encoding": "br" })
    const zippedHead = await head("/api/all-funds", { "accept-encoding": "br" })
    expect(h(zipped, "content-encoding")).toBe("br")
    expect([h(zippedHead, "content-encoding"), Number(h(zippedHead, "content-length")), zippedHead.bytes.length]).toEqual([
      "br",
      zipped.bytes.length,
      0,
    ])
    expect((await head("/nowhere")).status).toBe(404)
    expect((await head("/health")).status).toBe(200)
    expect(await waitFor(async () => lines.some((l) => l.request_id === "head-1"))).toBe(true)
    expect(lines.find((l) => l.request_id === "head-1")).toMatchObject({ method: "HEAD", status: 200 })
  })

  it("answers what the router or Node cannot take as problem documents: bad percent-encoding, oversized or malformed requests", async () => {
    const exchange = rawExchange
    const parse = (text: string) => {
      const split = text.indexOf("\r\n\r\n")
      const head = text.slice(0, split).toLowerCase()
      const headers = Object.fromEntries(
        head
          .split("\r\n")
          .slice(1)
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
      )
      return { head, headers, body: JSON.parse(text.slice(split + 4)) as { error: string; status: number } }
    }
    const badEncoding = await withKey("/api/real_assets/%ZZ/days")
    expect(badEncoding.status).toBe(400)
    expect(JSON.parse(badEncoding.bytes.toString())).toMatchObject({ type: "/docs#error-bad_request", error: "bad_request", status: 400 })
    expect(h(badEncoding, "content-type")).toBe("application/problem+json")
    expect(JSON.parse(badEncoding.bytes.toString()).instance).toBe(`urn:fds:request:${h(badEncoding, "x-request-id")}`)

    // Node's own refusals get a request id of their own, named by `instance`
    const long = parse(await exchange(`GET /api/asset_providers?q=${"x".repeat(20_000)} HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key.key}\r\n\r\n`))
    expect(long.head).toMatch(/^http\/1\.1 431 /)
    expect(long.body).toMatchObject({ type: "/docs#error-headers_too_large", title: "Request headers too large", error: "headers_too_large", status: 431 })
    expectErrorShape(long.body, 431, long)

    // bodies effect would answer with an empty 413 or a plain-text 415
    const post = async (body: string, contentType: string) => {
      const res = await request(`${url}/api/auth/magic-link`, { method: "POST", body, headers: { "content-type": contentType } })
      return { status: res.statusCode, type: res.headers["content-type"], body: (await res.body.json()) as { error: string } }
    }
    const huge = JSON.stringify({ email: "a@example.cl", return_url: `/${"x".repeat(20_000)}` })
    expect(await post(huge, "application/json")).toMatchObject({
      status: 413,
      type: "application/problem+json",
      body: { type: "/docs#error-payload_too_large", error: "payload_too_large", status: 413 },
    })
    expect(await post("{}", "text/plain")).toMatchObject({
      status: 415,
      type: "application/problem+json",
      body: { type: "/docs#error-unsupported_media_type", error: "unsupported_media_type", status: 415 },
    })

    const garbage = parse(await exchange("NOT HTTP AT ALL\r\n\r\n"))
    expect(garbage.head).toMatch(/^http\/1\.1 400 /)
    expect(garbage.body).toMatchObject({ type: "/docs#error-bad_request", error: "bad_request", status: 400 })
    expectErrorShape(garbage.body, 400, garbage)
  })

  it("changes the ETag when another batch is published, so the old one no longer gives 304", async () => {
    const before = await withKey("/api/asset_providers")
    const etag = h(before, "etag")!
    publishFixtureB(fx.snapshotsDir)
    const swapped = await waitFor(async () => h(await withKey("/api/asset_providers"), "etag") !== etag, 5000, 50)
    expect(swapped).toBe(true)
    const after = await withKey("/api/asset_providers", { "if-none-match": etag })
    expect(after.status).toBe(200)
  })
})
