/**
 * The daily run unattended against a CMF stand-in that serves what the real one does: the daily
 * BPR report without a captcha, the cartola only through its captcha form, UF and dólar through
 * the CMF API with a key. No file is dropped by hand.
 * - without a captcha command or API key, the daemon publishes each business day from the BPR
 *   values alone, and STATUS.json names the cartola and the indicators as waiting for a drop;
 * - with a captcha command the cartola is fetched and replaces the BPR values (a difference beyond
 *   the BPR's rounding is a correction in the manifest), with an API key the indicators come too;
 * - `./fds pipeline status` prints each data set's state.
 */
import Database from "better-sqlite3"
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { santiagoToday } from "../../pipeline/daemon/RunConfig.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { type SourceReport, sourceState } from "../../snapshots/Status.ts"
import { writeSolver } from "../support/captchaSolver.ts"
import { type CmfServer, startCmfServer } from "../support/cmfServer.ts"
import { type IndicatorApis, startIndicatorApis } from "../support/indicatorApis.ts"
import { createKey, get, startServer, waitFor } from "../support/server.ts"
import { readStatusFile, runCli, spawnDaemon, writeMiniSample } from "./support/ops.ts"

let work = ""
let full = ""
let cmf: CmfServer
let apis: IndicatorApis
let solveCommand = ""
let daemon: ChildProcess | null = null
const API_KEY = "k3y-for-the-cmf-api"

/** Weekdays from `from` to `to`, both included: the BPR window must reach back to the sample's days whatever today is. */
const weekdays = (from: string, to: string): number => {
  let n = 0
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += 86_400_000) {
    if (![0, 6].includes(new Date(d).getUTCDay())) n++
  }
  return n
}
const today = santiagoToday()
const BPR_DAYS = String(weekdays("2026-11-16", today))

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-realcmf-"))
  full = (await writeMiniSample(join(work, "mini"))).full
  cmf = await startCmfServer(full)
  solveCommand = writeSolver(work)
  // UF and dólar for every year the run asks for (from FDS_HISTORY_START's year to this one).
  const bodies: Record<string, string> = {}
  for (let year = 2026; year <= Number(today.slice(0, 4)); year++) {
    bodies[`uf/${year}`] = JSON.stringify({ UFs: [{ Valor: "39.643,59", Fecha: `${year}-11-18` }, { Valor: "39.650,12", Fecha: `${year}-11-19` }] })
    bodies[`dolar/${year}`] = JSON.stringify({ Dolares: [{ Valor: "938,45", Fecha: `${year}-11-18` }, { Valor: "941,02", Fecha: `${year}-11-19` }] })
  }
  apis = await startIndicatorApis({ apiKey: API_KEY, user: "u", pass: "p", bodies })
})
afterAll(async () => {
  daemon?.kill("SIGKILL")
  await cmf?.close()
  await apis?.close()
  rmSync(work, { recursive: true, force: true })
})

interface LogLine {
  readonly msg: string
  readonly level: string
  readonly outcome?: string
  readonly batch_date?: string
  readonly waiting?: ReadonlyArray<string>
}

const sourcesOf = (dataDir: string): ReadonlyArray<SourceReport> => (readStatusFile(dataDir)?.sources ?? []) as ReadonlyArray<SourceReport>
const source = (dataDir: string, dataSet: string): SourceReport => {
  const found = sourcesOf(dataDir).find((s) => s.data_set === dataSet)
  if (found === undefined) throw new Error(`no source ${dataSet} in STATUS.json`)
  return found
}
const snapshotOf = (dataDir: string): string => join(dataDir, "snapshots", readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim())
const query = <T>(file: string, sql: string, ...args: unknown[]): T[] => {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(sql).all(...args) as T[]
  } finally {
    db.close()
  }
}
/** The sample's cartola rows of one day, independently of the pipeline: RUN, SERIE, VALOR_CUOTA. */
const cartolaDay = (date: string): Array<{ run: number; serie: string; price: number }> =>
  readFileSync(join(full, readdirSync(full).find((n) => n.startsWith(`ffmm_todos_${date.slice(0, 4)}${date.slice(5, 7)}01_`))!), "latin1")
    .split(/\r?\n/)
    .slice(1)
    .map((l) => l.split(";"))
    .filter((c) => c[3] === date.replaceAll("-", ""))
    .map((c) => ({ run: Number(c[2]), serie: c[8]!.trim().toUpperCase(), price: Number(c[12]) }))

