/**
 * A kept answer is the answer (issue #32): every GET of the contract sweep's data calls
 * (sweepCalls.ts) on the small sample, as given (and /days with Accept: text/csv), is sent twice
 * (the miss, then the hit) with identity, gzip and br to a server with the answer cache, and once
 * to a server on the same data with it off (FDS_ANSWER_CACHE_MB=0); the same call with its query
 * reordered and with a parameter repeated, which tests the cache's key rather than its codings,
 * with gzip only; then each once as HEAD to both. Status, body bytes (as sent and decoded) and
 * every header but the per-request ones must be the same.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { advertisedKeepAliveMs, CLIENT_KEEP_ALIVE_MS, SERVER_KEEP_ALIVE_MS, testDispatcher } from "../support/keepAlive.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { publishSmallSample } from "../support/smallSample.ts"
import { type Call, dataCalls, readBatch, urlOf } from "./sweepCalls.ts"

interface Sent {
  readonly status: number
  readonly headers: Record<string, string>
  readonly bytes: Buffer
}

/** Headers that differ from one request to the next whatever the cache does. */
const PER_REQUEST = new Set(["date", "x-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "connection", "keep-alive"])

/** One request, through the dispatcher that lets an idle socket go well before the server closes it (support/keepAlive.ts). */
const sendOnce = async (url: string, method: "GET" | "HEAD", headers: Record<string, string>): Promise<Sent> => {
  const res = await request(url, { method, headers, dispatcher: testDispatcher })
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || PER_REQUEST.has(name)) continue
    kept[name] = Array.isArray(value) ? value.join(", ") : value
  }
  // seconds until the next batch: the same on both servers but for the second between them
  if (kept["cache-control"] !== undefined) kept["cache-control"] = kept["cache-control"].replace(/max-age=\d+(?!.*immutable)/, "max-age=N")
  const bytes = Buffer.from(await res.body.arrayBuffer())
  const id = res.headers["x-request-id"]
  // an error names its request: the only bytes of a body that are the request's own
  const own = typeof id === "string" && res.statusCode >= 400 ? Buffer.from(bytes.toString("utf8").replaceAll(id, "<request id>")) : bytes
  return { status: res.statusCode, headers: kept, bytes: own }
}

const decoded = (sent: Sent): string => {
  const coding = sent.headers["content-encoding"]
  const plain = coding === "gzip" ? gunzipSync(sent.bytes) : coding === "br" ? brotliDecompressSync(sent.bytes) : sent.bytes
  return plain.toString("utf8")
}

/**
 * The call's query reordered (reversed), and with its first parameter repeated (same value,
 * another value); /days also asked for CSV through Accept (the same target, another answer).
 * Each with the codings it is sent with: every one for an answer of its own, gzip for a variant of
 * the query.
 */
const ALL_CODINGS = ["identity", "gzip", "br"] as const
const variants = (c: Call): Array<{ readonly call: Call; readonly codings: ReadonlyArray<string> }> => {
  const query = c.query ?? []
  const answers = [c, ...(c.path.endsWith("/days") ? [{ ...c, headers: { ...c.headers, accept: "text/csv" } }] : [])].map((call) => ({
    call,
    codings: ALL_CODINGS,
  }))
  if (query.length === 0) return answers
  const [first] = query
  const keyed = [
    ...(query.length > 1 ? [{ ...c, query: [...query].reverse() }] : []),
    { ...c, query: [...query, first!] },
    { ...c, query: [...query, [first![0], `${first![1]}x`] as const] },
  ]
  return [...answers, ...keyed.map((call) => ({ call, codings: ["gzip"] }))]
}

