/**
 * The Python package (clients/python/fds_client) against real servers on ephemeral ports, driven
 * by Debian's /usr/bin/python3 (it has pandas; the python3 on PATH may not) through a recording
 * proxy that keeps what each request carried, its answer's status and headers. Each scenario is
 * one Python process printing JSON lines; the expected values are worked out here from the
 * fixtures (test/market, test/fi), never from what the client answered:
 *   - every GET operation of /openapi.json (the account routes aside) through its Client.api
 *     method, answering the fixture's data, with the key in X-Api-Key only and the package's
 *     User-Agent; FDS_API_KEY / FDS_BASE_URL read when no key or URL is given;
 *   - 401, 403, 404 and 422 raise typed errors with the RFC 9457 members, at once, the key in none;
 *   - a quota 429 raises QuotaExceeded at once (one request, no sleep) with the reset time; a
 *     per-address 429 is retried after Retry-After plus jitter and uses no quota; a 503 with
 *     Retry-After: 5 is waited out;
 *   - a snapshot download cut off (or reset) resumes with Range and If-Range and is checked against
 *     its SHA-256, then opened with sqlite3; a damaged partial file fails the check and is removed;
 *   - a file already at dest is checked with a HEAD (its Repr-Digest), one request of the quota;
 *   - prices / returns / screener as DataFrames; `python3 -m fds_client prices|returns` as CSV;
 *   - paging keeps the first page's batch while another is published mid-iteration.
 */
import { createHash, createPublicKey, generateKeyPairSync, verify } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readManifest } from "../../snapshots/Manifest.ts"
import { writeRelease } from "../../snapshots/releases/WriteRelease.ts"
import { writeParquet } from "../../snapshots/parquet/WriteParquet.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { INSTRUMENTS as FI_INSTRUMENTS, PRICES as FI_PRICES } from "../fi/fiData.ts"
import { makeFiFixture } from "../fi/fiFixture.ts"
import { HOLDINGS as FI_HOLDINGS } from "../fi/fiHoldingsData.ts"
import { testInstrumentId, testSerieId } from "../fi/fiIds.ts"
import { byAscendingId, ids, SPHERES, UNIVERSE } from "../market/compareFixture.ts"
import { ARTICLE107, BENCHMARK_PRICES, BENCHMARKS, HOLDINGS as MARKET_HOLDINGS, TAC, USD } from "../market/fixtureExtras.ts"
import { ALFA, D1, D2, D3, M, marketFixtureData, sid } from "../market/fixtureFunds.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { createKey, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { type FixtureDir, makeDataDir } from "../support/snapshotFixture.ts"
import { type Json, PACKAGE_DIR, python, runPython } from "./pythonRun.ts"
import { type RecordingProxy, recordingProxy } from "./recordingProxy.ts"

/** The package's version, as its pyproject.toml takes it (from fds_client/_version.py). */
const VERSION = /__version__ = "([^"]+)"/.exec(readFileSync(join(PACKAGE_DIR, "fds_client/_version.py"), "utf8"))![1]!
const sha256Hex = (bytes: Buffer): string => createHash("sha256").update(bytes).digest("hex")

/** Records the publish of `file` in the ledger, as the pipeline does: `?batch=` and downloads read batches the ledger lists. */
const recorded = (dir: FixtureDir, file: string): string => {
  recordPublished(dir.dataDir, { batchDate: file.slice(0, 10), file, contentHash: readManifest(dir.snapshotsDir, file).content_hash })
  return file.replace(/\.sqlite$/, "")
}

