/**
 * The hit path (api/http/HitPath.ts, issue #32): a kept answer is sent at the Node level, before
 * the router, with the same bytes and headers the router sends, the key checked and counted once,
 * the per-IP token taken once (also when the router answers a refused key after it), the client
 * address read from X-Forwarded-For behind a trusted proxy, and never an answer of a retired batch.
 * Byte identity over the whole contract sweep is test/http/answerCacheSweep.test.ts, whose hits
 * take this path.
 */
import { connect } from "node:net"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { type CreatedKey, createKey, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { makeFixtureA, publishFixtureB, testCrc32 } from "../support/snapshotFixture.ts"

interface Raw {
  readonly status: number
  readonly headers: Record<string, string>
  readonly bytes: Buffer
}

const send = async (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET"): Promise<Raw> => {
  const res = await request(url, { method, headers })
  const flat: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value
  return { status: res.statusCode, headers: flat, bytes: Buffer.from(await res.body.arrayBuffer()) }
}

/** Hits sent before the router, and all hits, from /metrics. */
const counts = async (base: string) => {
  const text = (await send(`${base}/metrics`)).bytes.toString("utf8")
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN)
  return { early: value("fds_answer_cache_early_total"), hits: value("fds_answer_cache_hits_total") }
}

/** What differs between two answers to one request whatever path sent them. */
const PER_REQUEST = new Set(["date", "x-request-id", "x-ratelimit-remaining", "connection", "keep-alive"])
const comparable = (raw: Raw) => ({
  status: raw.status,
  headers: Object.fromEntries(
    Object.entries(raw.headers)
      .filter(([name]) => !PER_REQUEST.has(name))
      // seconds until the next batch: the same on both servers but for the second between them
      .map(([name, value]) => [name, name === "cache-control" ? value.replace(/max-age=\d+/, "max-age=N") : value]),
  ),
  body: raw.bytes.toString("base64"),
})

