/**
 * A batch's Parquet files (snapshots/parquet/), from the small sample published by the real
 * pipeline, read from the running server as their readers read them: hyparquet over HTTP with
 * range requests and the key in a header (asyncBufferFromUrl, parquetReadObjects), fetching the
 * footer and one series' row group and columns, not the file; DuckDB (`read_parquet`) on
 * downloaded copies. Both give the values /days and /returns answer, and the FI/ETF files the values,
 * portfolios and catalog the /api/fi routes answer. Then the route's own
 * answers: 404 for an unknown file, 206 for a range, 304 for If-None-Match, and the release that
 * lists the files with their SHA-256.
 */
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DuckDBInstance } from "@duckdb/node-api"
import Database from "better-sqlite3"
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects } from "hyparquet"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formatRun } from "../../schemas/Ids.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import { applyRetention } from "../../snapshots/Retention.ts"
import { createKey, expectErrorShape, get, type RunningServer, startServer } from "../support/server.ts"
import { publishSmallSample } from "../support/smallSample.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any

let work: string
let dataDir: string
let server: RunningServer
let key: string
let batchId: string
/** A series with daily values in the batch's last year, and that year. */
let assetId: number
let year: number
/** The FI instrument with the most daily values, and the FI portfolio (instrument, period) with the most positions. */
let fiInstrument: string
let fiPortfolio: { instrument: string; run: string; period: string }