describe("a kept answer is byte for byte the answer (the contract sweep, cache on and off)", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-answers-"))
  const dataDir = join(work, "data")
  let cached: RunningServer
  let uncached: RunningServer
  const mismatches: string[] = []
  let compared = 0
  let counts = { hits: 0, misses: 0 }
  /** Requests sent again after a 200 (the second of each pair, HEAD after GET): each one the cache may answer. */
  let repeats = 0
  /** The server's `Keep-Alive` answer header. */
  let keepAlive: string | string[] | undefined

  beforeAll(async () => {
    await publishSmallSample(dataDir)
    const env = { FDS_ENABLE_CLP: "true", FDS_ENABLE_REAL_UF: "true", FDS_ENABLE_TOTAL: "true" }
    cached = await startServer({ dataDir, env })
    uncached = await startServer({ dataDir, env: { ...env, FDS_ANSWER_CACHE_MB: "0" } })
    const key = (await createKey(dataDir, { email: "answers@example.cl", tier: "internal" })).key
    const batch = await readBatch(uncached.url, key)
    const calls = dataCalls(batch, key)
      .filter((c) => c.method === "get")
      .flatMap(variants)
    let next = 0
    const worker = async () => {
      for (let i = next++; i < calls.length; i = next++) {
        const { call: c, codings } = calls[i]!
        const path = urlOf("", c)
        for (const coding of codings) {
          const headers = { ...c.headers, "accept-encoding": coding }
          const miss = await sendOnce(cached.url + path, "GET", headers)
          const hit = await sendOnce(cached.url + path, "GET", headers)
          const off = await sendOnce(uncached.url + path, "GET", headers)
          if (miss.status === 200) repeats++
          for (const [name, got] of [
            ["first", miss],
            ["second", hit],
          ] as const) {
            compared++
            const what = `GET ${path} (${coding}, ${name} request)`
            if (got.status !== off.status) mismatches.push(`${what}: status ${got.status}, uncached ${off.status}`)
            else if (!got.bytes.equals(off.bytes)) mismatches.push(`${what}: body bytes differ`)
            else if (decoded(got) !== decoded(off)) mismatches.push(`${what}: decoded body differs`)
            else if (JSON.stringify(Object.entries(got.headers).sort()) !== JSON.stringify(Object.entries(off.headers).sort())) {
              mismatches.push(`${what}: headers ${JSON.stringify(got.headers)} vs uncached ${JSON.stringify(off.headers)}`)
            }
          }
        }
        const head = await sendOnce(cached.url + path, "HEAD", { ...c.headers, "accept-encoding": "gzip" })
        const headOff = await sendOnce(uncached.url + path, "HEAD", { ...c.headers, "accept-encoding": "gzip" })
        compared++
        if (head.status !== headOff.status || JSON.stringify(Object.entries(head.headers).sort()) !== JSON.stringify(Object.entries(headOff.headers).sort())) {
          mismatches.push(`HEAD ${path}: ${head.status} ${JSON.stringify(head.headers)} vs uncached ${headOff.status} ${JSON.stringify(headOff.headers)}`)
        }
      }
    }
    await Promise.all(Array.from({ length: 4 }, worker))
    const answer = await request(`${cached.url}/metrics`, { dispatcher: testDispatcher })
    keepAlive = answer.headers["keep-alive"]
    const metrics = (await answer.body.text()).split("\n")
    const value = (name: string) => Number(metrics.find((l) => l.startsWith(`${name} `))?.split(" ")[1] ?? Number.NaN)
    counts = { hits: value("fds_answer_cache_hits_total"), misses: value("fds_answer_cache_misses_total") }
  }, 600_000)
  afterAll(async () => {
    await cached?.close()
    await uncached?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("was sent through a dispatcher that lets an idle connection go well before the server closes it", () => {
    expect(advertisedKeepAliveMs(keepAlive)).toBe(SERVER_KEEP_ALIVE_MS)
    expect(CLIENT_KEEP_ALIVE_MS).toBeLessThanOrEqual(SERVER_KEEP_ALIVE_MS / 2)
  })

  it("answers each request with the same status, bytes and headers as the server without the cache", () => {
    expect(compared).toBeGreaterThan(1000)
    expect(mismatches.slice(0, 20)).toEqual([])
  })

  it("answered the repeated requests from the cache (all but the benchmarks', which the route negotiates itself)", () => {
    expect(repeats).toBeGreaterThan(300)
    expect(counts.hits).toBeGreaterThanOrEqual(repeats * 0.95)
  })
})