describe("a kept answer sent before the router", () => {
  const fx = makeFixtureA()
  let early: RunningServer
  let routed: RunningServer
  let key: CreatedKey
  const days = `/api/real_assets/${testCrc32("fm:8043:A")}/days`

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "hits@example.cl" })
    early = await startServer({ dataDir: fx.dataDir, pollMillis: 50, drainMillis: 200, env: { FDS_WARM_ANSWERS: "0" } })
    routed = await startServer({ dataDir: fx.dataDir, env: { FDS_HIT_PATH: "0" } })
  })
  afterAll(async () => {
    await early.close()
    await routed.close()
    fx.cleanup()
  })

  it("sends the router's bytes and headers: codings, Accept, HEAD, CORS and the 304", async () => {
    const asks: Array<{ path: string; headers: Record<string, string>; method?: "HEAD" }> = [
      { path: "/api/all-funds", headers: {} },
      { path: "/api/all-funds", headers: { "accept-encoding": "gzip" } },
      { path: "/api/all-funds", headers: { "accept-encoding": "br, gzip" } },
      { path: "/api/all-funds", headers: { origin: "https://app.example" } },
      { path: "/api/all-funds", headers: { "accept-encoding": "gzip" }, method: "HEAD" },
      { path: days, headers: {} },
      { path: days, headers: { accept: "text/csv" } },
      { path: "/api/asset_providers", headers: {} },
    ]
    for (const ask of asks) {
      const headers = { "x-api-key": key.key, ...ask.headers }
      // the miss that keeps it (its coding made on the way out), unless kept already; then the hit
      await send(early.url + ask.path, headers, ask.method)
      const before = await counts(early.url)
      const hit = await send(early.url + ask.path, headers, ask.method)
      const after = await counts(early.url)
      expect(after.early - before.early, `${ask.path} ${JSON.stringify(ask.headers)}`).toBe(1)
      const viaRouter = await send(routed.url + ask.path, headers, ask.method)
      expect(comparable(hit), `${ask.path} ${JSON.stringify(ask.headers)}`).toEqual(comparable(viaRouter))
      expect(hit.status).toBe(200)
      if (ask.method === "HEAD") expect(hit.bytes.length).toBe(0)
      // the conditional request: a 304 from both, with the same headers
      const conditional = { ...headers, "if-none-match": hit.headers.etag! }
      const before304 = await counts(early.url)
      const notModified = await send(early.url + ask.path, conditional, ask.method)
      expect((await counts(early.url)).early - before304.early).toBe(1)
      expect(notModified.status).toBe(304)
      expect(comparable(notModified)).toEqual(comparable(await send(routed.url + ask.path, conditional, ask.method)))
    }
    // a server with the hit path off sends none early
    expect((await counts(routed.url)).early).toBe(0)
  })

  it("counts the key's quota once per request, and leaves a refused key to the router", async () => {
    const limited = await createKey(fx.dataDir, { email: "quota@example.cl", dailyQuota: 3 })
    const ask = (k: string) => send(`${early.url}/api/asset_providers`, { "x-api-key": k })
    const first = await ask(limited.key)
    const before = await counts(early.url)
    const second = await ask(limited.key)
    const third = await ask(limited.key)
    expect((await counts(early.url)).early - before.early).toBe(2)
    expect([first, second, third].map((r) => r.headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0"])
    expect(third.headers["x-ratelimit-limit"]).toBe("3")
    // used up: the router's 429, with its problem body
    const over = await ask(limited.key)
    expect(over.status).toBe(429)
    expect(JSON.parse(over.bytes.toString("utf8"))).toMatchObject({ error: "quota_exceeded", status: 429 })
    // a wrong key, or none, on a kept target: the router's 401
    const wrong = await ask(`${limited.key.slice(0, -4)}AAAA`)
    expect(wrong.status).toBe(401)
    expect(JSON.parse(wrong.bytes.toString("utf8"))).toMatchObject({ error: "unauthorized", status: 401 })
    expect((await send(`${early.url}/api/asset_providers`)).status).toBe(401)
    // Authorization: Bearer is a key too
    const bearer = await send(`${early.url}/api/asset_providers`, { authorization: `Bearer ${key.key}` })
    expect(bearer.status).toBe(200)
    expect(bearer.bytes.equals(first.bytes)).toBe(true)
  })

  it("never sends a retired batch's answer: after a swap the new batch's", async () => {
    const path = "/api/asset_providers"
    const before = await send(early.url + path, { "x-api-key": key.key })
    await send(early.url + path, { "x-api-key": key.key })
    const b = publishFixtureB(fx.snapshotsDir)
    const newId = batchIdOfFile(b.finished.file)
    expect(newId).not.toBe(before.headers["batch-id"])
    expect(await waitFor(async () => (await send(early.url + path, { "x-api-key": key.key })).headers["batch-id"] === newId, 5000, 50)).toBe(true)
    const counted = await counts(early.url)
    const again = await send(early.url + path, { "x-api-key": key.key })
    expect((await counts(early.url)).early - counted.early).toBe(1)
    expect(again.headers["batch-id"]).toBe(newId)
    expect(again.headers.etag).not.toBe(before.headers.etag)
  })
})

