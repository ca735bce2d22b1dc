/**
 * Point-in-time reads over real HTTP on batches the real pipeline published from the small sample
 * (the CLI as a child process, as `./fds pipeline run` does): /api/batches from the ledger, and
 * `?batch=` on every data route. Every data route's answer is recorded while a batch is current;
 * after more publishes the same requests with `?batch=` give the same bytes. Past batches are
 * opened on demand, at most FDS_PAST_BATCHES_OPEN (2 here) at once (counted in /proc/self/fd), and
 * reading them never holds up a swap. Once retention removes a file: 410 batch_not_retained, with
 * the command that rebuilds it; running that command makes the batch answer again, byte for byte.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SPEC_OPERATIONS } from "../http/specOperations.ts"
import { ledgerRows, runCli, writeMiniSample } from "../ops/support/ops.ts"
import { createKey, expectErrorShape, type RunningServer, startServer, waitFor } from "../support/server.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

// biome-ignore lint/suspicious/noExplicitAny: answers are plain JSON
type Json = any

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly text: string
}

const DATES = ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"] as const
const PAST_OPEN = 2
/** Keeps four batch dates: 11-16 goes once 11-20 is published. */
const env = { FDS_RETENTION_DAYS: "4" }

let work: string
let mini: string
let dataDir: string
let server: RunningServer
let key: string
/** Batch id (file name without .sqlite) by batch date. */
const ids: Record<string, string> = {}
/** Every data route's request target, with the answer it gave while the first batch was current. */
let recorded: Array<{ readonly target: string; readonly answer: Answer }> = []

const snapshots = () => join(dataDir, "snapshots")
const currentFile = () => readFileSync(join(snapshots(), "CURRENT"), "utf8").trim()
const cli = (...args: string[]) => runCli(dataDir, ["pipeline", ...args], { env })

const call = async (target: string, headers: Record<string, string> = {}): Promise<Answer> => {
  const res = await request(server.url + target, { method: "GET", headers: { "x-api-key": key, ...headers } })
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() }
}
const json = async (target: string): Promise<Json> => {
  const a = await call(target)
  expect(a.status, `${target}: ${a.text.slice(0, 300)}`).toBe(200)
  return JSON.parse(a.text)
}
const header = (a: Answer, name: string): string | undefined => {
  const v = a.headers[name]
  return Array.isArray(v) ? v.join(", ") : v
}
const withBatch = (target: string, batch: string): string => `${target}${target.includes("?") ? "&" : "?"}batch=${batch}`
const servedDate = async (): Promise<string> => ((await request(`${server.url}/health`)).body.json() as Promise<Json>).then((b) => b.last_scraped_date)