describe("fds_client (clients/python) driven by /usr/bin/python3", () => {
  const dir = makeDataDir()
  const fiDir = makeFiFixture("available")
  const work = mkdtempSync(join(tmpdir(), "fds-py-client-"))
  const servers: RunningServer[] = []
  const proxies: RecordingProxy[] = []
  const others: FixtureDir[] = []
  const fixture = marketFixtureData()
  const seriesOf = (k: string) => fixture.funds.flatMap((f) => f.series).find((s) => s.assetId === sid(k))!
  const fundOf = (run: number) => fixture.funds.find((f) => f.run === run)!
  const providerOf = (rut: number) => fixture.administrators.find((a) => a.rut === rut)!.providerId
  let server: RunningServer
  /** In front of `server`. */
  let proxy: RecordingProxy
  /** In front of the FI fixture's server. */
  let fiProxy: RecordingProxy
  /** In front of a server of the same data with a per-address limit (a burst of 3, then one a second) and /metrics for internal keys only. */
  let strictProxy: RecordingProxy
  let key = ""
  let fiKey = ""
  let freeKey = ""
  let batch = ""
  let webhookId = ""

  beforeAll(async () => {
    batch = recorded(dir, publishMarketSnapshot(dir.snapshotsDir, { returns: true, extra: (w) => w.insertRows("cmf_spheres", SPHERES) }))
    // its Parquet files and signed release (the pipeline writes them at each publish; this fixture is written directly)
    writeParquet(dir.snapshotsDir, batch)
    writeRelease({ snapshotsDir: dir.snapshotsDir, batchId: batch, previousBatchId: null, key: generateKeyPairSync("ed25519").privateKey, now: new Date() })
    key = (await createKey(dir.dataDir, { email: "py-client@example.cl", tier: "internal" })).key
    fiKey = (await createKey(fiDir.dataDir, { email: "py-fi@example.cl", tier: "internal" })).key
    freeKey = (await createKey(dir.dataDir, { email: "py-free@example.cl" })).key
    server = await startServer({ dataDir: dir.dataDir, pollMillis: 50, env: { FDS_WEBHOOKS_ALLOW_PRIVATE: "1" } })
    // an endpoint of the key, for the webhook routes' GETs (nothing is sent to it)
    const made = await fetch(`${server.url}/api/webhooks`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9/hook", events: ["batch.published"] }),
    })
    webhookId = ((await made.json()) as { id: string }).id
    const fiServer = await startServer({ dataDir: fiDir.dataDir })
    const strict = await startServer({ dataDir: dir.dataDir, rateLimit: { perSecond: 1, burst: 3 }, metricsAllow: [] })
    servers.push(server, fiServer, strict)
    proxy = await recordingProxy(server.url)
    fiProxy = await recordingProxy(fiServer.url)
    strictProxy = await recordingProxy(strict.url)
    proxies.push(proxy, fiProxy, strictProxy)
  })
  afterAll(async () => {
    for (const p of proxies) await p.close()
    for (const s of servers) await s.close()
    for (const d of [dir, fiDir, ...others]) d.cleanup()
    rmSync(work, { recursive: true, force: true })
  })

  it("every GET operation of the contract has its Client.api method, which answers the fixture's data; the key goes in X-Api-Key only", async () => {
    const from = { market: proxy.seen.length, fi: fiProxy.seen.length }
    const fiId = testInstrumentId(9251)
    const run = await python(
      `
fds = fds_client.Client(sys.argv[1], sys.argv[2])
fi = fds_client.Client(sys.argv[3], sys.argv[4]).api
a, batch, work = fds.api, sys.argv[5], sys.argv[6]
calls = {
    "health": lambda: a.health(),
    "livez": lambda: a.livez(),
    "readyz": lambda: a.readyz(),
    "key_info": lambda: a.key_info(),
    "providers": lambda: a.providers(),
    "conceptual_assets": lambda: a.conceptual_assets(${providerOf(ALFA)}),
    "real_assets": lambda: a.real_assets(${fundOf(8043).conceptId}),
    "returns": lambda: a.returns("${sid("9107:A")}"),
    "days": lambda: a.days(${sid("8043:A")}, from_date="2000-01-01"),
    "expense_ratio": lambda: a.expense_ratio(${sid("8043:A")}),
    "risk_metrics": lambda: a.risk_metrics(${sid("9107:A")}),
    "expense_ratio_history": lambda: a.expense_ratio_history(${sid("8043:A")}),
    "compare": lambda: a.compare([${sid("9107:A")}, ${sid("9300:A")}]),
    "screener": lambda: a.screener(limit=3),
    "agf_ranking": lambda: a.agf_ranking(),
    "agf_evolution": lambda: a.agf_evolution("Alfa AGF S.A."),
    "all_funds": lambda: a.all_funds(),
    "market_summary": lambda: a.market_summary(),
    "family_index": lambda: a.family_index("Accionario nacional"),
    "benchmarks": lambda: a.benchmarks(),
    "benchmark_prices": lambda: a.benchmark_prices("Accionario eeuu", from_date="2000-01-01"),
    "cartera_resumen": lambda: a.cartera_resumen("8043", month="2026-02"),
    "cartera_holdings": lambda: a.cartera_holdings("8043", month="2026-02"),
    "article107": lambda: a.article107("8043"),
    "tac_changes": lambda: a.tac_changes(),
    "holders": lambda: a.holders(instrument="NOBODYHOLDSTHIS"),
    "market_flows": lambda: a.market_flows("fund", ${fundOf(8043).conceptId}, period="month"),
    "batches": lambda: a.batches(),
    "batch": lambda: a.batch(batch),
    "release": lambda: a.batch_release(batch).decode("utf-8"),
    "release_sig": lambda: a.batch_release_signature(batch).hex(),
    "manifest_file": lambda: a.batch_manifest_file(batch).decode("utf-8"),
    "release_key": lambda: a.release_key(),
    "changes": lambda: a.changes(batch),
    "webhooks": lambda: a.webhooks(),
    "webhook_deliveries": lambda: a.webhook_deliveries(sys.argv[7]),
    "fi_instruments": lambda: fi.fi_instruments(),
    "fi_instrument": lambda: fi.fi_instrument("${fiId}"),
    "fi_prices": lambda: fi.fi_prices("${fiId}"),
    "fi_holdings": lambda: fi.fi_holdings("${fiId}"),
    "fi_resumen": lambda: fi.fi_resumen("${fiId}"),
    # a paged list's rows across its pages (three of at most 3 rows)
    "iter_fi_prices": lambda: list(fi.iter_fi_prices("${fiId}", limit=3)),
}
got = {name: call() for name, call in calls.items()}
parquet = a.batch(batch)["data"]["attributes"]["parquet_files"]
done = [a.batch_snapshot(batch, work + "/all.sqlite"), a.batch_series_csv(batch, work + "/series.csv"), a.batch_days_csv(batch, dest=work + "/days.csv.gz")]
done += [a.batch_parquet(batch, parquet[0], work + "/" + parquet[0])] if parquet else []
got["downloads"] = [{"path": d.path, "size": d.size, "sha256": d.sha256, "status": d.status} for d in done]
out(got)
`,
      { argv: [key, proxy.url, fiKey, fiProxy.url, batch, work, webhookId] },
    )
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const got = run.result

    // every GET operation of /openapi.json but the account routes (outside the public API, no key) was requested
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> }
    const operations = Object.entries(openapi.paths)
      .filter(([path, methods]) => "get" in methods && !/^\/api\/(auth|me|alerts)(\/|$)/.test(path))
      .map(([path]) => path)
    const marketSent = proxy.seen.slice(from.market)
    const fiSent = fiProxy.seen.slice(from.fi)
    const sent = [...marketSent, ...fiSent]
    const asked = (path: string) => new RegExp(`^${path.replaceAll(".", "\\.").replace(/\{[^}]+\}/g, "[^/?]+")}(\\?|$)`)
    expect(operations.filter((path) => !sent.some((s) => asked(path).test(s.url)))).toEqual([])
    expect(operations.length).toBeGreaterThanOrEqual(36)
    // one request per call, each answered 200, with the key in X-Api-Key only and the package's User-Agent
    // iter_fi_prices's two pages more, the parquet_files look-up, and the four downloads
    expect(sent.length).toBe(Object.keys(got).length - 1 + 2 + 1 + 4)
    expect(fiSent.length).toBe(8)
    for (const s of sent) {
      expect([s.method, s.status]).toEqual(["GET", 200])
      expect(s.headers["x-api-key"]).toBe(fiSent.includes(s) ? fiKey : key)
      expect(s.url).not.toContain(key)
      expect(s.url).not.toContain(fiKey)
      expect(s.headers.authorization).toBeUndefined()
      expect(s.headers["user-agent"]).toBe(`fds-client-python/${VERSION}`)
    }

    const quotas = (k: string) => seriesOf(k).quotas
    const last = (k: string) => quotas(k).at(-1)!.price
    const names = (rows: Json[]) => rows.map((r) => r.attributes.name)
    expect(got.health.batch_id).toBe(batch)
    // the release as signed: its bytes verify with the served key and list the manifest the client fetched
    expect(verify(null, Buffer.from(got.release, "utf8"), createPublicKey(got.release_key), Buffer.from(got.release_sig, "hex"))).toBe(true)
    expect(JSON.parse(got.release).files).toContainEqual(expect.objectContaining({ name: `${batch}.manifest.json`, size: Buffer.byteLength(got.manifest_file) }))
    expect([got.livez.status, got.readyz.status]).toEqual(["alive", "ready"])
    expect([got.key_info.name, got.key_info.tier, got.key_info.quota_enforced]).toEqual(["py-client@example.cl", "internal", false])
    expect(names(got.providers.data)).toEqual(fixture.administrators.map((a) => a.name))
    // Alfa's current funds: 8300 ended on 2026-02-20
    const alfa = fixture.funds.filter((f) => f.providerRut === ALFA && f.isCurrent).map((f) => f.name)
    expect(names(got.conceptual_assets.data).sort()).toEqual(alfa.sort())
    expect(got.real_assets.data.map((r: Json) => r.id).sort()).toEqual(fundOf(8043).series.map((s) => String(s.assetId)).sort())
    // 9107:A's month: 1009.8 on D3 over 1000 on M
    expect(got.returns.data.id).toBe(String(sid("9107:A")))
    expect(got.returns.data.attributes.periods["1m"].value).toBeCloseTo(1009.8 / 1000 - 1, 9)
    expect(got.days.data.map((d: Json) => [d.attributes.date, d.attributes.price])).toEqual(quotas("8043:A").map((q) => [q.date, q.price]))
    const tacs = TAC.filter((t) => t.asset_id === sid("8043:A")).map((t) => t.tac)
    expect(got.expense_ratio.data.attributes.expense_ratio).toBe(tacs.at(-1))
    expect(got.expense_ratio_history.data.map((d: Json) => d.attributes.expense_ratio)).toEqual(tacs)
    expect([got.risk_metrics.data.id, got.risk_metrics.data.attributes.as_of_date]).toEqual([String(sid("9107:A")), D3])
    expect(got.compare.data.map((r: Json) => [r.id, r.attributes.price])).toEqual([
      [String(sid("9107:A")), last("9107:A")],
      [String(sid("9300:A")), last("9300:A")],
    ])
    expect(got.screener.data.map((r: Json) => r.id)).toEqual(ids(...byAscendingId(UNIVERSE)).slice(0, 3))
    // patrimony on D3 of the current series: Beta 3000e6 + 100e6 + 5.1e6 USD × 910 + 1000e6; Alfa 1010e6 + 1020e6 + 500e6;
    // Gamma 200e6 + 300e6 (9302's EUR has no rate)
    expect(got.agf_ranking.data.map((r: Json) => [r.attributes.administrator, r.attributes.total_patrimony])).toEqual([
      ["Beta AGF S.A.", 3000e6 + 100e6 + 5_100_000 * USD[D3]! + 1000e6],
      ["Alfa AGF S.A.", 1010e6 + 1020e6 + 500e6],
      ["Gamma AGF S.A.", 200e6 + 300e6],
    ])
    // Alfa in February: the month's last quotes of 8043:C (80e6), 8200 (500e6) and 8300 (50e6)
    expect(got.agf_evolution.data).toEqual([
      { month: "2026-02", "Alfa AGF S.A.": 80e6 + 500e6 + 50e6 },
      { month: "2026-03", "Alfa AGF S.A.": 1010e6 + 1020e6 + 500e6 },
    ])
    expect(got.all_funds.data.map((r: Json) => r.serieId).sort()).toEqual(ids(...UNIVERSE).sort())
    expect([got.market_summary.meta.date, got.market_summary.meta.previousDate, got.market_summary.meta.monthlyBaseDate]).toEqual([D3, D2, M])
    // base 100 on D1 (8043:A 100, 9105:A 200); on D2 (102 − 100) / 100 × 1000e6 + (198 − 200) / 200 × 3000e6 over 4000e6 = −0.0025
    expect(got.family_index.data.slice(0, 2)).toEqual([
      { date: D1, value: 100 },
      { date: D2, value: 99.75, change: -0.0025 },
    ])
    expect(got.benchmarks.data.map((b: Json) => [b.attributes.family_rar, b.attributes.symbol])).toEqual(BENCHMARKS.map((b) => [b.family_rar, b.symbol]))
    expect(got.benchmark_prices.data.map((p: Json) => p.close)).toEqual(BENCHMARK_PRICES.filter((p) => p.symbol === "VOO").map((p) => p.close))
    const february = MARKET_HOLDINGS.filter((h) => h.month === "2026-02")
    const etfa = got.cartera_resumen.data.find((r: Json) => r.attributes.tipo_instrumento === "ETFA")
    expect(etfa.attributes.valorizacion_extranjera).toBe(february.filter((h) => h.instrument_type === "ETFA").reduce((sum, h) => sum + h.valuation_thousands, 0))
    expect(got.cartera_holdings.data.map((h: Json) => h.attributes.nemotecnico)).toEqual(
      [...february].sort((x, y) => y.pct_fund_assets - x.pct_fund_assets).map((h) => h.instrument_code),
    )
    const a107 = ARTICLE107.find((r) => r.run === 8043)!
    expect([got.article107.article107RegulationStatus, got.article107.regulationDate]).toEqual([a107.status, a107.regulation_date])
    // TAC rises from January to February, one series per fund: 9105:I +0.003, 8043:A +0.002, 8200:BPRIV +0.0005
    expect(got.tac_changes.data.slice(0, 3).map((r: Json) => r.serieId)).toEqual(ids("9105:I", "8043:A", "8200:BPRIV"))
    expect(got.tac_changes.data[0].tacDelta).toBeCloseTo(0.008 - 0.005, 12)
    expect(got.batches.data.map((b: Json) => b.id)).toEqual([batch])
    expect([got.batch.data.id, got.batch.data.attributes.content_hash]).toEqual([batch, readManifest(dir.snapshotsDir, `${batch}.sqlite`).content_hash])
    expect([got.changes.data, got.changes.meta.from_batch, got.changes.meta.to_batch]).toEqual([[], batch, batch])

    const active = FI_INSTRUMENTS.filter((i) => i.status === "active").map((i) => i.instrument_id)
    expect(got.fi_instruments.data.map((i: Json) => i.instrument_id).sort()).toEqual(active.sort())
    expect(got.fi_instrument.data.name).toBe(FI_INSTRUMENTS.find((i) => i.run === 9251)!.name)
    const isoOf = (ymd: number) => `${String(ymd).slice(0, 4)}-${String(ymd).slice(4, 6)}-${String(ymd).slice(6)}`
    const fiSeries = [testSerieId(9251, "A"), testSerieId(9251, "I")]
    expect(got.fi_prices.data.map((p: Json) => `${p.serie_id} ${p.date} ${p.book_value}`).sort()).toEqual(
      FI_PRICES.filter((p) => fiSeries.includes(p.serie_id))
        .map((p) => `${p.serie_id} ${isoOf(p.date)} ${p.book_value}`)
        .sort(),
    )
    expect(got.iter_fi_prices).toEqual(got.fi_prices.data)
    expect(got.iter_fi_prices.length).toBe(7)
    // the latest period with positions, 2025-09
    const positions = FI_HOLDINGS.filter((h) => h.run === 9251 && h.period === "2025-09")
    expect(got.fi_holdings.data.map((h: Json) => h.valuation_thousands)).toEqual(positions.map((h) => h.valuation_thousands))
    expect(got.fi_resumen.data.map((r: Json) => r.valuation_national_thousands).sort()).toEqual(positions.map((h) => h.valuation_thousands).sort())

    // the downloads: the snapshot as on disk, series.csv one line per series, days.csv.gz one per quote
    const [snapshot, seriesCsv, daysCsv, parquetFile] = got.downloads as Json[]
    expect(parquetFile).toMatchObject({ status: 200, path: expect.stringMatching(/\.parquet$/) })
    expect(got.holders).toMatchObject({ data: [], meta: { by: "instrument", value: "NOBODYHOLDSTHIS", total: 0 } })
    expect(got.market_flows.meta).toBeDefined()
    const onDisk = readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`))
    expect([snapshot.size, snapshot.sha256, snapshot.status]).toEqual([onDisk.length, sha256Hex(onDisk), 200])
    expect(readFileSync(snapshot.path).equals(onDisk)).toBe(true)
    const csv = readFileSync(seriesCsv.path)
    expect(seriesCsv.sha256).toBe(sha256Hex(csv))
    const allSeries = fixture.funds.flatMap((f) => f.series)
    expect(csv.toString("utf8").trimEnd().split("\n").length - 1).toBe(allSeries.length)
    const days = gunzipSync(readFileSync(daysCsv.path)).toString("utf8").trimEnd().split("\n")
    expect(days[0]).toBe("id,date,price,total_net_assets,shareholders")
    expect(days.length - 1).toBe(allSeries.reduce((n, s) => n + s.quotas.length, 0))
  })

  it("the key comes from FDS_API_KEY and the server from FDS_BASE_URL; the User-Agent names the package, its version and the caller's", async () => {
    const from = proxy.seen.length
    const run = await python(
      `
import os
fds = fds_client.Client(user_agent="fds-tests/1.0 (+ops@example.cl)")
info = fds.api.key_info()
del os.environ["FDS_API_KEY"]
keyless = fds_client.Client()
out({"info": info, "repr": repr(fds), "base_url": fds.base_url, "version": fds_client.__version__, "keyless": caught(lambda: keyless.api.providers()),
     "pandas_imported": "pandas" in sys.modules})
`,
      { env: { FDS_API_KEY: key, FDS_BASE_URL: proxy.url } },
    )
    expect(run.stderr).toBe("")
    const { info, keyless } = run.result
    expect([info.name, info.tier]).toEqual(["py-client@example.cl", "internal"])
    expect(run.result.base_url).toBe(proxy.url)
    expect(run.result.version).toBe(VERSION)
    expect(run.result.repr).not.toContain(key)
    // pandas is imported for the DataFrame shortcuts only, not with the package
    expect(run.result.pandas_imported).toBe(false)
    const sent = proxy.seen.slice(from)
    expect(sent.map((s) => [s.url, s.status, s.headers["x-api-key"]])).toEqual([
      ["/api/key/info", 200, key],
      ["/api/asset_providers", 401, undefined],
    ])
    expect(sent[0]!.headers["user-agent"]).toBe(`fds-client-python/${VERSION} fds-tests/1.0 (+ops@example.cl)`)
    // without a key the call is sent without one, and the 401 says how to give one
    expect([keyless.class, keyless.status, keyless.code]).toEqual(["Unauthorized", 401, "unauthorized"])
    expect(keyless.str).toContain("FDS_API_KEY")
  })

  it("401, 403, 404 and 422 raise typed errors carrying the RFC 9457 members, at once, without the key in them", async () => {
    const wrongKey = `${key.slice(0, -8)}AAAAAAAA`
    const from = { market: proxy.seen.length, strict: strictProxy.seen.length }
    // an address nobody listens on any more
    const closed = await recordingProxy(server.url)
    await closed.close()
    const run = await python(
      `
fds = fds_client.Client(sys.argv[1], sys.argv[2])
stranger = fds_client.Client(sys.argv[3], sys.argv[2])
free = fds_client.Client(sys.argv[4], sys.argv[5])
out({
    "401": caught(lambda: stranger.api.providers()),
    "403": caught(lambda: free.api.get("/metrics")),
    "404": caught(lambda: fds.api.conceptual_assets(12345)),
    "422": caught(lambda: fds.api.days(1, from_date="2026-02-30")),
})
sleeps = []
nobody = fds_client.Client(sys.argv[1], sys.argv[6], max_attempts=3, backoff_base=0.01, sleep=sleeps.append)
out({"unreachable": caught(lambda: nobody.api.providers()), "sleeps": sleeps})
`,
      { argv: [key, proxy.url, wrongKey, freeKey, strictProxy.url, closed.url] },
    )
    expect(run.stderr).toBe("")
    const [errors, { unreachable, sleeps }] = run.lines
    const expected = {
      "401": ["Unauthorized", 401, "unauthorized", "/api/asset_providers"],
      "403": ["Forbidden", 403, "forbidden", "/metrics"],
      "404": ["NotFound", 404, "not_found", "/api/asset_providers/12345/conceptual_assets"],
      "422": ["InvalidParameter", 422, "invalid_parameter", "/api/real_assets/1/days?from_date=2026-02-30"],
    }
    for (const [status, [name, code, error, path]] of Object.entries(expected)) {
      const e = errors[status]
      expect([e.class, e.fds_error, e.status, e.code, e.path], status).toEqual([name, true, code, error, path])
      // the RFC 9457 members, as the server sent them
      expect(e.type).toBe(`/docs#error-${error}`)
      expect(e.title.length).toBeGreaterThan(0)
      expect(e.detail.length).toBeGreaterThan(0)
      expect(e.instance).toBe(`urn:fds:request:${e.request_id}`)
      expect(e.problem.status).toBe(code)
      expect(e.str).toContain(`${code}`)
      for (const text of [e.str, e.repr, JSON.stringify(e.problem)]) {
        expect(text).not.toContain(key)
        expect(text).not.toContain(wrongKey)
        expect(text).not.toContain(freeKey)
      }
    }
    expect(errors["401"].title).toBe("API key missing, invalid or revoked")
    expect(errors["422"].parameter).toBe("from_date")
    expect(errors["422"].problem.issues.length).toBeGreaterThan(0)
    // one request each: none is retried
    const sent = [...proxy.seen.slice(from.market), ...strictProxy.seen.slice(from.strict)]
    expect(sent.map((s) => s.status).sort()).toEqual([401, 403, 404, 422])
    for (const s of sent) expect(s.url).not.toContain(wrongKey)
    // a server that cannot be reached: retried with backoff (0.01 s, 0.02 s) and jitter (up to 30 %), then TransportError
    expect([unreachable.class, unreachable.fds_error, unreachable.status]).toEqual(["TransportError", true, null])
    expect(unreachable.str).not.toContain(key)
    expect(sleeps.length).toBe(2)
    for (const [i, base] of [0.01, 0.02].entries()) {
      expect(sleeps[i]).toBeGreaterThanOrEqual(base)
      expect(sleeps[i]).toBeLessThanOrEqual(base * 1.3)
    }
  })

  it("a quota 429 raises QuotaExceeded at once (one request, no sleep) with the reset at midnight in Santiago", async () => {
    const small = (await createKey(dir.dataDir, { email: "quota@example.cl", dailyQuota: 2 })).key
    const from = proxy.seen.length
    const run = await python(
      `
sleeps = []
fds = fds_client.Client(sys.argv[1], sys.argv[2], sleep=sleeps.append)
fds.api.providers()
fds.api.providers()
started = time.monotonic()
error = caught(lambda: fds.api.providers())
out({"error": error, "elapsed": time.monotonic() - started, "sleeps": sleeps})
`,
      { argv: [small, proxy.url] },
    )
    expect(run.stderr).toBe("")
    const { error, elapsed, sleeps } = run.result
    expect([error.class, error.status, error.code]).toEqual(["QuotaExceeded", 429, "quota_exceeded"])
    expect(elapsed).toBeLessThan(1)
    expect(sleeps).toEqual([])
    // two answered, then one request per refused call
    expect(proxy.seen.slice(from).map((s) => s.status)).toEqual([200, 200, 429])
    expect(error.limit).toBe(2)
    // the reset is the next midnight in America/Santiago: in the future, within a (25-hour) day, at 00:00 there
    const reset = error.reset * 1000
    expect(new Date(error.reset_at).getTime()).toBe(reset)
    expect(reset).toBeGreaterThan(Date.now())
    expect(reset - Date.now()).toBeLessThanOrEqual(25 * 3600 * 1000)
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: "America/Santiago", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })
    expect(local.format(new Date(reset))).toBe("00:00:00")
    expect(error.retry_after).toBeGreaterThan(60)
    expect(error.str).toContain(String(error.reset))
    expect(`${error.str} ${error.repr}`).not.toContain(small)
    // the refusals used no quota
    const info = await fetch(`${server.url}/api/key/info`, { headers: { "x-api-key": small } })
    expect(((await info.json()) as { requests_today: number }).requests_today).toBe(2)
  })

  it("a per-address 429 is retried after its Retry-After (1 s) plus jitter, until every call is answered, using no quota", async () => {
    const counted = (await createKey(dir.dataDir, { email: "burst@example.cl" })).key
    const from = strictProxy.seen.length
    const run = await python(
      `
waits = []
def sleep(seconds):
    waits.append(seconds)
    time.sleep(seconds)
fds = fds_client.Client(sys.argv[1], sys.argv[2], sleep=sleep)
started = time.monotonic()
names = [[p["attributes"]["name"] for p in fds.api.providers()["data"]] for _ in range(5)]
out({"names": names, "waits": waits, "elapsed": time.monotonic() - started})
`,
      { argv: [counted, strictProxy.url] },
    )
    expect(run.stderr).toBe("")
    const { names, waits, elapsed } = run.result
    expect(names).toEqual(Array.from({ length: 5 }, () => fixture.administrators.map((a) => a.name)))
    const sent = strictProxy.seen.slice(from)
    const refused = sent.filter((s) => s.status === 429)
    // a burst of 3, then one a second: the fourth call is refused, and the fifth after the fourth's retry
    expect(refused.length).toBeGreaterThanOrEqual(2)
    expect(waits.length).toBe(refused.length)
    for (const r of refused) expect([r.answer["retry-after"], r.answer["x-ratelimit-remaining"]]).toEqual(["1", undefined])
    // Retry-After and up to 30 % of it as jitter
    for (const w of waits) {
      expect(w).toBeGreaterThanOrEqual(1)
      expect(w).toBeLessThanOrEqual(1.3)
    }
    expect(sent.filter((s) => s.status === 200).length).toBe(5)
    expect(elapsed).toBeGreaterThanOrEqual(2)
    const info = await fetch(`${server.url}/api/key/info`, { headers: { "x-api-key": counted } })
    expect(((await info.json()) as { requests_today: number }).requests_today).toBe(5)
  })

  it("the webhook writes on the server: create shows the secret once, test attempts a delivery, delete ends the endpoint (then 404)", async () => {
    const run = await python(
      `
a = fds_client.Client(sys.argv[1], sys.argv[2]).api
made = a.create_webhook("http://127.0.0.1:9/py-hook", ["batch.published", "values.restated"])
out({"made": made})
out({"listed": a.webhooks()["data"]})
out({"tested": a.test_webhook(made["id"])})
out({"deleted": a.delete_webhook(made["id"])})
out({"again": caught(lambda: a.delete_webhook(made["id"]))})
out({"listed_after": [w["id"] for w in a.webhooks()["data"]]})
`,
      { argv: [key, proxy.url] },
    )
    expect(run.stderr).toBe("")
    const [made, listed, tested, deleted, again, after] = run.lines
    expect(made.made.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/)
    expect([made.made.url, made.made.events]).toEqual(["http://127.0.0.1:9/py-hook", ["batch.published", "values.restated"]])
    // listed without its secret
    const mine = listed.listed.find((w: { id: string }) => w.id === made.made.id)
    expect(mine).toEqual({ id: made.made.id, url: "http://127.0.0.1:9/py-hook", events: ["batch.published", "values.restated"], created_at: made.made.created_at, disabled_at: null })
    // nothing listens on port 9: the test event's one attempt is refused, to be tried again
    expect([tested.tested.type, tested.tested.state, tested.tested.attempts, tested.tested.last_status]).toEqual(["webhook.test", "pending", 1, null])
    expect(deleted).toEqual({ deleted: null })
    expect([again.again.class, again.again.status]).toEqual(["NotFound", 404])
    expect(after.listed_after).not.toContain(made.made.id)
    // each write went out once, the key in its header
    const writes = proxy.seen.filter((r) => r.method !== "GET" && r.url.includes(made.made.id as string))
    expect(writes.map((r) => `${r.method} ${r.status}`)).toEqual(["POST 200", "DELETE 204", "DELETE 404"])
    for (const r of writes) expect([r.headers["x-api-key"], r.url.includes(key)]).toEqual([key, false])
  })

  it("a 503 with Retry-After: 5 (no batch published yet) is waited out, and the retry gets the data", async () => {
    const empty = makeDataDir()
    others.push(empty)
    const earlyKey = (await createKey(empty.dataDir, { email: "early@example.cl" })).key
    const early = await startServer({ dataDir: empty.dataDir, pollMillis: 50 })
    servers.push(early)
    const earlyProxy = await recordingProxy(early.url)
    proxies.push(earlyProxy)
    const run = await python(
      `
def sleep(seconds):
    out({"sleep": seconds})
    time.sleep(seconds)
fds = fds_client.Client(sys.argv[1], sys.argv[2], sleep=sleep)
started = time.monotonic()
names = [p["attributes"]["name"] for p in fds.api.providers()["data"]]
out({"names": names, "elapsed": time.monotonic() - started})
`,
      {
        argv: [earlyKey, earlyProxy.url],
        // the batch is published while the client waits
        onLine: (line) => {
          if ("sleep" in line) publishMarketSnapshot(empty.snapshotsDir)
        },
      },
    )
    expect(run.stderr).toBe("")
    const [wait, result] = run.lines
    expect(result.names).toEqual(fixture.administrators.map((a) => a.name))
    expect(earlyProxy.seen.map((s) => [s.status, s.answer["retry-after"]])).toEqual([
      [503, "5"],
      [200, undefined],
    ])
    expect(wait.sleep).toBeGreaterThanOrEqual(5)
    expect(wait.sleep).toBeLessThanOrEqual(6.5)
    expect(result.elapsed).toBeGreaterThanOrEqual(5)
    expect(run.lines.length).toBe(2)
  })

  it("a snapshot download cut off resumes with Range and If-Range, is checked against its SHA-256, and opens with sqlite3", async () => {
    const onDisk = readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`))
    const cut = Math.floor(onDisk.length / 2)
    const path = `/api/batches/${batch}/snapshot`
    proxy.cutNext(path, cut)
    const from = proxy.seen.length
    const to = join(work, "resumed.sqlite")
    const run = await python(
      `
import os
fds = fds_client.Client(sys.argv[1], sys.argv[2])
to = sys.argv[4]
error = caught(lambda: fds.api.batch_snapshot(sys.argv[3], to))
out({"error": error, "part": os.path.getsize(to + ".part"), "exists": os.path.exists(to)})
d = fds.api.batch_snapshot(sys.argv[3], to)
db = fds.open(d.path)
series = [row[0] for row in db.execute("SELECT asset_id FROM series ORDER BY asset_id")]
left = [name for name in os.listdir(os.path.dirname(to)) if name.startswith(os.path.basename(to))]
out({"path": d.path, "size": d.size, "resumed_from": d.resumed_from, "sha256": d.sha256, "status": d.status, "series": series, "left": left})
`,
      { argv: [key, proxy.url, batch, to] },
    )
    expect(run.stderr).toBe("")
    const [broken, done] = run.lines
    expect([broken.error.class, broken.part, broken.exists]).toEqual(["TransportError", cut, false])
    expect(broken.error.str).toContain("resume")
    expect(done).toEqual({
      path: to,
      size: onDisk.length,
      resumed_from: cut,
      sha256: sha256Hex(onDisk),
      status: 206,
      series: fixture.funds.flatMap((f) => f.series.map((s) => s.assetId)).sort((a, b) => a - b),
      left: ["resumed.sqlite"],
    })
    expect(readFileSync(to).equals(onDisk)).toBe(true)
    const sent = proxy.seen.slice(from)
    const etag = `"${sha256Hex(onDisk)}"`
    expect(sent.map((s) => [s.url, s.status, s.headers.range, s.headers["if-range"]])).toEqual([
      [path, 200, undefined, undefined],
      [path, 206, `bytes=${cut}-`, etag],
    ])
    expect(sent[1]!.answer["repr-digest"]).toBe(`sha-256=:${createHash("sha256").update(onDisk).digest("base64")}:`)
  })

  it("a download whose connection is reset mid-file raises TransportError, keeps the bytes received and resumes from them", async () => {
    const onDisk = readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`))
    const cut = Math.floor(onDisk.length / 4)
    const path = `/api/batches/${batch}/snapshot`
    proxy.cutNext(path, cut, "reset")
    const from = proxy.seen.length
    const to = join(work, "reset.sqlite")
    const run = await python(
      `
import os
fds = fds_client.Client(sys.argv[1], sys.argv[2])
error = caught(lambda: fds.api.batch_snapshot(sys.argv[3], sys.argv[4]))
part = os.path.getsize(sys.argv[4] + ".part")
d = fds.api.batch_snapshot(sys.argv[3], sys.argv[4])
out({"error": error, "part": part, "resumed_from": d.resumed_from, "sha256": d.sha256})
`,
      { argv: [key, proxy.url, batch, to] },
    )
    expect(run.stderr).toBe("")
    const { error, part, resumed_from, sha256 } = run.result
    expect([error.class, error.fds_error]).toEqual(["TransportError", true])
    expect(error.str).toContain("call again to resume")
    expect([part, resumed_from, sha256]).toEqual([cut, cut, sha256Hex(onDisk)])
    expect(proxy.seen.slice(from).map((s) => [s.status, s.headers.range])).toEqual([
      [200, undefined],
      [206, `bytes=${cut}-`],
    ])
    expect(readFileSync(to).equals(onDisk)).toBe(true)
  })

  it("a download stopped by its caller (an exception from the progress callback) resumes from the bytes written, even when they are the whole file", async () => {
    const onDisk = readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`))
    const from = proxy.seen.length
    const run = await python(
      `
import os
fds = fds_client.Client(sys.argv[1], sys.argv[2])
batch, work = sys.argv[3], sys.argv[4]
class Stop(Exception):
    pass
def stop_at_first(done, total):
    raise Stop()
def stop_at_end(done, total):
    if done == total:
        raise Stop()
got = {}
for name, stop in (("first", stop_at_first), ("end", stop_at_end)):
    # a name a file: URI must escape
    to = os.path.join(work, f"stopped {name} #1?.sqlite")
    stopped = caught(lambda: fds.api.batch_snapshot(batch, to, progress=stop))
    part = os.path.getsize(to + ".part")
    d = fds.api.batch_snapshot(batch, to)
    series = fds.open(d.path).execute("SELECT count(*) FROM series").fetchone()[0]
    got[name] = {"stopped": stopped["class"], "part": part, "resumed_from": d.resumed_from, "status": d.status, "sha256": d.sha256, "series": series}
out(got)
`,
      { argv: [key, proxy.url, batch, work] },
    )
    expect(run.stderr).toBe("")
    const { first, end } = run.result
    const whole = { sha256: sha256Hex(onDisk), series: fixture.funds.flatMap((f) => f.series).length }
    expect(first.part).toBeGreaterThan(0)
    expect(first.part).toBeLessThan(onDisk.length)
    expect(first).toEqual({ stopped: "Stop", part: first.part, resumed_from: first.part, status: 206, ...whole })
    // the whole file was written: the range after it is not satisfiable (416), and the part is checked as it is
    expect(end).toEqual({ stopped: "Stop", part: onDisk.length, resumed_from: onDisk.length, status: 416, ...whole })
    expect(proxy.seen.slice(from).map((s) => [s.status, s.headers.range])).toEqual([
      [200, undefined],
      [206, `bytes=${first.part}-`],
      [200, undefined],
      [416, `bytes=${onDisk.length}-`],
    ])
  })

  it("a partial file that is not the start of the snapshot fails the SHA-256 check and is removed", async () => {
    const onDisk = readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`))
    const cut = Math.floor(onDisk.length / 3)
    proxy.cutNext(`/api/batches/${batch}/snapshot`, cut)
    const to = join(work, "damaged.sqlite")
    const run = await python(
      `
import os
fds = fds_client.Client(sys.argv[1], sys.argv[2])
to = sys.argv[4]
caught(lambda: fds.api.batch_snapshot(sys.argv[3], to))
with open(to + ".part", "r+b") as part:
    first = part.read(1)
    part.seek(0)
    part.write(bytes([first[0] ^ 0xFF]))
error = caught(lambda: fds.api.batch_snapshot(sys.argv[3], to))
left = sorted(name for name in os.listdir(os.path.dirname(to)) if name.startswith(os.path.basename(to)))
again = fds.api.batch_snapshot(sys.argv[3], to)
out({"error": error, "left": left, "again": [again.resumed_from, again.sha256, again.status]})
`,
      { argv: [key, proxy.url, batch, to] },
    )
    expect(run.stderr).toBe("")
    const { error, left, again } = run.result
    expect(error.class).toBe("DigestMismatch")
    expect(error.str).toContain(sha256Hex(onDisk))
    expect(left).toEqual([])
    expect(again).toEqual([0, sha256Hex(onDisk), 200])
    expect(readFileSync(to).equals(onDisk)).toBe(true)
  })

  it("a file already at dest is checked with one HEAD (the Repr-Digest, not the file), which counts against the quota as a GET does", async () => {
    const onDisk = readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`))
    const quotaKey = (await createKey(dir.dataDir, { email: "py-head@example.cl" })).key
    const from = proxy.seen.length
    const run = await python(
      `
import os
fds = fds_client.Client(sys.argv[1], sys.argv[2])
batch, work = sys.argv[3], sys.argv[4]
to, other = os.path.join(work, "kept.sqlite"), os.path.join(work, "other.sqlite")
first = fds.api.batch_snapshot(batch, to)
kept = fds.api.batch_snapshot(batch, to)
open(other, "w").write("another day's file")
refused = caught(lambda: fds.api.batch_snapshot(batch, other))
out({"first": [first.status, first.verified], "kept": [kept.status, kept.verified, kept.sha256, kept.resumed_from], "refused": refused["class"],
     "other": open(other).read()})
`,
      { argv: [quotaKey, proxy.url, batch, work] },
    )
    expect(run.stderr).toBe("")
    expect(run.result).toEqual({
      first: [200, true],
      kept: [200, true, sha256Hex(onDisk), 0],
      refused: "FileExistsError",
      other: "another day's file",
    })
    const sent = proxy.seen.slice(from)
    const digest = `sha-256=:${createHash("sha256").update(onDisk).digest("base64")}:`
    expect(sent.map((s) => [s.method, s.url, s.status, s.answer["repr-digest"]])).toEqual([
      ["GET", `/api/batches/${batch}/snapshot`, 200, digest],
      ["HEAD", `/api/batches/${batch}/snapshot`, 200, digest],
      ["HEAD", `/api/batches/${batch}/snapshot`, 200, digest],
    ])
    // each HEAD is one request of the day's quota, as documented
    const remaining = sent.map((s) => Number(s.answer["x-ratelimit-remaining"]))
    expect(remaining[0]).toBeGreaterThan(2)
    expect(remaining).toEqual([remaining[0], remaining[0]! - 1, remaining[0]! - 2])
  })

  it("prices, returns and screener answer pandas DataFrames holding the fixture's values", async () => {
    const run = await python(
      `
import pandas as pd
fds = fds_client.Client(sys.argv[1], sys.argv[2])
def cells(frame):
    return [[None if pd.isna(v) else v for v in row] for row in frame.astype(object).values.tolist()]
prices = fds.prices(sys.argv[3].split(","), start=sys.argv[4], end=sys.argv[5])
returns = fds.returns(sys.argv[6].split(","))
screener = fds.screener(currency="PESOS", sort="1m", order="desc")
out({
    "prices": {"type": type(prices).__name__, "dtypes": sorted(set(str(t) for t in prices.dtypes)), "index": [d.strftime("%Y-%m-%d") for d in prices.index],
               "index_type": str(prices.index.dtype), "columns": list(prices.columns), "cells": cells(prices)},
    "returns": {"type": type(returns).__name__, "index": list(returns.index), "columns": list(returns.columns), "1m": cells(returns[["1m"]]), "currency": list(returns["currency"])},
    "screener": {"type": type(screener).__name__, "ids": list(screener["id"]), "price": list(screener["price"]), "columns": list(screener.columns)},
})
`,
      {
        // 8043:A twice: one column
        argv: [key, proxy.url, ids("8043:A", "8106:B", "8043:C", "8043:A").join(","), D1, D2, ids("9107:A", "9300:A", "8043:A").join(",")],
      },
    )
    expect(run.stderr).toBe("")
    const { prices, returns, screener } = run.result
    // 8106:B starts on D2: its D1 cell is empty; 8043:C's one quote is on M, before the range: a column of empty cells
    const priceOn = (k: string, date: string) => seriesOf(k).quotas.find((q) => q.date === date)?.price ?? null
    const columns = ["8043:A", "8106:B", "8043:C"]
    expect(prices).toMatchObject({ type: "DataFrame", dtypes: ["float64"], index: [D1, D2], index_type: "datetime64[ns]", columns: ids(...columns) })
    expect(prices.cells).toEqual([D1, D2].map((d) => columns.map((k) => priceOn(k, d))))
    expect(prices.cells.map((row: Json[]) => row.map((cell) => cell === null))).toEqual([
      [false, true, true],
      [false, false, true],
    ])
    // 1m: 1009.8 / 1000 − 1 and 130 / 100 − 1; 8043:A has no quote by M
    expect([returns.type, returns.index]).toEqual(["DataFrame", ids("9107:A", "9300:A", "8043:A")])
    expect(returns["1m"][0][0]).toBeCloseTo(1009.8 / 1000 - 1, 9)
    expect(returns["1m"][1][0]).toBeCloseTo(130 / 100 - 1, 9)
    expect(returns["1m"][2][0]).toBeNull()
    expect(returns.currency).toEqual(["PESOS", "PESOS", "PESOS"])
    // the PESOS series by 1m, highest first (0.3, 0.0098, 0.003002, −0.00495, −0.05), then those without a 1m by ascending id
    const withMonth = ["9300:A", "9107:A", "8200:BPRIV", "9105:I", "9301:A"]
    expect(screener.type).toBe("DataFrame")
    expect(screener.ids).toEqual(ids(...withMonth, ...byAscendingId(["8043:A", "8106:B", "9105:A"])))
    expect(screener.price).toEqual([...withMonth, ...byAscendingId(["8043:A", "8106:B", "9105:A"])].map((k) => seriesOf(k).quotas.at(-1)!.price))
  })

  it("python3 -m fds_client prices and returns write the fixture's values as CSV, download fetches the snapshot; a failed call exits 2 with the error, not the key", async () => {
    const env = { FDS_API_KEY: key, FDS_BASE_URL: proxy.url }
    const a = String(sid("8043:A"))
    const b = String(sid("9107:A"))
    const run = await runPython(["-m", "fds_client", "prices", a, b, "--from", D2, "--to", D3], { env })
    expect([run.code, run.stderr]).toEqual([0, ""])
    const expected = [
      "date,id,price",
      ...["8043:A", "9107:A"].flatMap((k) => seriesOf(k).quotas.filter((q) => q.date >= D2 && q.date <= D3).map((q) => `${q.date},${sid(k)},${q.price}`)),
    ]
    expect(run.lines).toEqual(expected)
    // returns as CSV: a window without a value is an empty field (8043:A has no quote by M)
    const returns = await runPython(["-m", "fds_client", "returns", b, a], { env })
    expect([returns.code, returns.stderr]).toEqual([0, ""])
    expect(returns.lines[0]).toBe("id,as_of_date,currency,1m,3m,6m,1y,ytd,3y_ann,5y_ann,last_closed_month")
    const [id, asOf, currency, month, ...longer] = String(returns.lines[1]).split(",")
    expect([id, asOf, currency, longer]).toEqual([b, D3, "PESOS", ["", "", "", "", "", "", ""]])
    expect(Number(month)).toBeCloseTo(1009.8 / 1000 - 1, 9)
    expect(returns.lines.slice(2)).toEqual([`${a},${D3},PESOS,,,,,,,,`])
    // download: the current batch's snapshot, to the path given, which it prints
    const to = join(work, "cli.sqlite")
    const download = await runPython(["-m", "fds_client", "download", "-o", to], { env })
    expect([download.code, download.stderr, download.lines]).toEqual([0, "", [to]])
    expect(readFileSync(to).equals(readFileSync(join(dir.snapshotsDir, `${batch}.sqlite`)))).toBe(true)
    const failed = await runPython(["-m", "fds_client", "prices", "12345", "--from", D2], { env })
    expect(failed.code).toBe(2)
    expect(failed.stderr).toContain("404")
    expect(failed.stderr).not.toContain(key)
  })

  it("paging pins the first page's batch while a new batch is published mid-iteration; unpinned, the new batch's 503 raises at once", async () => {
    const expected = ids(...byAscendingId(UNIVERSE))
    const from = proxy.seen.length
    let published: Promise<void> = Promise.resolve()
    const run = await python(
      `
fds = fds_client.Client(sys.argv[1], sys.argv[2], sleep=lambda s: out({"slept": s}))
rows = fds.api.iter_screener(order="asc", limit=4)
seen = [next(rows)["id"] for _ in range(4)]
out({"first_page": seen})
sys.stdin.readline()
seen += [row["id"] for row in rows]
out({"ids": seen})
started = time.monotonic()
error = caught(lambda: fds.api.screener())
out({"error": error, "elapsed": time.monotonic() - started})
`,
      {
        argv: [key, proxy.url],
        onLine: (line, stdin) => {
          if (!("first_page" in line)) return
          published = (async () => {
            try {
              // a batch without returns: read from it, the screener answers 503
              recorded(dir, publishMarketSnapshot(dir.snapshotsDir, { returns: false }))
              const served = async () => (await fetch(`${server.url}/api/screener`, { headers: { "x-api-key": key } })).status === 503
              expect(await waitFor(served, 10_000)).toBe(true)
            } finally {
              stdin.write("go\n")
            }
          })()
        },
      },
    )
    await published
    expect(run.stderr).toBe("")
    const [first, all, unpinned] = run.lines
    expect(first.first_page).toEqual(expected.slice(0, 4))
    expect(all.ids).toEqual(expected)
    const pages = proxy.seen.slice(from).filter((s) => s.url.startsWith("/api/screener"))
    expect(pages.slice(0, 3).map((s) => s.status)).toEqual([200, 200, 200])
    for (const s of pages.slice(1, 3)) expect(new URL(s.url, proxy.url).searchParams.get("batch")).toBe(batch)
    expect([unpinned.error.class, unpinned.error.status]).toEqual(["ServiceUnavailable", 503])
    expect(unpinned.error.retry_after).toBeGreaterThan(30)
    expect(unpinned.elapsed).toBeLessThan(1)
    expect(run.lines.length).toBe(3)
  })

})