/** One request written as it is (a Host or a target no HTTP client would send), on its own connection: status and body. */
const raw = (port: number, head: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}\r\nConnection: close\r\n\r\n`))
    const chunks: Buffer[] = []
    socket.on("data", (c) => chunks.push(c))
    socket.on("error", reject)
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1")
      const [top, ...rest] = text.split("\r\n\r\n")
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(top ?? "")?.[1])
      const chunked = /transfer-encoding: chunked/i.test(top ?? "")
      const body = rest.join("\r\n\r\n")
      resolve({ status, body: chunked ? body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n/gi, "").replace(/\r\n0\r\n$/, "") : body })
    })
  })

describe("one request's kept answer is never another's (a Host or a target that would make one key stand for two)", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let key: CreatedKey

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "hosts@example.cl" })
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server.close()
    fx.cleanup()
  })

  it("a Host holding a path keeps nothing: the target its key would name is the router's (404), not that answer", async () => {
    const h = `127.0.0.1:${server.port}`
    for (let i = 0; i < 2; i++) {
      const odd = await raw(server.port, `GET /api/asset_providers HTTP/1.1\r\nHost: ${h}/api/zzz\r\nX-Api-Key: ${key.key}`)
      expect(odd.status).toBe(200)
    }
    const before = await counts(server.url)
    const other = await raw(server.port, `GET /api/zzz/api/asset_providers HTTP/1.1\r\nHost: ${h}\r\nX-Api-Key: ${key.key}`)
    expect(other.status).toBe(404)
    expect((await counts(server.url)).early).toBe(before.early)
  })

  it("a Host holding a fragment does not make one route's answer another's", async () => {
    const h = `127.0.0.1:${server.port}`
    const providers = await send(`${server.url}/api/asset_providers`, { "x-api-key": key.key })
    for (let i = 0; i < 2; i++) await raw(server.port, `GET http://${h}/api/asset_providers#/api/all-funds HTTP/1.1\r\nHost: ${h}\r\nX-Api-Key: ${key.key}`)
    const allFunds = await raw(server.port, `GET /api/all-funds HTTP/1.1\r\nHost: ${h}/api/asset_providers#\r\nX-Api-Key: ${key.key}`)
    expect(allFunds.status).toBe(200)
    expect(allFunds.body).not.toBe(providers.bytes.toString("latin1"))
    expect(JSON.parse(allFunds.body)).toHaveProperty("meta")
    expect(JSON.stringify(JSON.parse(allFunds.body))).not.toBe(JSON.stringify(JSON.parse(providers.bytes.toString("utf8"))))
  })

  it("a key in the authority of an absolute-form target is refused as a key in the URL", async () => {
    const h = `127.0.0.1:${server.port}`
    const res = await raw(server.port, `GET http://${key.key}@${h}/api/asset_providers HTTP/1.1\r\nHost: ${h}\r\nX-Api-Key: ${key.key}`)
    expect(res.status).toBe(401)
    expect(JSON.parse(res.body)).toMatchObject({ error: "unauthorized" })
  })
})

describe("the per-IP limit on the hit path", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let proxied: RunningServer
  let key: CreatedKey

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "edge@example.cl" })
    // five tokens and next to no refill: each request's token is counted exactly
    const rateLimit = { perSecond: 0.001, burst: 5 }
    server = await startServer({ dataDir: fx.dataDir, rateLimit })
    proxied = await startServer({ dataDir: fx.dataDir, rateLimit: { perSecond: 0.001, burst: 2 }, trustedProxies: ["127.0.0.1"] })
  })
  afterAll(async () => {
    await server.close()
    await proxied.close()
    fx.cleanup()
  })

  it("takes one token per request, hit or miss, also for a refused key the router answers after it", async () => {
    const path = `${server.url}/api/asset_providers`
    const statuses: number[] = []
    const before = await counts(server.url)
    statuses.push((await send(path, { "x-api-key": key.key })).status) // miss: the router takes it
    statuses.push((await send(path, { "x-api-key": key.key })).status) // hit
    statuses.push((await send(path, { "x-api-key": `${key.key.slice(0, -4)}AAAA` })).status) // hit path's token, the router's 401
    statuses.push((await send(path, { "x-api-key": key.key })).status) // hit
    statuses.push((await send(path, { "x-api-key": key.key })).status) // hit: the fifth token
    expect((await counts(server.url)).early - before.early).toBe(3)
    const refused = await send(path, { "x-api-key": key.key })
    expect(statuses).toEqual([200, 200, 401, 200, 200])
    expect(refused.status).toBe(429)
    expect(refused.headers["retry-after"]).toBe("1")
  })

  it("reads the client from X-Forwarded-For behind a trusted proxy, as the router's edge does", async () => {
    const path = `${proxied.url}/api/all-funds`
    const as = (client: string) => send(path, { "x-api-key": key.key, "x-forwarded-for": `${client}, 127.0.0.1` })
    const before = await counts(proxied.url)
    // one client: its miss and one hit use its two tokens
    expect((await as("203.0.113.7")).status).toBe(200)
    expect((await as("203.0.113.7")).status).toBe(200)
    expect((await as("203.0.113.7")).status).toBe(429)
    // another client behind the same proxy has its own bucket (and a hit)
    expect((await as("203.0.113.8")).status).toBe(200)
    expect((await counts(proxied.url)).early - before.early).toBe(2)
  })
})