describe("the daily run against the real CMF's flows", () => {
  it("publishes each business day from the BPR alone, with no drop and no captcha command; the cartola and the indicators wait", async () => {
    const dataDir = join(work, "daemon")
    cmf.publishedThrough = "2026-11-18"
    const spawned = spawnDaemon<LogLine>({
        FDS_DATA_DIR: dataDir,
        FDS_CMF_BASE_URL: cmf.url,
        FDS_HISTORY_START: "2026-10-01",
        FDS_BPR_DAYS: BPR_DAYS,
        FDS_PIPELINE_CRON: "* * * * * *",
        FDS_FETCH_RETRIES: "0",
        FDS_PIPELINE_RETRIES: "0",
        FDS_CAPTCHA_COMMAND: "",
        FDS_CMF_API_KEY: "",
        FDS_BCCH_USER: "",
        FDS_BCCH_PASS: "",
    })
    const { child, lines } = spawned
    daemon = child
    const published = (date: string) => lines.find((l) => l.msg === "run finished" && l.outcome === "published" && l.batch_date === date)

    // Day 1: the CMF has published through 2026-11-18.
    expect(await waitFor(async () => published("2026-11-18") !== undefined, 90_000, 50), spawned.stderr().slice(-3000)).toBe(true)
    const first = published("2026-11-18")!
    expect(first.level).toBe("warn")
    expect(first.waiting?.join("\n")).toMatch(/cartola_diaria: FDS_CAPTCHA_COMMAND is not set/)
    expect(first.waiting?.join("\n")).toMatch(/indicators: neither FDS_CMF_API_KEY nor FDS_BCCH_USER/)
    // No cartola was fetched: not one request to its form.
    expect(cmf.requests.some((r) => r.path.endsWith("cfm_download.php") || r.path.endsWith("fondos_cartola_diaria.php"))).toBe(false)
    // Every series of that day is served from the BPR, at its rounded valor cuota, and says so.
    const day1 = cartolaDay("2026-11-18")
    expect(day1.length).toBeGreaterThan(20)
    const file1 = snapshotOf(dataDir)
    const quotes = query<{ run: number; serie: string; price: number; holders: number | null; factor_reparto: number | null }>(
      file1,
      "SELECT s.run, s.serie, q.price, q.holders, q.factor_reparto FROM quotas q JOIN series s USING (asset_id) WHERE q.date = 20261118",
    )
    expect(quotes).toHaveLength(day1.length)
    for (const row of day1) {
      const q = quotes.find((x) => x.run === row.run && x.serie === row.serie)
      expect(q?.price, `RUN ${row.run} ${row.serie}`).toBe(Math.round(row.price * 1e4) / 1e4)
      expect(q?.factor_reparto).toBeNull()
    }
    const bprSeries = query<{ n: number }>(file1, "SELECT count(*) n FROM quota_sources WHERE source = 'fm_bpr_daily' AND latest_from_source = 1")[0]!.n
    expect(bprSeries).toBe(day1.length)
    expect(readManifest(join(dataDir, "snapshots"), file1.split("/").pop()!).quota_sources).toMatchObject({ bpr_series: day1.length })
    // STATUS.json: the BPR fetched and fresh on the day after; the cartola and the indicators waiting.
    const bpr = source(dataDir, "fm_bpr_daily")
    expect(bpr).toMatchObject({ how: "fetched", cadence: "daily", latest_value_date: "2026-11-18", waiting: null })
    expect(sourceState(bpr, "2026-11-19")).toBe("fresh")
    expect(sourceState(source(dataDir, "cartola_diaria"), today)).toBe("waiting")
    expect(sourceState(source(dataDir, "indicators"), today)).toBe("waiting")
    expect(source(dataDir, "fm_registry")).toMatchObject({ how: "fetched", cadence: "irregular" })
    // /health gives the same report, each state judged today.
    const server = await startServer({ dataDir })
    try {
      const health = (await get(`${server.url}/health`)).body as { sources: Array<Record<string, unknown>> }
      const cartola = health.sources.find((x) => x.data_set === "cartola_diaria")
      expect(cartola).toMatchObject({ state: "waiting", how: null, latest_value_date: null, cadence: "daily" })
      expect(cartola?.waiting).toMatch(/FDS_CAPTCHA_COMMAND is not set/)
      expect(health.sources.find((x) => x.data_set === "fm_bpr_daily")).toMatchObject({
        state: sourceState(source(dataDir, "fm_bpr_daily"), santiagoToday()),
        how: "fetched",
        latest_value_date: "2026-11-18",
      })
      expect(health.sources.find((x) => x.data_set === "indicators")).toMatchObject({ state: "waiting" })
      expect(health.sources.map((x) => x.data_set)).toEqual(sourcesOf(dataDir).map((x) => x.data_set))
      // A series valued from the BPR alone says so.
      const { key } = await createKey(dataDir, { email: "ops@example.cl" })
      const target = day1[0]!
      const concept = query<{ concept_id: number }>(file1, "SELECT concept_id FROM series WHERE run = ? AND serie = ?", target.run, target.serie)[0]!
      const assets = (await get(`${server.url}/api/conceptual_assets/${concept.concept_id}/real_assets`, { "x-api-key": key })).body as {
        data: Array<{ attributes: { serie: string; last_day: { date: string; net_asset_value: number; quota_source: string } | null } }>
      }
      expect(assets.data.find((a) => a.attributes.serie === target.serie)?.attributes.last_day).toMatchObject({
        date: "2026-11-18",
        net_asset_value: Math.round(target.price * 1e4) / 1e4,
        quota_source: "bpr",
      })
    } finally {
      await server.close()
    }

    // Day 2: the CMF publishes 2026-11-19; the next tick publishes it, unattended.
    cmf.publishedThrough = "2026-11-19"
    expect(await waitFor(async () => published("2026-11-19") !== undefined, 60_000, 50), spawned.stderr().slice(-3000)).toBe(true)
    expect(query<{ n: number }>(snapshotOf(dataDir), "SELECT count(*) n FROM quotas WHERE date = 20261119")[0]!.n).toBe(cartolaDay("2026-11-19").length)
    child.kill("SIGTERM")
    await new Promise((resolve) => child.on("exit", resolve))
    daemon = null

    // The same folder, with a captcha command and an API key: the cartola and the indicators are fetched.
    cmf.bprPriceShift = null
    const withKeys = {
      FDS_CMF_BASE_URL: cmf.url,
      FDS_HISTORY_START: "2026-10-01",
      FDS_BPR_DAYS: BPR_DAYS,
      FDS_FETCH_RETRIES: "0",
      FDS_CAPTCHA_COMMAND: solveCommand,
      FDS_CMF_API_KEY: API_KEY,
      FDS_CMF_API_BASE_URL: apis.url,
    }
    const run = await runCli(dataDir, ["pipeline", "run"], { env: withKeys, timeoutMillis: 120_000 })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^published 2026-11-19/m)
    expect(run.stderr).not.toMatch(/waits for a drop/)
    const file2 = snapshotOf(dataDir)
    // The cartola replaced every BPR value (same days, values within the BPR's rounding: no correction).
    expect(query<{ n: number }>(file2, "SELECT count(*) n FROM quota_sources")[0]!.n).toBe(0)
    const manifest2 = readManifest(join(dataDir, "snapshots"), file2.split("/").pop()!)
    expect(manifest2.corrections).toEqual([])
    expect(manifest2.repairs.provisional_rows_replaced).toBeGreaterThan(0)
    // The history before the BPR days comes from the cartola now (October is in the batch).
    expect(query<{ n: number }>(file2, "SELECT count(*) n FROM quotas WHERE date BETWEEN 20261001 AND 20261031")[0]!.n).toBeGreaterThan(0)
    // The indicators as the API served them, the key never in the ledger's sources or the status.
    expect(query<{ indicator: string; date: number; value: number }>(file2, "SELECT indicator, date, value FROM indicators WHERE date = 20261119 ORDER BY indicator")).toEqual([
      { indicator: "UF", date: 20261119, value: 39650.12 },
      { indicator: "USD", date: 20261119, value: 941.02 },
    ])
    expect(JSON.stringify(readStatusFile(dataDir))).not.toContain(API_KEY)
    expect(source(dataDir, "cartola_diaria")).toMatchObject({ how: "fetched", latest_value_date: "2026-11-19", waiting: null })
    expect(source(dataDir, "indicators")).toMatchObject({ how: "fetched", latest_value_date: "2026-11-19", waiting: null })
    expect(sourceState(source(dataDir, "cartola_diaria"), "2026-11-20")).toBe("fresh")

    // ./fds pipeline status: the same states, as a table.
    const status = await runCli(dataDir, ["pipeline", "status"], { timeoutMillis: 30_000 })
    expect(status.code, status.stderr).toBe(0)
    expect(status.stdout).toMatch(/^last run: published 2026-11-19/m)
    expect(status.stdout).toMatch(/^cartola_diaria\s+(fresh|late)\s+daily\s+2026-11-19\s+fetched\s/m)
    expect(status.stdout).toMatch(/^fm_registry\s+fresh\s+irregular\s+-\s+fetched\s/m)
    expect(status.stdout).toMatch(/^fi_book_values\s+missing\s+daily\s+-\s+-\s+-$/m)
  }, 240_000)

  it("a BPR value (served as an HTML table) the cartola restates beyond the BPR's rounding is a correction in the manifest, naming both files", async () => {
    const dataDir = join(work, "corrections")
    cmf.publishedThrough = "2026-11-18"
    const day = cartolaDay("2026-11-18")
    const target = day[0]!
    cmf.bprPriceShift = { run: target.run, serie: target.serie, date: "2026-11-18", by: 0.01 }
    cmf.bprFormat = "html" // the BPR as the CMF also serves it: an HTML table with an Excel content type
    const env = { FDS_CMF_BASE_URL: cmf.url, FDS_HISTORY_START: "2026-11-01", FDS_BPR_DAYS: BPR_DAYS, FDS_FETCH_RETRIES: "0" }
    const bprOnly = await runCli(dataDir, ["pipeline", "run"], { env, timeoutMillis: 120_000 })
    expect(bprOnly.code, bprOnly.stderr).toBe(0)
    expect(bprOnly.stderr).toMatch(/warning: cartola_diaria waits for a drop: FDS_CAPTCHA_COMMAND is not set/)
    // The BPR still says so; the cartola, fetched now, says otherwise.
    const withCartola = await runCli(dataDir, ["pipeline", "run"], { env: { ...env, FDS_CAPTCHA_COMMAND: solveCommand }, timeoutMillis: 120_000 })
    cmf.bprPriceShift = null
    cmf.bprFormat = "xls"
    expect(withCartola.code, withCartola.stderr).toBe(0)
    const file = snapshotOf(dataDir).split("/").pop()!
    const corrections = readManifest(join(dataDir, "snapshots"), file).corrections ?? []
    const rounded = Math.round(target.price * 1e4) / 1e4
    expect(corrections).toHaveLength(1)
    expect(corrections[0]).toMatchObject({
      run: target.run,
      serie: target.serie,
      date: "2026-11-18",
      new: target.price,
      old_source: "fm_bpr_daily fm_bpr_dia_20261118.xls",
    })
    expect(corrections[0]!.new_source).toMatch(/^cartola_diaria ffmm_todos_20261101_202611\d\d\.txt$/)
    expect(corrections[0]!.old).toBeCloseTo(rounded + 0.01, 10)
    // The cartola's value is the one served.
    const served = query<{ price: number }>(
      snapshotOf(dataDir),
      "SELECT q.price FROM quotas q JOIN series s USING (asset_id) WHERE s.run = ? AND s.serie = ? AND q.date = 20261118",
      target.run,
      target.serie,
    )
    expect(served).toEqual([{ price: target.price }])
  }, 240_000)
})
