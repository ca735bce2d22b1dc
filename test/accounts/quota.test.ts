/**
 * The daily quota over real HTTP, with the server's clock set by the test. Expected reset times
 * are worked out here from Chile's offset in November (UTC−3): local midnight is 03:00Z.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, expectErrorShape } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, headerOf, ManualClock, type Reply, startAccountsServer } from "./support/accountsServer.ts"

const DATA = "/api/asset_providers"
// 2026-11-20 12:00 in Santiago; the next local midnight is 2026-11-21T03:00Z.
const NOON = Date.UTC(2026, 10, 20, 15, 0, 0)
const RESET = Date.UTC(2026, 10, 21, 3, 0, 0) / 1000

const quotaHeaders = (r: Reply) => ({
  limit: headerOf(r, "x-ratelimit-limit"),
  remaining: headerOf(r, "x-ratelimit-remaining"),
  reset: headerOf(r, "x-ratelimit-reset"),
})

describe("daily quota", () => {
  const fx = makeFixtureA()
  const clock = new ManualClock(NOON)
  let server: AccountsServer
  const get = (path: string, key: string, extra: Record<string, string> = {}) =>
    call(server.url + path, { headers: { "x-api-key": key, ...extra } })
  const requestsToday = async (key: string) => ((await get("/api/key/info", key)).body as { requests_today: number }).requests_today

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir, clock })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("every counted response carries the quota headers, and Remaining falls by one whatever the status", async () => {
    const { key } = await createKey(fx.dataDir, { email: "h@example.cl" })
    const ok = await get(DATA, key)
    const notFound = await get("/api/asset_providers/12345/conceptual_assets", key)
    const invalid = await get("/api/real_assets/1/days?from_date=2026-02-30", key)
    expect([ok.status, notFound.status, invalid.status]).toEqual([200, 404, 422])
    expect(quotaHeaders(ok)).toEqual({ limit: "300", remaining: "299", reset: String(RESET) })
    expect(quotaHeaders(notFound)).toEqual({ limit: "300", remaining: "298", reset: String(RESET) })
    expect(quotaHeaders(invalid)).toEqual({ limit: "300", remaining: "297", reset: String(RESET) })
    expectErrorShape(invalid.body, 422)
  })

  it("/api/key/info shows the standing without consuming it", async () => {
    const { key } = await createKey(fx.dataDir, { email: "i@example.cl", dailyQuota: 10 })
    await get(DATA, key)
    const a = await get("/api/key/info", key)
    const b = await get("/api/key/info", key)
    expect(a.body).toMatchObject({ daily_quota: 10, quota_enforced: true, requests_today: 1 })
    expect(b.body).toMatchObject({ requests_today: 1 })
    expect(quotaHeaders(a)).toEqual({ limit: "10", remaining: "9", reset: String(RESET) })
    expect(quotaHeaders(b)).toEqual(quotaHeaders(a))
  })

  it("the last unit brings Remaining to 0; then 429 with all four headers, not counted, until Santiago midnight", async () => {
    const { key } = await createKey(fx.dataDir, { email: "q@example.cl", dailyQuota: 3 })
    const remaining = []
    for (let i = 0; i < 3; i++) remaining.push(headerOf(await get(DATA, key), "x-ratelimit-remaining"))
    expect(remaining).toEqual(["2", "1", "0"])
    for (const path of [DATA, "/api/asset_providers/12345/conceptual_assets"]) {
      const refused = await get(path, key)
      expect(refused.status).toBe(429)
      expectErrorShape(refused.body, 429)
      expect((refused.body as { error: string }).error).toBe("quota_exceeded")
      expect(quotaHeaders(refused)).toEqual({ limit: "3", remaining: "0", reset: String(RESET) })
      expect(headerOf(refused, "retry-after")).toBe(String(RESET - NOON / 1000)) // 15 hours
    }
    expect(await requestsToday(key)).toBe(3)

    clock.nowMs = RESET * 1000 - 1000 // 23:59:59 local: still the same day
    expect((await get(DATA, key)).status).toBe(429)
    expect(headerOf(await get(DATA, key), "retry-after")).toBe("1")
    clock.nowMs = RESET * 1000 // 00:00:00 local on the 21st: the full quota is back
    const next = await get(DATA, key)
    expect(next.status).toBe(200)
    expect(quotaHeaders(next)).toEqual({ limit: "3", remaining: "2", reset: String(RESET + 86_400) })
    clock.nowMs = NOON
  })

  it("a quota of 0 refuses every counted request and counts none", async () => {
    const { key } = await createKey(fx.dataDir, { email: "zero@example.cl", dailyQuota: 0 })
    expect((await get(DATA, key)).status).toBe(429)
    expect(await requestsToday(key)).toBe(0)
  })

  it("internal keys: counted, never refused, quota_enforced false, only X-RateLimit-Reset", async () => {
    const { key } = await createKey(fx.dataDir, { email: "ops@example.cl", tier: "internal" })
    for (let i = 0; i < 5; i++) {
      const r = await get(DATA, key)
      expect(r.status).toBe(200)
      expect(quotaHeaders(r)).toEqual({ limit: undefined, remaining: undefined, reset: String(RESET) })
    }
    expect((await get("/api/key/info", key)).body).toMatchObject({
      tier: "internal",
      daily_quota: null,
      quota_enforced: false,
      requests_today: 5,
    })
  })

  it("a key's own quota overrides its tier's", async () => {
    const { key } = await createKey(fx.dataDir, { email: "inst@example.cl", tier: "institutional", dailyQuota: 777 })
    expect(quotaHeaders(await get(DATA, key)).limit).toBe("777")
    const { key: plain } = await createKey(fx.dataDir, { email: "inst2@example.cl", tier: "institutional" })
    expect(quotaHeaders(await get(DATA, plain)).limit).toBe("25000")
  })

  it("concurrent requests never take more than the quota (decide and count in one statement)", async () => {
    const { key } = await createKey(fx.dataDir, { email: "par@example.cl", dailyQuota: 40 })
    const replies = await Promise.all(Array.from({ length: 70 }, () => get(DATA, key)))
    const passed = replies.filter((r) => r.status === 200)
    expect(passed.length).toBe(40)
    expect(replies.filter((r) => r.status === 429).length).toBe(30)
    const seen = passed.map((r) => Number(headerOf(r, "x-ratelimit-remaining"))).sort((a, b) => a - b)
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i))
    expect(await requestsToday(key)).toBe(40)
  })

  it("browsers may read the four headers (CORS) on data routes; account routes get no CORS", async () => {
    const { key } = await createKey(fx.dataDir, { email: "cors@example.cl", dailyQuota: 1 })
    const origin = { origin: "https://app.example.org" }
    const ok = await get(DATA, key, origin)
    const refused = await get(DATA, key, origin)
    for (const r of [ok, refused]) {
      expect(headerOf(r, "access-control-allow-origin")).toBe("*")
      const exposed = (headerOf(r, "access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/)
      expect(exposed).toEqual(
        expect.arrayContaining(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after", "etag", "x-request-id"]),
      )
    }
    const preflight = await call(server.url + DATA, {
      method: "OPTIONS",
      headers: { ...origin, "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
    })
    expect(preflight.status).toBe(204)
    expect(headerOf(preflight, "access-control-allow-headers")?.toLowerCase()).toContain("x-api-key")
    // a download a browser script resumes (Range, If-Range) and checks (Content-Range, Repr-Digest)
    expect((headerOf(preflight, "access-control-allow-headers") ?? "").toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(["range", "if-range", "if-none-match"]),
    )
    expect((headerOf(ok, "access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(["accept-ranges", "content-range", "content-disposition", "repr-digest", "link", "batch-id"]),
    )
    const account = await call(`${server.url}/api/me`, { headers: origin })
    expect(headerOf(account, "access-control-allow-origin")).toBeUndefined()
  })

  it("OpenAPI lists the quota 429 and the quota headers on keyed operations", async () => {
    const doc = (await call(`${server.url}/openapi.json`)).body as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>
      components: { headers: Record<string, unknown>; schemas: Record<string, unknown> }
    }
    const op = doc.paths["/api/asset_providers"]!.get!
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "401", "429", "503"]))
    expect(Object.keys(op.responses["200"]!.headers ?? {})).toEqual(
      expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
    )
    expect(Object.keys(op.responses["429"]!.headers ?? {}).map((h) => h.toLowerCase())).toContain("retry-after")
    expect(op.responses["401"]!.headers?.["X-RateLimit-Limit"]).toBeUndefined()
    expect(doc.components.headers["X-RateLimit-Reset"]).toBeDefined()
  })
})
