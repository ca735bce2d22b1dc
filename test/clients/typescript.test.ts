/**
 * The TypeScript package (clients/typescript) against real servers on ephemeral ports: typed
 * calls answer the fixture's data with the key in X-Api-Key only; 401, 404 and 422 throw typed
 * errors with the RFC 9457 members, never retried; a per-address 429 is retried after its
 * Retry-After and uses no quota; a quota 429 throws QuotaExceeded at once with the reset time
 * (midnight in Santiago) and one request sent; a 503 with Retry-After: 5 is waited out; paging
 * keeps the first page's batch across a publish; a download cut off resumes with Range and
 * If-Range and is checked against the SHA-256 worked out here from the file on disk.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type ApiError,
  createClient,
  DigestMismatch,
  type FdsClient,
  InvalidParameter,
  NotFound,
  QuotaExceeded,
  type RetryEvent,
  ServiceUnavailable,
  Unauthorized,
  VERSION,
} from "../../clients/typescript/src/index.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { byAscendingId, ids, SPHERES, UNIVERSE } from "../market/compareFixture.ts"
import { marketFixtureData } from "../market/fixtureFunds.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { createKey, get, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { type FixtureDir, makeDataDir } from "../support/snapshotFixture.ts"

/** What the client sent and got, request by request (its `fetch` option wraps the real fetch). */
interface Sent {
  readonly url: string
  readonly headers: Record<string, string>
  readonly status: number
}

const observed = (sent: Sent[]) => async (request: Request) => {
  const headers = Object.fromEntries(request.headers)
  const response = await fetch(request)
  sent.push({ url: request.url, headers, status: response.status })
  return response
}

/** Records the publish of `file` in the ledger, as the pipeline does: `?batch=` and downloads read batches the ledger lists. */
const recorded = (dir: FixtureDir, file: string): string => {
  recordPublished(dir.dataDir, { batchDate: file.slice(0, 10), file, contentHash: readManifest(dir.snapshotsDir, file).content_hash })
  return file.replace(/\.sqlite$/, "")
}

const sha256 = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("base64")

/** The error a promise is rejected with. */
const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected a rejection")
}

