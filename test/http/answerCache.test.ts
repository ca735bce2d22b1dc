/**
 * The answer cache (api/snapshot/AnswerCache.ts, issue #32): a hit answers without compressing
 * again, the budget drops the least recently used answer, and a batch's answers go when it
 * retires. Byte identity over the contract sweep is test/http/answerCacheSweep.test.ts.
 */
import { gunzipSync } from "node:zlib"
import { HttpServerResponse } from "effect/http"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AnswerCache } from "../../api/snapshot/AnswerCache.ts"
import { SnapshotMemo } from "../../snapshots/SnapshotMemo.ts"
import { type CreatedKey, createKey, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { makeFixtureA, publishFixtureB, testCrc32 } from "../support/snapshotFixture.ts"

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly bytes: Buffer
}

const get = async (url: string, headers: Record<string, string> = {}): Promise<Raw> => {
  const res = await request(url, { method: "GET", headers })
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) }
}

/** The answer cache's counts on /metrics. */
const counts = async (base: string) => {
  const text = (await get(`${base}/metrics`)).bytes.toString("utf8")
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN)
  return {
    hits: value("fds_answer_cache_hits_total"),
    misses: value("fds_answer_cache_misses_total"),
    compressions: value("fds_answer_cache_compressions_total"),
    evictions: value("fds_answer_cache_evictions_total"),
    entries: value("fds_answer_cache_entries"),
    bytes: value("fds_answer_cache_bytes"),
    maxBytes: value("fds_answer_cache_max_bytes"),
  }
}

describe("the answer cache on a server", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let key: CreatedKey
  const withKey = (path: string, headers: Record<string, string> = {}) => get(server.url + path, { "x-api-key": key.key, ...headers })

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "answers@example.cl" })
    // no warm on swap here (answerCacheWarm.test.ts has it): the new batch starts with no answer kept
    server = await startServer({ dataDir: fx.dataDir, pollMillis: 50, drainMillis: 200, env: { FDS_WARM_ANSWERS: "0" } })
  })
  afterAll(async () => {
    await server.close()
    fx.cleanup()
  })

  it("answers a repeated request from the cache, compressing it once per coding, never on a hit", async () => {
    const before = await counts(server.url)
    const first = await withKey("/api/all-funds", { "accept-encoding": "gzip" })
    expect(first.status).toBe(200)
    expect(first.headers["content-encoding"]).toBe("gzip")
    const afterMiss = await counts(server.url)
    expect(afterMiss.misses - before.misses).toBe(1)
    expect(afterMiss.compressions - before.compressions).toBe(1)
    const second = await withKey("/api/all-funds", { "accept-encoding": "gzip" })
    const third = await withKey("/api/all-funds", { "accept-encoding": "gzip" })
    const afterHits = await counts(server.url)
    expect(afterHits.hits - afterMiss.hits).toBe(2)
    expect(afterHits.compressions).toBe(afterMiss.compressions)
    expect(second.bytes.equals(first.bytes)).toBe(true)
    expect(third.headers.etag).toBe(first.headers.etag)
    // the quota stays per request: each hit counted
    expect(Number(third.headers["x-ratelimit-remaining"])).toBe(Number(first.headers["x-ratelimit-remaining"]) - 2)
    // another coding of the same answer: made once, from the kept bytes
    const br = await withKey("/api/all-funds", { "accept-encoding": "br" })
    const brAgain = await withKey("/api/all-funds", { "accept-encoding": "br" })
    expect(br.headers["content-encoding"]).toBe("br")
    expect(brAgain.bytes.equals(br.bytes)).toBe(true)
    expect((await counts(server.url)).compressions - afterHits.compressions).toBe(1)
    expect(JSON.parse(gunzipSync(first.bytes).toString("utf8")).data.length).toBeGreaterThan(0)
  })

  it("keeps /days as JSON and as CSV (Vary: Accept) apart, under one request target", async () => {
    const days = `/api/real_assets/${testCrc32("fm:8043:A")}/days`
    const json = await withKey(days)
    const csv = await withKey(days, { accept: "text/csv" })
    const before = await counts(server.url)
    const jsonAgain = await withKey(days)
    const csvAgain = await withKey(days, { accept: "text/csv" })
    expect((await counts(server.url)).hits - before.hits).toBe(2)
    expect(String(json.headers["content-type"])).toMatch(/json/)
    expect(String(csv.headers["content-type"])).toMatch(/csv/)
    expect(jsonAgain.bytes.equals(json.bytes)).toBe(true)
    expect(csvAgain.bytes.equals(csv.bytes)).toBe(true)
    expect(csvAgain.headers["content-type"]).toBe(csv.headers["content-type"])
  })

  it("keeps no error, nor /api/key/info", async () => {
    const before = await counts(server.url)
    expect((await withKey("/api/real_assets/4294967295/days")).status).toBe(404)
    expect((await withKey("/api/real_assets/4294967295/days")).status).toBe(404)
    expect((await withKey("/api/key/info")).status).toBe(200)
    const after = await counts(server.url)
    expect(after.hits).toBe(before.hits)
    expect(after.entries).toBe(before.entries)
  })

  it("drops a batch's answers when a new batch is published and the old one retires", async () => {
    await withKey("/api/asset_providers")
    const etag = (await withKey("/api/asset_providers")).headers.etag
    expect((await counts(server.url)).entries).toBeGreaterThan(0)
    publishFixtureB(fx.snapshotsDir)
    // the old handle closes once retired and unleased: its answers go, before any request on the new one
    expect(await waitFor(async () => (await counts(server.url)).entries === 0, 5000, 50)).toBe(true)
    const after = await withKey("/api/asset_providers")
    expect(after.headers.etag).not.toBe(etag)
    expect((await counts(server.url)).entries).toBe(1)
  })
})