const api = async (path: string): Promise<Json> => {
  const res = await get(`${server.url}${path}`, { "x-api-key": key })
  expect(res.status, res.text).toBe(200)
  return res.body
}
const parquetUrl = (file: string) => `${server.url}/api/batches/${batchId}/parquet/${file}`
const folder = () => join(dataDir, "snapshots", `${batchId}.parquet`)
const iso = (d: Date): string => d.toISOString().slice(0, 10)

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-parquet-"))
  dataDir = join(work, "data")
  await publishSmallSample(dataDir)
  batchId = readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim().replace(/\.sqlite$/, "")
  const db = new Database(join(dataDir, "snapshots", `${batchId}.sqlite`), { readonly: true })
  try {
    const last = db.prepare("SELECT max(date) AS d FROM quotas").get() as { d: number }
    year = Math.floor(last.d / 10000)
    // the series with the most days that year (not the first of the file: its group is not the first rows)
    const row = db
      .prepare("SELECT asset_id AS id FROM quotas WHERE date >= ? GROUP BY asset_id ORDER BY count(*) DESC, asset_id DESC LIMIT 1")
      .get(year * 10000) as { id: number }
    assetId = row.id
    fiInstrument = (
      db
        .prepare(`SELECT s.instrument_id AS id FROM fi_prices p JOIN fi_series s USING (serie_id)
          GROUP BY s.instrument_id ORDER BY count(*) DESC, s.instrument_id LIMIT 1`)
        .get() as { id: string }
    ).id
    const p = db
      .prepare(`SELECT i.instrument_id AS instrument, h.run, h.period FROM fi_holdings h JOIN fi_instruments i USING (run)
        GROUP BY h.run, h.period ORDER BY count(*) DESC, h.run, h.period LIMIT 1`)
      .get() as { instrument: string; run: number; period: string }
    fiPortfolio = { instrument: p.instrument, run: formatRun(p.run), period: p.period }
  } finally {
    db.close()
  }
  server = await startServer({ dataDir })
  key = (await createKey(dataDir, { email: "parquet@example.cl" })).key
}, 120_000)
afterAll(async () => {
  await server?.close()
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

describe("GET /api/batches/{batch_id}/parquet/{file}", () => {
  it("hyparquet over HTTP ranges, the key in a header: one series' year equals /days, fetching less than the file", async () => {
    let received = 0
    const requests: string[] = []
    const counting: typeof fetch = async (input, init) => {
      const res = await fetch(input, init)
      const bytes = await res.arrayBuffer()
      received += bytes.byteLength
      requests.push(`${init?.method ?? "GET"} ${new Headers(init?.headers).get("range") ?? ""} ${res.status}`)
      return new Response(init?.method === "HEAD" ? null : bytes, { status: res.status, headers: res.headers })
    }
    const file = `days-${year}.parquet`
    const size = readFileSync(join(folder(), file)).length
    const buffer = await asyncBufferFromUrl({ url: parquetUrl(file), requestInit: { headers: { "X-Api-Key": key } }, fetch: counting })
    expect(buffer.byteLength).toBe(size)
    // the footer alone (hyparquet's first guess is the last 512 KB: here, the whole file)
    const metadata = await parquetMetadataAsync(buffer, { initialFetchSize: 16_384 })
    const rows = (await parquetReadObjects({
      file: buffer,
      metadata,
      columns: ["asset_id", "date", "price"],
      filter: { asset_id: { $eq: BigInt(assetId) } },
    })) as Array<{ asset_id: bigint; date: Date; price: number }>
    const days = (await api(`/api/real_assets/${assetId}/days?from_date=${year}-01-01&to_date=${year}-12-31`)).data as Json[]
    expect(days.length).toBeGreaterThan(100)
    expect(rows.map((r) => [iso(r.date), r.price])).toEqual(days.map((d) => [d.attributes.date, d.attributes.price]))
    expect(requests.every((r) => / (206|200)$/.test(r)), requests.join("\n")).toBe(true)
    expect(requests.filter((r) => r.startsWith("GET")).every((r) => r.includes("bytes="))).toBe(true)
    // the footer, then the three columns of the series' row group
    expect(received, requests.join("\n")).toBeLessThan(size * 0.6)
  }, 20_000)

  it("DuckDB reads downloaded copies: returns.parquet and a year of days give /returns' and /days' values", async () => {
    const dir = mkdtempSync(join(work, "copies-"))
    for (const file of ["returns.parquet", `days-${year}.parquet`, "series.parquet"]) {
      const res = await fetch(parquetUrl(file), { headers: { "x-api-key": key } })
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("application/vnd.apache.parquet")
      writeFileSync(join(dir, file), Buffer.from(await res.arrayBuffer()))
    }
    const instance = await DuckDBInstance.create(":memory:")
    const connection = await instance.connect()
    try {
      const read = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJS() as Json[]
      const returns = await read(
        `SELECT period, value, strftime(as_of_date, '%Y-%m-%d') AS as_of FROM read_parquet('${join(dir, "returns.parquet")}')
          WHERE asset_id = ${assetId} AND valuation = 'accounting' AND return_basis = 'price'`,
      )
      const answer = (await api(`/api/real_assets/${assetId}/returns`)) as Json
      const periods = answer.data?.attributes?.periods ?? answer.periods
      expect(returns.length).toBeGreaterThan(3)
      for (const r of returns) expect([r.period, r.value]).toEqual([r.period, periods[r.period].value])
      const last = await read(
        `SELECT strftime(date, '%Y-%m-%d') AS date, price FROM read_parquet('${join(dir, `days-${year}.parquet`)}')
          WHERE asset_id = ${assetId} ORDER BY date DESC LIMIT 3`,
      )
      const days = (await api(`/api/real_assets/${assetId}/days?from_date=${year}-01-01`)).data as Json[]
      expect(last).toEqual(days.slice(-3).reverse().map((d) => ({ date: d.attributes.date, price: d.attributes.price })))
      const series = await read(`SELECT run, series FROM read_parquet('${join(dir, "series.parquet")}') WHERE asset_id = ${assetId}`)
      expect(series).toHaveLength(1)
    } finally {
      connection.closeSync()
      instance.closeSync()
    }
  }, 20_000)

  it("404 for a file it does not have, 206 for a range, 304 for its ETag; the release lists every file with its SHA-256", async () => {
    const h = { "x-api-key": key }
    for (const name of ["other.parquet", "days-26.parquet", `${batchId}.sqlite`, "days-1990.parquet"]) {
      const res = await get(parquetUrl(name), h)
      expect(res.status, name).toBe(404)
      expectErrorShape(res.body, 404, res)
    }
    const whole = readFileSync(join(folder(), "returns.parquet"))
    const part = await fetch(parquetUrl("returns.parquet"), { headers: { ...h, range: "bytes=4-99" } })
    expect(part.status).toBe(206)
    expect(part.headers.get("content-range")).toBe(`bytes 4-99/${whole.length}`)
    expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(4, 100))
    const digest = createHash("sha256").update(whole).digest()
    expect(part.headers.get("repr-digest")).toBe(`sha-256=:${digest.toString("base64")}:`)
    const etag = part.headers.get("etag")!
    expect(etag).toBe(`"${digest.toString("hex")}"`)
    const again = await fetch(parquetUrl("returns.parquet"), { headers: { ...h, "if-none-match": etag } })
    expect(again.status).toBe(304)
    const release = await api(`/api/batches/${batchId}/release`)
    const listed = (release.files as Json[]).filter((f) => f.name.startsWith(`${batchId}.parquet/`))
    const files = readdirSync(folder()).sort()
    expect(files).toContain(`days-${year}.parquet`)
    expect(listed).toEqual(
      files.map((f) => {
        const bytes = readFileSync(join(folder(), f))
        return { name: `${batchId}.parquet/${f}`, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }
      }),
    )
    expect((await api(`/api/batches/${batchId}`)).data.attributes.parquet_files).toEqual(files)
  }, 20_000)
})

describe("the investment funds' and ETFs' files (fi_series, fi_values, fi_holdings)", () => {
  /** Every page of an FI list route. */
  const all = async (path: string, limit: number): Promise<Json[]> => {
    const rows: Json[] = []
    for (let offset = 0; ; offset += limit) {
      const page = await api(`${path}${path.includes("?") ? "&" : "?"}limit=${limit}&offset=${offset}`)
      rows.push(...page.data)
      if (offset + limit >= page.total) return rows
    }
  }
  const numbers = (v: unknown) => (typeof v === "bigint" ? Number(v) : v)

  it("hyparquet over HTTP: one FI series' rows of fi_values.parquet equal its book values on /prices", async () => {
    const prices = await all(`/api/fi/instruments/${fiInstrument}/prices`, 5000)
    const serieId = prices[prices.length - 1].serie_id as string
    const buffer = await asyncBufferFromUrl({ url: parquetUrl("fi_values.parquet"), requestInit: { headers: { "X-Api-Key": key } } })
    const rows = (await parquetReadObjects({
      file: buffer,
      columns: ["serie_id", "date", "book_value"],
      filter: { serie_id: { $eq: serieId } },
    })) as Array<{ date: Date; book_value: number }>
    const route = prices.filter((p) => p.serie_id === serieId)
    expect(route.length).toBeGreaterThan(50)
    expect(rows.map((r) => [iso(r.date), r.book_value])).toEqual(route.map((p) => [p.date, p.book_value]))
  }, 20_000)

  it("DuckDB on downloaded copies: values, portfolio and catalog equal /prices, /cartera/holdings and /instruments", async () => {
    const dir = mkdtempSync(join(work, "fi-copies-"))
    for (const file of ["fi_series.parquet", "fi_values.parquet", "fi_holdings.parquet"]) {
      const res = await fetch(parquetUrl(file), { headers: { "x-api-key": key } })
      expect(res.status, file).toBe(200)
      writeFileSync(join(dir, file), Buffer.from(await res.arrayBuffer()))
    }
    const instance = await DuckDBInstance.create(":memory:")
    const connection = await instance.connect()
    try {
      const read = async (sql: string) =>
        ((await connection.runAndReadAll(sql)).getRowObjectsJS() as Json[]).map((r) =>
          Object.fromEntries(Object.entries(r).map(([k, v]) => [k, numbers(v)])),
        ) as Json[]
      const at = (file: string) => `read_parquet('${join(dir, file)}')`

      // every value of the instrument's series, as /prices pages them (by date), here by series then date
      const prices = await all(`/api/fi/instruments/${fiInstrument}/prices`, 5000)
      const serieIds = [...new Set(prices.map((p) => p.serie_id as string))]
      const values = await read(
        `SELECT serie_id, strftime(date, '%Y-%m-%d') AS date, book_value, economic_value, patrimony, total_assets, holders,
          institutional_holders FROM ${at("fi_values.parquet")} WHERE serie_id IN (${serieIds.map((s) => `'${s}'`).join(",")})
          ORDER BY serie_id, date`,
      )
      const fields = ["serie_id", "date", "book_value", "economic_value", "patrimony", "total_assets", "holders", "institutional_holders"]
      const expected = prices
        .map((p) => Object.fromEntries(fields.map((f) => [f, p[f]])))
        .sort((a, b) => (a.serie_id < b.serie_id ? -1 : a.serie_id > b.serie_id ? 1 : a.date < b.date ? -1 : 1))
      expect(prices.length).toBeGreaterThan(100)
      expect(values).toEqual(expected)

      // one fund's quarter: every position, national and foreign, with its values and weights
      const { instrument, run, period } = fiPortfolio
      const holdings = (await api(`/api/fi/instruments/${instrument}/cartera/holdings?month=${period}`)).data as Json[]
      const rows = await read(
        `SELECT market, position, instrument_type, valuation_thousands, pct_fund_assets, nemotecnico, isin, issuer_rut,
          issuer_name, issuer_country, maturity_date, body FROM ${at("fi_holdings.parquet")}
          WHERE run = '${run}' AND period = '${period}' ORDER BY market, position`,
      )
      const keys = ["market", "position", "instrument_type", "valuation_thousands", "pct_fund_assets", "nemotecnico", "isin"]
      const more = ["issuer_rut", "issuer_name", "issuer_country", "maturity_date"]
      expect(holdings.length).toBeGreaterThan(5)
      expect(rows.map(({ body, issuer_rut, ...r }) => ({ ...r, issuer_rut: issuer_rut === null ? null : formatRun(issuer_rut) }))).toEqual(
        [...holdings]
          .sort((a, b) => (a.market === b.market ? a.position - b.position : a.market < b.market ? -1 : 1))
          .map((h) => Object.fromEntries([...keys, ...more].map((k) => [k, h[k]]))),
      )
      // `body` holds what is not broken out, e.g. the units and the functional currency
      for (const [i, r] of rows.entries()) {
        const h = holdings.find((x) => x.market === r.market && x.position === r.position)
        const body = JSON.parse(r.body)
        expect([body.units, body.functionalCurrency], String(i)).toEqual([h.units, h.functional_currency])
      }

      // the catalog: one row per series of every instrument, whatever its status
      const instruments = await all("/api/fi/instruments?status=all", 500)
      const series = await read(
        `SELECT serie_id, instrument_id, run, serie, currency, name, administrator, regulatory_type, is_etf, ticker
          FROM ${at("fi_series.parquet")} ORDER BY serie_id`,
      )
      const listed = instruments
        .flatMap((i) =>
          (i.series as Json[]).map((s) => ({
            serie_id: s.serie_id,
            instrument_id: i.instrument_id,
            run: i.run,
            serie: s.serie,
            currency: s.currency,
            name: i.name,
            administrator: i.administrator,
            regulatory_type: i.regulatory_type,
            is_etf: i.is_etf,
            ticker: i.ticker,
          })),
        )
        .sort((a, b) => (a.serie_id < b.serie_id ? -1 : 1))
      expect(listed.length).toBeGreaterThan(5)
      expect(series).toEqual(listed)
    } finally {
      connection.closeSync()
      instance.closeSync()
    }
  }, 30_000)
})

describe("retention", () => {
  it("removes a batch's Parquet folder with its snapshot, and keeps the kept batches' folders", () => {
    const dir = mkdtempSync(join(work, "retention-"))
    const old = "2026-11-19-0000000000000001"
    const kept = "2026-11-20-0000000000000002"
    for (const id of [old, kept]) {
      writeFileSync(join(dir, `${id}.sqlite`), "")
      mkdirSync(join(dir, `${id}.parquet`))
      writeFileSync(join(dir, `${id}.parquet`, "returns.parquet"), "")
    }
    publishCurrent(dir, `${kept}.sqlite`)
    expect(applyRetention(dir, 1)).toEqual([`${old}.sqlite`])
    expect(readdirSync(dir).sort()).toEqual([`${kept}.parquet`, `${kept}.sqlite`, "CURRENT"])
  })
})
