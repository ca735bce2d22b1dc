/**
 * The per-IP token bucket over real HTTP, with the server's clock held still by the test (so the
 * bucket refills only when the test moves the clock): 20 requests pass at once, the 21st gets 429
 * with Retry-After: 1 and no X-RateLimit-* headers, before any key check, consuming no quota.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, expectErrorShape } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, headerOf, ManualClock, type Reply, startAccountsServer } from "./support/accountsServer.ts"

const expectRateLimited = (reply: Reply): void => {
  expect(reply.status).toBe(429)
  expect(headerOf(reply, "retry-after")).toBe("1")
  for (const name of Object.keys(reply.headers)) expect(name.toLowerCase().startsWith("x-ratelimit-")).toBe(false)
  expectErrorShape(reply.body, 429)
  expect((reply.body as { error: string }).error).toBe("rate_limited")
}

describe("per-IP rate limit (10/s, burst 20), socket address only", () => {
  const fx = makeFixtureA()
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 15, 0, 0))
  let server: AccountsServer
  let key: string

  beforeAll(async () => {
    key = (await createKey(fx.dataDir, { email: "rate@example.cl" })).key
    server = await startAccountsServer({ dataDir: fx.dataDir, clock, rateLimit: { perSecond: 10, burst: 20 } })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  const info = async (): Promise<number> => {
    clock.nowMs += 1000 // a full second: at least 10 tokens back
    const res = await call(`${server.url}/api/key/info`, { headers: { "x-api-key": key } })
    expect(res.status).toBe(200)
    return (res.body as { requests_today: number }).requests_today
  }

  it("a burst of 20 passes, the 21st is refused; the refused ones consume no quota", async () => {
    clock.nowMs += 10_000 // a full bucket
    const before = await info()
    clock.nowMs += 10_000
    const replies = await Promise.all(
      Array.from({ length: 26 }, () => call(`${server.url}/api/asset_providers`, { headers: { "x-api-key": key } })),
    )
    const ok = replies.filter((r) => r.status === 200)
    const limited = replies.filter((r) => r.status === 429)
    expect(ok.length).toBe(20)
    expect(limited.length).toBe(6)
    for (const r of limited) expectRateLimited(r)
    for (const r of ok) expect(headerOf(r, "x-ratelimit-limit")).toBe("300")
    expect(await info()).toBe(before + 20)
  })

  it("is checked before the key: with the bucket empty, a keyless request gets 429, not 401", async () => {
    clock.nowMs += 10_000
    for (let i = 0; i < 20; i++) expect((await call(`${server.url}/api/asset_providers`)).status).toBe(401)
    expectRateLimited(await call(`${server.url}/api/asset_providers`))
  })

  it("covers every route: /health, /openapi.json, /register, unknown paths and account routes", async () => {
    for (const path of ["/health", "/openapi.json", "/register", "/no/such/path", "/api/me"]) {
      clock.nowMs += 10_000
      for (let i = 0; i < 20; i++) expect((await call(server.url + path)).status).not.toBe(429)
      expectRateLimited(await call(server.url + path))
    }
  })

  it("refills at 10 tokens a second: 100 ms gives back exactly one request", async () => {
    clock.nowMs += 10_000
    for (let i = 0; i < 20; i++) await call(`${server.url}/health`)
    expectRateLimited(await call(`${server.url}/health`))
    clock.nowMs += 100
    expect((await call(`${server.url}/health`)).status).toBe(200)
    expectRateLimited(await call(`${server.url}/health`))
    clock.nowMs += 99
    expectRateLimited(await call(`${server.url}/health`))
  })

  it("X-Forwarded-For is ignored when the peer is not a trusted proxy", async () => {
    clock.nowMs += 10_000
    for (let i = 0; i < 20; i++) {
      expect((await call(`${server.url}/health`, { headers: { "x-forwarded-for": `203.0.113.${i}` } })).status).toBe(200)
    }
    expectRateLimited(await call(`${server.url}/health`, { headers: { "x-forwarded-for": "198.51.100.1" } }))
  })
})

describe("behind a trusted proxy (FDS_TRUSTED_PROXIES)", () => {
  const fx = makeFixtureA()
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 15, 0, 0))
  let server: AccountsServer

  beforeAll(async () => {
    server = await startAccountsServer({
      dataDir: fx.dataDir,
      clock,
      rateLimit: { perSecond: 10, burst: 20 },
      trustedProxies: ["127.0.0.1"],
    })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  const from = (client: string) => call(`${server.url}/health`, { headers: { "x-forwarded-for": client } })

  it("each forwarded client address has its own bucket", async () => {
    for (let i = 0; i < 20; i++) expect((await from("203.0.113.7")).status).toBe(200)
    expectRateLimited(await from("203.0.113.7"))
    expect((await from("203.0.113.8")).status).toBe(200)
  })

  it("the right-most untrusted address counts: a client cannot pick its own by prepending entries", async () => {
    clock.nowMs += 10_000
    for (let i = 0; i < 20; i++) expect((await from(`10.9.9.${i}, 198.51.100.20`)).status).toBe(200)
    expectRateLimited(await from("10.9.9.99, 198.51.100.20"))
  })

  it("IPv6 clients are limited per /64", async () => {
    clock.nowMs += 10_000
    for (let i = 0; i < 20; i++) expect((await from(`2001:db8:1:2::${(i + 1).toString(16)}`)).status).toBe(200)
    expectRateLimited(await from("2001:db8:1:2:ffff::1"))
    expect((await from("2001:db8:1:3::1")).status).toBe(200)
  })
})

describe("the 429 message states the limit the server runs with", () => {
  const fx = makeFixtureA()
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 15, 0, 0))
  let server: AccountsServer

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir, clock, rateLimit: { perSecond: 2, burst: 3 } })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("2 per second, bursts up to 3", async () => {
    for (let i = 0; i < 3; i++) expect((await call(`${server.url}/health`)).status).toBe(200)
    const refused = await call(`${server.url}/health`)
    expectRateLimited(refused)
    expect((refused.body as { message: string }).message).toContain("(2 per second, bursts up to 3)")
  })
})