describe("the answer cache's budget", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let key: CreatedKey
  const withKey = (path: string) => get(server.url + path, { "x-api-key": key.key })

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "budget@example.cl" })
    // about 8 KB: a few small answers at most
    server = await startServer({ dataDir: fx.dataDir, env: { FDS_ANSWER_CACHE_MB: "0.008" } })
  })
  afterAll(async () => {
    await server.close()
    fx.cleanup()
  })

  it("stays within FDS_ANSWER_CACHE_MB, dropping answers", async () => {
    // one answer under as many keys: the request target as sent (each spelling of the batch id is one)
    const batch = String((await withKey("/api/asset_providers")).headers["batch-id"])
    const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
    const spellings = Array.from({ length: 12 }, (_, i) => batch.slice(0, i) + hex(batch[i]!) + batch.slice(i + 1))
    for (const spelling of spellings) {
      const answer = await withKey(`/api/asset_providers?batch=${spelling}`)
      expect(answer.status, answer.bytes.toString("utf8")).toBe(200)
    }
    const after = await counts(server.url)
    expect(after.maxBytes).toBe(Math.floor(0.008 * 1024 * 1024))
    expect(after.bytes).toBeLessThanOrEqual(after.maxBytes)
    expect(after.evictions).toBeGreaterThan(0)
    expect(after.entries).toBeGreaterThan(0)
  })
})

describe("AnswerCache", () => {
  const answer = (n: number) => HttpServerResponse.uint8Array(new Uint8Array(n), { contentType: "application/json" })

  it("drops the least recently used answer first, every batch's answers against one budget", () => {
    const probe = new AnswerCache(1_000_000)
    const probeShelf = probe.shelfOn(new SnapshotMemo().memo)
    const one = probe.put(probeShelf, "/a", answer(1000), {})!.bytes
    // room for two answers of this size, not three
    const cache = new AnswerCache(one * 2 + 10)
    const first = cache.shelfOn(new SnapshotMemo().memo)
    const second = cache.shelfOn(new SnapshotMemo().memo)
    expect(cache.put(first, "/a", answer(1000), {})).not.toBeNull()
    expect(cache.put(second, "/b", answer(1000), {})).not.toBeNull()
    expect(cache.get(first, "/a")).toBeDefined() // /a used last: /b is the least recently used
    expect(cache.put(first, "/c", answer(1000), {})).not.toBeNull()
    expect(cache.get(second, "/b")).toBeUndefined()
    expect(cache.get(first, "/a")).toBeDefined()
    expect(cache.get(first, "/c")).toBeDefined()
    expect(cache.stats).toMatchObject({ entries: 2, evictions: 1 })
    expect(cache.stats.bytes).toBeLessThanOrEqual(cache.maxBytes)
  })

  it("keeps only 200 answers the route neither encoded nor negotiated, and none larger than the budget", () => {
    const cache = new AnswerCache(100_000)
    const shelf = cache.shelfOn(new SnapshotMemo().memo)
    expect(cache.put(shelf, "/404", HttpServerResponse.uint8Array(new Uint8Array(10), { status: 404 }), {})).toBeNull()
    const gz = HttpServerResponse.uint8Array(new Uint8Array(10), { headers: { "content-encoding": "gzip", vary: "accept-encoding" } })
    expect(cache.put(shelf, "/gz", gz, {})).toBeNull()
    expect(cache.put(shelf, "/huge", answer(200_000), {})).toBeNull()
    expect(cache.stats.entries).toBe(0)
  })

  it("lets a batch's answers go when its memo closes, and keeps none on a closed one", () => {
    const cache = new AnswerCache(1_000_000)
    const memo = new SnapshotMemo()
    const shelf = cache.shelfOn(memo.memo)
    cache.put(shelf, "/a", answer(100), {})
    cache.put(shelf, "/b", answer(100), {})
    expect(cache.stats.entries).toBe(2)
    memo.close()
    expect(cache.stats).toMatchObject({ entries: 0, bytes: 0 })
    const late = cache.shelfOn(memo.memo)
    expect(cache.put(late, "/c", answer(100), {})).toBeNull()
    expect(cache.stats.entries).toBe(0)
  })
})