describe("@fds/client (clients/typescript)", () => {
  const dir = makeDataDir()
  const work = mkdtempSync(join(tmpdir(), "fds-ts-client-"))
  const servers: RunningServer[] = []
  const others: FixtureDir[] = []
  let server: RunningServer
  let key = ""
  let batch = ""
  const sent: Sent[] = []
  let fds: FdsClient
  const fixture = marketFixtureData()

  beforeAll(async () => {
    batch = recorded(dir, publishMarketSnapshot(dir.snapshotsDir, { returns: true, extra: (w) => w.insertRows("cmf_spheres", SPHERES) }))
    key = (await createKey(dir.dataDir, { email: "ts-client@example.cl", tier: "internal" })).key
    server = await startServer({ dataDir: dir.dataDir, pollMillis: 50 })
    servers.push(server)
    fds = createClient({ apiKey: key, baseUrl: server.url, userAgent: "fds-tests/1.0 (+ops@example.cl)", fetch: observed(sent) })
  })
  afterAll(async () => {
    for (const s of servers) await s.close()
    for (const d of [dir, ...others]) d.cleanup()
    rmSync(work, { recursive: true, force: true })
  })

  it("typed calls answer the fixture's data; the key goes in X-Api-Key only, with a User-Agent naming the package", async () => {
    const providers = await fds.get("/api/asset_providers")
    expect(providers.data.map((p) => p.attributes.name)).toEqual(fixture.administrators.map((a) => a.name))
    const funds = await fds.get("/api/all-funds", { params: { query: { vehicle: "mutual_fund" } } })
    const first = funds.data.find((row) => row.vehicle === "mutual_fund")
    expect(first).toBeDefined()
    const series = fixture.funds.flatMap((f) => f.series).find((s) => String(s.assetId) === first!.serieId)
    expect(series, `${first!.serieId} is a fixture series`).toBeDefined()
    const days = await fds.get("/api/real_assets/{asset_id}/days", { params: { path: { asset_id: first!.serieId }, query: { from_date: "2000-01-01" } } })
    expect(days.data.map((d) => d.attributes.price)).toEqual(series!.quotas.map((q) => q.price))
    expect(days.data.length).toBeGreaterThan(0)
    expect(sent.length).toBe(3)
    for (const s of sent) {
      expect(s.status).toBe(200)
      expect(s.headers["x-api-key"]).toBe(key)
      expect(s.url).not.toContain(key)
      expect(s.headers["user-agent"]).toBe(`fds-tests/1.0 (+ops@example.cl) fds-client-typescript/${VERSION} (node ${process.versions.node})`)
    }
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../clients/typescript/package.json"), "utf8")) as { version: string }
    expect(VERSION).toBe(pkg.version)
  })

  it("the key comes from FDS_API_KEY and the URL from FDS_BASE_URL when not given; without a key it says how to give one", async () => {
    const saved = { key: process.env.FDS_API_KEY, url: process.env.FDS_BASE_URL }
    try {
      process.env.FDS_API_KEY = key
      process.env.FDS_BASE_URL = server.url
      const info = await createClient().get("/api/key/info")
      expect([info.tier, info.quota_enforced]).toEqual(["internal", false])
      delete process.env.FDS_API_KEY
      expect(() => createClient({ baseUrl: server.url })).toThrow("no API key: pass apiKey or set FDS_API_KEY")
    } finally {
      for (const [name, value] of [["FDS_API_KEY", saved.key], ["FDS_BASE_URL", saved.url]] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  })

  it("401, 404 and 422 throw typed errors with the RFC 9457 members, at once and without the key in them", async () => {
    const wrongKey = `${key.slice(0, -8)}AAAAAAAA`
    const before = sent.length
    const stranger = createClient({ apiKey: wrongKey, baseUrl: server.url, fetch: observed(sent) })
    const unauthorized = await rejection(stranger.get("/api/asset_providers"))
    expect(unauthorized).toBeInstanceOf(Unauthorized)
    const u = unauthorized as Unauthorized
    expect([u.status, u.code, u.type, u.request]).toEqual([401, "unauthorized", "/docs#error-unauthorized", "GET /api/asset_providers"])
    expect(u.title).toBe("API key missing, invalid or revoked")
    expect(u.instance).toBe(`urn:fds:request:${u.requestId}`)

    const notFound = await rejection(fds.get("/api/asset_providers/{provider_id}/conceptual_assets", { params: { path: { provider_id: "12345" } } }))
    expect(notFound).toBeInstanceOf(NotFound)
    expect([(notFound as NotFound).status, (notFound as NotFound).code]).toEqual([404, "not_found"])

    const invalid = await rejection(fds.get("/api/real_assets/{asset_id}/days", { params: { path: { asset_id: "1" }, query: { from_date: "2026-02-30" } } }))
    expect(invalid).toBeInstanceOf(InvalidParameter)
    const i = invalid as InvalidParameter
    expect([i.status, i.code, i.parameter]).toEqual([422, "invalid_parameter", "from_date"])
    expect(i.issues?.length).toBeGreaterThan(0)
    expect(i.detail).toBeTruthy()

    // one request each: none of them is retried
    expect(sent.slice(before).map((s) => s.status)).toEqual([401, 404, 422])
    for (const error of [u, notFound as ApiError, i]) {
      const text = `${error.message} ${error.stack} ${JSON.stringify(error)}`
      expect(text).not.toContain(key)
      expect(text).not.toContain(wrongKey)
      expect(text).not.toContain(key.slice(13))
    }
  })

  it("a quota 429 throws QuotaExceeded at once (one request, no wait), with the reset at midnight in Santiago", async () => {
    const small = (await createKey(dir.dataDir, { email: "quota@example.cl", dailyQuota: 2 })).key
    const mine: Sent[] = []
    const retries: RetryEvent[] = []
    const client = createClient({ apiKey: small, baseUrl: server.url, fetch: observed(mine), onRetry: (e) => void retries.push(e) })
    await client.get("/api/asset_providers")
    await client.get("/api/asset_providers")
    const started = performance.now()
    const error = await rejection(client.get("/api/asset_providers"))
    const elapsed = performance.now() - started
    expect(error).toBeInstanceOf(QuotaExceeded)
    const q = error as QuotaExceeded
    expect(elapsed).toBeLessThan(1000)
    expect(mine.map((s) => s.status)).toEqual([200, 200, 429])
    expect(retries).toEqual([])
    expect([q.status, q.code, q.limit]).toEqual([429, "quota_exceeded", 2])
    // the reset is the next midnight in America/Santiago: in the future, within a (25-hour) day, at 00:00 there
    const reset = q.reset!.getTime()
    expect(reset).toBeGreaterThan(Date.now())
    expect(reset - Date.now()).toBeLessThanOrEqual(25 * 3600 * 1000)
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: "America/Santiago", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })
    expect(local.format(q.reset!)).toBe("00:00:00")
    // the answer's Retry-After is the hours to that reset, which the client did not wait for
    expect(q.retryAfter).toBeGreaterThan(60)
    expect(q.message).not.toContain(small)
  })

  it("a per-address 429 is retried after Retry-After (1 s) until every call is answered, using no quota", async () => {
    const limited = await startServer({ dataDir: dir.dataDir, rateLimit: { perSecond: 5, burst: 3 } })
    servers.push(limited)
    const counted = (await createKey(dir.dataDir, { email: "burst@example.cl" })).key
    const retries: RetryEvent[] = []
    const mine: Sent[] = []
    const client = createClient({ apiKey: counted, baseUrl: limited.url, fetch: observed(mine), onRetry: (e) => void retries.push(e) })
    const started = performance.now()
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.get("/api/asset_providers")))
    const elapsed = performance.now() - started
    for (const a of answers) expect(a.data.map((p) => p.attributes.name)).toEqual(fixture.administrators.map((p) => p.name))
    // a burst of 3: at least the other 3 were refused first, then served after their wait
    expect(retries.length).toBeGreaterThanOrEqual(3)
    for (const r of retries) {
      expect([r.status, r.retryAfter]).toEqual([429, 1])
      expect(r.waitMs).toBeGreaterThanOrEqual(1000)
    }
    expect(mine.filter((s) => s.status === 429).length).toBe(retries.length)
    expect(mine.filter((s) => s.status === 200).length).toBe(6)
    expect(elapsed).toBeGreaterThanOrEqual(1000)
    // the refusals used no quota: six requests counted today
    const info = await get(`${server.url}/api/key/info`, { "x-api-key": counted })
    expect((info.body as { requests_today: number }).requests_today).toBe(6)
  })

  it("a 503 with Retry-After: 5 (no batch published yet) is waited out, and the retry gets the data", async () => {
    const empty = makeDataDir()
    others.push(empty)
    const keyOfEmpty = (await createKey(empty.dataDir, { email: "early@example.cl" })).key
    const early = await startServer({ dataDir: empty.dataDir, pollMillis: 50 })
    servers.push(early)
    const retries: RetryEvent[] = []
    const client = createClient({
      apiKey: keyOfEmpty,
      baseUrl: early.url,
      // the batch is published while the client waits
      onRetry: (e) => {
        retries.push(e)
        if (retries.length === 1) publishMarketSnapshot(empty.snapshotsDir)
      },
    })
    const started = performance.now()
    const providers = await client.get("/api/asset_providers")
    const elapsed = performance.now() - started
    expect(providers.data.map((p) => p.attributes.name)).toEqual(fixture.administrators.map((a) => a.name))
    expect(retries.map((r) => [r.status, r.retryAfter])).toEqual([[503, 5]])
    expect(retries[0]!.waitMs).toBeGreaterThanOrEqual(5000)
    expect(elapsed).toBeGreaterThanOrEqual(5000)
  })

  describe("downloads", () => {
    const onDisk = () => readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`))

    it("a snapshot download cut off resumes with Range and If-Range, and the file's SHA-256 is checked", async () => {
      const whole = onDisk()
      const to = join(work, "snapshot.sqlite")
      // what a download cut off at half the file leaves: the bytes received and the file's ETag
      const etag = `"${createHash("sha256").update(whole).digest("hex")}"`
      const cut = Math.floor(whole.length / 2)
      writeFileSync(`${to}.part`, whole.subarray(0, cut))
      writeFileSync(`${to}.part.etag`, etag)
      const before = sent.length
      const done = await fds.download({ batch, file: "snapshot", to })
      expect(done).toEqual({ path: to, bytes: whole.length, sha256: sha256(whole), resumedFrom: cut })
      expect(readFileSync(to).equals(whole)).toBe(true)
      expect([existsSync(`${to}.part`), existsSync(`${to}.part.etag`)]).toEqual([false, false])
      const resumed = sent.slice(before)
      expect(resumed.map((s) => [s.status, s.headers.range, s.headers["if-range"]])).toEqual([[206, `bytes=${cut}-`, etag]])
    })

    it("a download stopped by its signal leaves the bytes received and the ETag, from which it resumes", async () => {
      const whole = onDisk()
      const to = join(work, "stopped.sqlite")
      const stop = new AbortController()
      let written = 0
      const error = await rejection(
        fds.download({
          batch,
          file: "snapshot",
          to,
          signal: stop.signal,
          onProgress: (bytes) => {
            written = bytes
            stop.abort()
          },
        }),
      )
      expect(String(error)).toMatch(/abort/i)
      expect(written).toBeGreaterThan(0)
      expect(readFileSync(`${to}.part`).equals(whole.subarray(0, written))).toBe(true)
      expect(existsSync(to)).toBe(false)
      const done = await fds.download({ batch, file: "snapshot", to })
      expect([done.sha256, done.bytes]).toEqual([sha256(whole), whole.length])
      expect(readFileSync(to).equals(whole)).toBe(true)
    })

    it("a partial file that is not the start of the file fails the digest check, is removed, and a new download succeeds", async () => {
      const whole = onDisk()
      const to = join(work, "damaged.sqlite")
      const cutter = new AbortController()
      await rejection(fds.download({ batch, file: "snapshot", to, signal: cutter.signal, onProgress: () => cutter.abort() }))
      const part = readFileSync(`${to}.part`)
      part[0] = part[0]! ^ 0xff
      writeFileSync(`${to}.part`, part)
      const error = await rejection(fds.download({ batch, file: "snapshot", to }))
      expect(error).toBeInstanceOf(DigestMismatch)
      expect((error as DigestMismatch).expected).toBe(sha256(whole))
      expect([existsSync(to), existsSync(`${to}.part`), existsSync(`${to}.part.etag`)]).toEqual([false, false, false])
      const again = await fds.download({ batch, file: "snapshot", to })
      expect([again.resumedFrom, again.sha256]).toEqual([0, sha256(whole)])
      expect(readFileSync(to).equals(whole)).toBe(true)
    })

    it("series.csv downloads with its digest checked: one line per fixture series", async () => {
      const to = join(work, "series.csv")
      const done = await fds.download({ batch, file: "series.csv", to })
      const bytes = readFileSync(to)
      expect(done.sha256).toBe(sha256(bytes))
      const lines = bytes.toString("utf8").trimEnd().split("\n")
      expect(lines[0]).toBe("id,vehicle,run,fund,series,administrator,currency,first_date,last_date")
      expect(lines.length - 1).toBe(fixture.funds.flatMap((f) => f.series).length)
    })
  })

  it("paging follows links.next from the first page's batch across a publish; an unpinned call's long Retry-After throws at once", async () => {
    const expected = ids(...byAscendingId(UNIVERSE))
    expect(expected.length).toBe(10)
    const pages = fds.pages("/api/screener", { params: { query: { order: "asc", limit: 4 } } })
    const first = await pages.next()
    expect(first.done).toBe(false)
    const seen = first.value ? first.value.data.map((row) => row.id) : []
    expect(seen).toEqual(expected.slice(0, 4))
    // a batch without returns is published: read from it, the screener answers 503
    recorded(dir, publishMarketSnapshot(dir.snapshotsDir, { returns: false }))
    expect(await waitFor(async () => (await get(`${server.url}/api/screener`, { "x-api-key": key })).status === 503, 10_000)).toBe(true)
    for await (const page of pages) seen.push(...page.data.map((row) => row.id))
    expect(seen).toEqual(expected)
    // the rows of every page, as one list: read again from the first batch, named
    const rows: string[] = []
    for await (const row of fds.rows("/api/screener", { params: { query: { order: "asc", limit: 3, batch } } })) rows.push(row.id)
    expect(rows).toEqual(expected)
    // unpinned, the new batch answers 503 with a Retry-After longer than the client waits (30 s)
    const started = performance.now()
    const error = await rejection(fds.get("/api/screener"))
    expect(performance.now() - started).toBeLessThan(1000)
    expect(error).toBeInstanceOf(ServiceUnavailable)
    expect((error as ServiceUnavailable).status).toBe(503)
    expect((error as ServiceUnavailable).retryAfter).toBeGreaterThan(30)
  })
})