/** The past snapshot files this process holds open (the served one excluded), from /proc/self/fd. */
const pastFilesOpen = (): string[] => {
  const served = currentFile()
  const open = new Set<string>()
  for (const fd of readdirSync("/proc/self/fd")) {
    let target: string
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`)
    } catch {
      continue // closed meanwhile
    }
    if (target.startsWith(snapshots()) && target.endsWith(".sqlite") && !target.endsWith(served)) open.add(target)
  }
  return [...open]
}

/** Request targets of every data route, with ids read from the batch's own listings. */
const dataRoutes = async (): Promise<string[]> => {
  const allFunds = await json("/api/all-funds")
  const row = (allFunds.data as Json[]).find((r) => r.category !== null && r.fundFamily !== null) ?? allFunds.data[0]
  const other = (allFunds.data as Json[]).find((r) => r.serieId !== row.serieId)
  const provider = (await json("/api/asset_providers")).data[0].id
  const ranking = (await json("/api/agf_stats/ranking")).data as Json[]
  const family = ((await json("/api/benchmarks")).data as Json[])[0]
  const familyRar = family?.id ?? family?.attributes?.family_rar ?? row.fundFamily
  const instruments = (await json("/api/fi/instruments?status=all&limit=500")).data as Json[]
  const fi = instruments.find((i) => i.status === "active" && i.series.length > 0) ?? instruments[0]
  const early = "2026-11-02"
  // a code some fund holds (any, when this fund has no portfolio)
  const portfolio = await call(`/api/funds/${row.run}/cartera/holdings`)
  const held = portfolio.status === 200 ? ((JSON.parse(portfolio.text).data as Json[])[0]?.attributes?.nemotecnico ?? "ANY") : "ANY"
  return [
    "/api/asset_providers",
    "/api/asset_providers?scope=all",
    `/api/asset_providers/${provider}/conceptual_assets`,
    `/api/conceptual_assets/${row.fundId}/real_assets`,
    `/api/real_assets/${row.serieId}/days`,
    `/api/real_assets/${row.serieId}/days?from_date=${early}`,
    `/api/real_assets/${row.serieId}/returns`,
    `/api/real_assets/${row.serieId}/returns?as_of_date=${early}`,
    `/api/real_assets/${row.serieId}/risk_metrics`,
    `/api/real_assets/${row.serieId}/expense_ratio`,
    `/api/real_assets/${row.serieId}/expense_ratio/history`,
    `/api/real_assets/${fi.main_serie_id}/days`,
    `/api/real_assets/${fi.main_serie_id}/returns`,
    `/api/compare?series=${row.serieId},${other.serieId}`,
    "/api/screener",
    "/api/screener?currency=PESOS&sort=1y&order=desc",
    `/api/funds/${row.run}/cartera/resumen`,
    `/api/funds/${row.run}/cartera/holdings`,
    `/api/funds/${row.run}/article107`,
    "/api/agf_stats/ranking",
    `/api/agf_stats/evolution?administrator=${encodeURIComponent(ranking[0].attributes.administrator)}`,
    "/api/reports/tac-changes",
    "/api/all-funds",
    "/api/all-funds?vehicle=all",
    `/api/all-funds?date=${early}`,
    "/api/market-summary",
    `/api/market-summary?date=${early}`,
    `/api/families/${encodeURIComponent(familyRar)}/index`,
    "/api/benchmarks",
    `/api/benchmarks/${encodeURIComponent(familyRar)}/prices`,
    "/api/fi/instruments",
    `/api/fi/instruments/${fi.instrument_id}`,
    `/api/fi/instruments/${fi.instrument_id}/prices`,
    `/api/fi/instruments/${fi.instrument_id}/cartera/holdings`,
    `/api/fi/instruments/${fi.instrument_id}/cartera/resumen`,
    // #31: who holds this, and the fund flows
    `/api/holders?instrument=${encodeURIComponent(held)}`,
    `/api/market/flows?level=fund&id=${row.fundId}&period=month`,
  ]
}

/** The document's path template a request target matches. */
const templateOf = (target: string, templates: ReadonlyArray<string>): string | undefined => {
  const path = target.split("?")[0]!
  return templates.find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path))
}

const publish = async (date: string) => {
  const r = await cli("run", "--source", mini, "--date", date)
  expect(r.stdout, r.stderr).toMatch(new RegExp(`^published ${date}: `))
  ids[date] = currentFile().replace(/\.sqlite$/, "")
  expect(await waitFor(async () => (await servedDate()) === date, 10_000), `the API serves ${date}`).toBe(true)
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-batches-"))
  ;({ mini } = await writeMiniSample(join(work, "mini")))
  dataDir = join(work, "data")
  const first = await cli("run", "--source", mini, "--date", DATES[0])
  expect(first.stdout, first.stderr).toMatch(/^published 2026-11-16: /)
  ids[DATES[0]] = currentFile().replace(/\.sqlite$/, "")
  server = await startServer({ dataDir, pollMillis: 50, env: { FDS_PAST_BATCHES_OPEN: String(PAST_OPEN), FDS_ENABLE_CLP: "true" } })
  key = (await createKey(dataDir, { email: "vintages@example.cl", tier: "internal" })).key
  const targets = await dataRoutes()
  recorded = await Promise.all(targets.map(async (target) => ({ target, answer: await call(target) })))
}, 120_000)

afterAll(async () => {
  await server?.close()
  rmSync(work, { recursive: true, force: true })
  rmSync(`${join(work, "mini")}-full`, { recursive: true, force: true })
})

describe("point-in-time reads", () => {
  it("the recorded requests cover every operation that takes ?batch=, and each answered from the first batch", async () => {
    const doc = JSON.parse((await call("/openapi.json")).text)
    const withBatchParam = Object.entries(doc.paths as Record<string, Json>)
      .filter(([, item]) => (item.get?.parameters ?? []).some((p: Json) => p.in === "query" && p.name === "batch"))
      .map(([path]) => path)
      // the batches' own list takes `batch` too, as "the list as that batch was published" (read
      // from the ledger, not from a snapshot): test/http/paging.test.ts
      .filter((path) => path !== "/api/batches")
    // the spec's data routes: the keyed ones but /api/key/info; no account route, nor the batches' own
    const dataOperations = [
      ...SPEC_OPERATIONS.filter((o) => o.security === "apiKey" && o.path !== "/api/key/info").map((o) => o.path),
      // the data routes added since the spec (#31)
      "/api/holders",
      "/api/market/flows",
    ]
    expect([...withBatchParam].sort()).toEqual([...dataOperations].sort())
    const covered = new Set(recorded.map((r) => templateOf(r.target, withBatchParam)))
    expect(withBatchParam.filter((p) => !covered.has(p))).toEqual([])
    expect(recorded.filter((r) => r.answer.status === 200).length).toBeGreaterThan(25)
    const returns = recorded.find((r) => r.target.endsWith("/returns") && r.answer.status === 200)!
    expect(JSON.parse(returns.answer.text).data.attributes.batch_id).toBe(ids[DATES[0]])
  })

  it("after more publishes, ?batch= gives every data route's answer byte for byte, while reads of past batches never hold up a swap", async () => {
    // past reads under way while the next batches are published and swapped in
    let reading = true
    const seen: number[] = []
    const reader = (async () => {
      while (reading) {
        for (const r of recorded.slice(0, 8)) seen.push((await call(withBatch(r.target, ids[DATES[0]]!))).status)
      }
    })()
    for (const date of DATES.slice(1)) await publish(date)
    reading = false
    await reader
    // a past read may only wait: it is never refused for the current batch's doings
    expect(seen.length).toBeGreaterThan(8)
    expect(seen.filter((s) => s >= 500)).toEqual([])

    for (const { target, answer } of recorded) {
      // under the first answer's request id: an error's body names it (`instance`)
      const again = await call(withBatch(target, ids[DATES[0]]!), { "x-request-id": header(answer, "x-request-id")! })
      expect([again.status, header(again, "content-type")], target).toEqual([answer.status, header(answer, "content-type")])
      expect(again.text, target).toBe(answer.text)
    }
    // the current batch answers otherwise: the reads above came from the past one
    const days = recorded.find((r) => r.target.endsWith("/days"))!
    const now = JSON.parse((await call(days.target)).text)
    const then = JSON.parse(days.answer.text)
    expect(then.meta.batch_date).toBe(DATES[0])
    expect(now.meta.batch_date).toBe(DATES.at(-1))
    expect(now.data.length).toBeGreaterThan(then.data.length)
  }, 180_000)

  it("every data route names the batch that answered (Batch-Id, and meta.batch_id where it has a meta): the past one named, else the current one", async () => {
    const first = ids[DATES[0]]!
    const last = ids[DATES.at(-1)!]!
    expect(first).not.toBe(last)
    const metaOf = (a: Answer): unknown => (header(a, "content-type")?.startsWith("application/json") ? JSON.parse(a.text).meta?.batch_id : undefined)
    const wrong: string[] = []
    let withMeta = 0
    const check = (what: string, a: Answer, batch: string) => {
      if (a.status !== 200) return
      const meta = metaOf(a)
      if (meta !== undefined) withMeta++
      if (header(a, "batch-id") !== batch || (meta !== undefined && meta !== batch)) wrong.push(`${what}: ${header(a, "batch-id")} / ${String(meta)}, expected ${batch}`)
    }
    for (const { target, answer } of recorded) {
      check(`${target} (recorded)`, answer, first)
      check(`${target}?batch=<first>`, await call(withBatch(target, first)), first)
      check(`${target} (now)`, await call(target), last)
    }
    expect(wrong).toEqual([])
    // 19 of the recorded requests answer 200 with a meta (days, all-funds, market summary, index, stats, portfolios, FI,
    // providers, compare, screener), each checked three times
    expect(withMeta).toBeGreaterThanOrEqual(3 * 19)
    expect(recorded.filter((r) => r.answer.status === 200).length).toBeGreaterThan(25)
  })

  it("names the batch that answered (batch_id of the returns), for a past batch and for the current one named", async () => {
    const returns = recorded.find((r) => r.target.endsWith("/returns") && r.answer.status === 200)!.target
    for (const date of DATES) {
      const body = await json(withBatch(returns, ids[date]!))
      expect([body.data.attributes.batch_id, body.data.attributes.calculation_date]).toEqual([ids[date], date])
    }
    // the current batch named is the current answer
    const current = ids[DATES.at(-1)!]!
    expect((await call(withBatch(returns, current))).text).toBe((await call(returns)).text)
  })

  it("gives a strong ETag and an immutable Cache-Control when the batch is named; If-None-Match answers 304", async () => {
    const target = recorded.find((r) => r.target.endsWith("/days"))!.target
    for (const batch of [ids[DATES[0]]!, ids[DATES.at(-1)!]!]) {
      const a = await call(withBatch(target, batch))
      const etag = header(a, "etag")!
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/) // strong: no W/
      expect(header(a, "cache-control")).toBe("private, max-age=31536000, immutable")
      const again = await call(withBatch(target, batch), { "if-none-match": etag })
      expect([again.status, again.text, header(again, "etag"), header(again, "cache-control")]).toEqual([
        304,
        "",
        etag,
        "private, max-age=31536000, immutable",
      ])
    }
    // unnamed, the current batch is kept until the next one is expected
    const plain = await call(target)
    expect(header(plain, "cache-control")).toMatch(/^private, max-age=\d+$/)
    expect(header(plain, "etag")).not.toBe(header(await call(withBatch(target, ids[DATES[0]]!)), "etag"))
    // a past batch's validator does not match the current answer
    const past = header(await call(withBatch(target, ids[DATES[0]]!)), "etag")!
    expect((await call(withBatch(target, ids[DATES.at(-1)!]!), { "if-none-match": past })).status).toBe(200)
  })

  it("answers 404 for a batch never published, 422 naming batch for a malformed or repeated one", async () => {
    const target = "/api/asset_providers"
    const unknown = await call(withBatch(target, "2026-11-16-0123456789abcdef"))
    expect(unknown.status).toBe(404)
    expectErrorShape(JSON.parse(unknown.text), 404)
    expect(JSON.parse(unknown.text)).toMatchObject({ error: "not_found", parameter: "batch" })
    for (const bad of ["2026-11-16", "2026-11-16-0123456789ABCDEF", "2026-02-30-0123456789abcdef", "latest", "", `${ids[DATES[0]]}.sqlite`, "x".repeat(300)]) {
      const a = await call(`${target}?batch=${encodeURIComponent(bad)}`)
      expect(a.status, bad).toBe(422)
      expectErrorShape(JSON.parse(a.text), 422)
      expect(JSON.parse(a.text)).toMatchObject({ error: "invalid_parameter", parameter: "batch" })
    }
    const twice = await call(`${target}?batch=${ids[DATES[0]]}&batch=${ids[DATES[1]]}`)
    expect([twice.status, JSON.parse(twice.text).parameter, JSON.parse(twice.text).message]).toEqual([422, "batch", expect.stringContaining("more than once")])
    // an unknown batch is not found on a route whose id exists
    const days = recorded.find((r) => r.target.endsWith("/days"))!.target
    expect((await call(withBatch(days, "2020-01-01-ffffffffffffffff"))).status).toBe(404)
  })

  it(`keeps at most FDS_PAST_BATCHES_OPEN (${PAST_OPEN}) past files open, whatever order and concurrency the reads come in`, async () => {
    // a server of its own: the first one's rendering thread keeps the files of the answers it rendered open (all-funds and
    // market-summary at a date), and the count below is of every file this process holds
    await server.close()
    server = await startServer({ dataDir, pollMillis: 50, env: { FDS_PAST_BATCHES_OPEN: String(PAST_OPEN), FDS_ENABLE_CLP: "true" } })
    expect(pastFilesOpen()).toEqual([])
    const past = DATES.slice(0, -1).map((d) => ids[d]!)
    const targets = recorded
      .filter((r) => r.answer.status === 200 && !/all-funds|market-summary/.test(r.target))
      .map((r) => r.target)
      .slice(0, 8)
    let most = 0
    // sampled while the reads run, not only between them
    const sampler = setInterval(() => {
      most = Math.max(most, pastFilesOpen().length)
    }, 5)
    for (let round = 0; round < 6; round++) {
      const wave = past.flatMap((_, i) => targets.map((t, j) => withBatch(t, past[(i + j + round) % past.length]!)))
      const answers = await Promise.all(wave.map((t) => call(t)))
      expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([])
      for (const [i, a] of answers.entries()) {
        const named = new URL(`http://x${wave[i]}`).searchParams.get("batch")!
        const meta = JSON.parse(a.text).meta
        if (meta?.batch_id !== undefined) expect(meta.batch_id).toBe(named)
      }
      most = Math.max(most, pastFilesOpen().length)
    }
    clearInterval(sampler)
    // three past batches asked for, two open at most, and the cache does use its places
    expect(most).toBeLessThanOrEqual(PAST_OPEN)
    expect(most).toBeGreaterThan(0)
  }, 60_000)

  it("lists every published batch from the ledger, newest first, with its times, hash and state", async () => {
    const list = await json("/api/batches")
    const ledger = ledgerRows(dataDir)
    const publishedEvents = ledger.filter((e) => e.type === "BatchPublished")
    expect(list.total).toBe(DATES.length)
    expect(list.data.map((b: Json) => b.id)).toEqual([...DATES].reverse().map((d) => ids[d]))
    for (const b of list.data as Json[]) {
      const manifest = JSON.parse(readFileSync(join(snapshots(), `${b.id}.manifest.json`), "utf8"))
      const built = ledger.find((e) => e.type === "BatchBuilt" && e.payload.file === `${b.id}.sqlite`)!
      expect(b.type).toBe("batch")
      expect(b.attributes).toMatchObject({
        batch_date: manifest.batch_date,
        content_hash: manifest.content_hash,
        pipeline_version: manifest.pipeline_version,
        input_count: manifest.inputs.length,
        retained: true,
        current: b.id === ids[DATES.at(-1)!],
      })
      expect(b.id.slice(11)).toBe(manifest.content_hash.slice(0, 16))
      expect(b.attributes.built_at <= b.attributes.published_at).toBe(true)
      expect((built.payload.inputs as string[]).length).toBe(b.attributes.input_count)
    }
    // superseded when the next one was published; the newest is not
    const publishedAt = list.data.map((b: Json) => b.attributes.published_at)
    expect(list.data.map((b: Json) => b.attributes.superseded_at)).toEqual([null, ...publishedAt.slice(0, -1)])
    expect([...publishedAt].sort().reverse()).toEqual(publishedAt)
    expect(publishedEvents).toHaveLength(DATES.length)
    // paged
    const page = await json("/api/batches?limit=2&offset=1")
    expect([page.total, page.limit, page.offset, page.data.map((b: Json) => b.id)]).toEqual([4, 2, 1, [ids[DATES[2]], ids[DATES[1]]]])
    expect((await json("/api/batches?offset=10")).data).toEqual([])
    for (const bad of ["limit=0", "limit=501", "offset=-1", "limit=abc"]) {
      const a = await call(`/api/batches?${bad}`)
      expect([a.status, JSON.parse(a.text).parameter], bad).toEqual([422, bad.split("=")[0]])
    }
    // keyed like every data route
    expect((await request(`${server.url}/api/batches`)).statusCode).toBe(401)
  })

  it("gives one batch with its manifest as written next to its file; 404 for an unknown id, 422 for a malformed one", async () => {
    const id = ids[DATES[1]]!
    const one = await json(`/api/batches/${id}`)
    const manifest = JSON.parse(readFileSync(join(snapshots(), `${id}.manifest.json`), "utf8"))
    expect(one.data.id).toBe(id)
    expect(one.data.attributes.manifest).toEqual(manifest)
    expect(one.data.attributes.manifest.inputs.every((i: Json) => /^[0-9a-f]{64}$/.test(i.sha256))).toBe(true)
    const listed = (await json("/api/batches")).data.find((b: Json) => b.id === id)
    // the list's attributes, and the batch's Parquet files (#31), which the list leaves out
    const { manifest: _, parquet_files: parquet, ...attributes } = one.data.attributes
    expect(attributes).toEqual(listed.attributes)
    expect(parquet).toEqual(expect.arrayContaining(["series.parquet", "returns.parquet", "tac.parquet", "holdings.parquet"]))
    const unknown = await call("/api/batches/2026-11-16-0123456789abcdef")
    expect([unknown.status, JSON.parse(unknown.text).parameter]).toEqual([404, "batch_id"])
    const malformed = await call("/api/batches/latest")
    expect([malformed.status, JSON.parse(malformed.text).parameter]).toEqual([422, "batch_id"])
    // validated by its bytes and asked again each time
    const a = await call(`/api/batches/${id}`)
    expect(header(a, "cache-control")).toBe("private, no-cache")
    expect((await call(`/api/batches/${id}`, { "if-none-match": header(a, "etag")! })).status).toBe(304)
  })

  it("once retention removes a batch's file: 410 batch_not_retained with its hash and the rebuild command; rebuilt, it answers as before", async () => {
    const gone = ids[DATES[0]]!
    await publish("2026-11-20")
    expect(readdirSync(snapshots())).not.toContain(`${gone}.sqlite`)
    const target = recorded.find((r) => r.target.endsWith("/days"))!
    const a = await call(withBatch(target.target, gone))
    expect(a.status).toBe(410)
    const body = JSON.parse(a.text)
    expectErrorShape(body, 410)
    const hash = JSON.parse(readFileSync(join(snapshots(), `${gone}.manifest.json`), "utf8")).content_hash
    expect(body).toMatchObject({ error: "batch_not_retained", parameter: "batch" })
    const command = `./fds pipeline reproduce --date ${DATES[0]} --file ${gone}.sqlite --restore`
    expect(body.message).toContain(hash)
    expect(body.message).toContain(command)
    const listed = (await json("/api/batches")).data.find((b: Json) => b.id === gone)
    expect(listed.attributes).toMatchObject({ retained: false, current: false, content_hash: hash })
    expect((await json(`/api/batches/${gone}`)).data.attributes.manifest.content_hash).toBe(hash)

    // the command the message gives (as ./fds runs it) puts the file back; the batch answers again, byte for byte
    const rebuilt = await cli(...command.split(" ").slice(2))
    expect(rebuilt.code, rebuilt.stderr).toBe(0)
    const again = await call(withBatch(target.target, gone))
    expect([again.status, again.text]).toEqual([200, target.answer.text])
  }, 120_000)
})
