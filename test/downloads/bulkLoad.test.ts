/**
 * The bulk CSV files load the first time, with the readers' default type detection: days.csv.gz
 * (whole and `?from_date=`) and series.csv, read by DuckDB (`read_csv` and `read_csv_auto`, through
 * @duckdb/node-api) and by pandas (`read_csv`, Debian's python3-pandas in a subprocess), hold
 * every value the API gives: each series' dates and prices as /days answers them, its net assets
 * and shareholders as the fixture wrote them, and each series' catalog line as the catalog routes
 * and /days give it.
 *
 * The batch is fixture A with the FI/ETF tables, plus one mutual fund series of 20,600 days placed
 * first (id 1): more rows than DuckDB's sniffer samples (20,480) before the first FI/ETF line, with
 * integral prices and net assets until then. An id column of decimal ids then UUIDs failed there
 * (`Could not convert string "…" to 'BIGINT'`), and an integral sample typed the prices BIGINT
 * and rounded the later `1000.5`.
 */

import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { gunzipSync } from "node:zlib"
import { DuckDBInstance } from "@duckdb/node-api"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import { EPSILON, INSTRUMENTS, PRICES, SERIES } from "../fi/fiData.ts"
import { type ContractValidator, contractValidator } from "../support/openApiValidator.ts"
import { createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { type FixtureDir, fixtureA, fixtureRows, makeDataDir, manifestFor } from "../support/snapshotFixture.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any

const BATCH_DATE = "2026-02-06"
const BULK_ID = 1
const BULK_DAYS = 20_600
/** Rows before the first that is not integral. */
const INTEGRAL_DAYS = 20_560

const isoOf = (epochDay: number): string => new Date(epochDay * 86_400_000).toISOString().slice(0, 10)
const intOf = (iso: string): number => Number(iso.replaceAll("-", ""))
/** 1969-09-01 and the days after it. */
const FIRST_BULK_DAY = Date.UTC(1969, 8, 1) / 86_400_000

const bulkQuota = (d: number) => ({
  asset_id: BULK_ID,
  date: intOf(isoOf(FIRST_BULK_DAY + d)),
  price: d < INTEGRAL_DAYS ? 1000 + (d % 7) : 1000.5 + (d % 7),
  patrimony: d < INTEGRAL_DAYS ? 1_000_000_000 + d : 1_000_000_000.25 + d,
  holders: 100 + (d % 3),
  factor_ajuste: null,
  factor_reparto: null,
})

/** Fixture A with the FI/ETF tables and the bulk series (a third series of fund 8043-8), published as CURRENT. */
const publishBatch = (snapshotsDir: string): string => {
  const rows = fixtureRows(fixtureA())
  const fund8043 = rows.funds.find((f) => f.run === 8043)!
  const writer = new SnapshotWriter(snapshotsDir)
  try {
    writer.insertMeta({ fi_status: "available" })
    writer.insertAdministrators([...rows.administrators, { provider_id: EPSILON.providerId, rut: EPSILON.rut, name: EPSILON.name }])
    writer.insertFunds(rows.funds)
    const bulk = Array.from({ length: BULK_DAYS }, (_, d) => bulkQuota(d))
    writer.insertSeries([
      ...rows.series,
      {
        asset_id: BULK_ID,
        concept_id: fund8043.concept_id,
        run: 8043,
        serie: "BULK",
        currency: "$$",
        first_date: bulk[0]!.date,
        last_date: bulk.at(-1)!.date,
      },
    ])
    writer.insertQuotas([...bulk, ...rows.quotas])
    writer.insertRows("fi_instruments", [...INSTRUMENTS])
    writer.insertRows("fi_series", [...SERIES])
    writer.insertRows("fi_prices", [...PRICES])
    const finished = writer.finish(BATCH_DATE)
    writeManifest(snapshotsDir, manifestFor(finished, BATCH_DATE))
    publishCurrent(snapshotsDir, finished.file)
    return finished.file.replace(/\.sqlite$/, "")
  } catch (e) {
    writer.abort()
    throw e
  }
}

/** A line of days.csv.gz as the test expects it: [id, date, price, total_net_assets, shareholders]. */
type DayRow = [string, string, number, number | null, number | null]
/** A line of series.csv: id, vehicle, run, fund, series, administrator, currency, first_date, last_date. */
type SeriesRow = [string, string, string, string, string, string, string, string | null, string | null]

const DAY_COLUMNS = ["id", "date", "price", "total_net_assets", "shareholders"]
const SERIES_COLUMNS = ["id", "vehicle", "run", "fund", "series", "administrator", "currency", "first_date", "last_date"]

/** The file read by DuckDB with `fn` (read_csv or read_csv_auto) and no options: its column types and its rows, as text or numbers. */
const duckRead = async (path: string, fn: "read_csv" | "read_csv_auto") => {
  const instance = await DuckDBInstance.create(":memory:")
  const connection = await instance.connect()
  try {
    const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${fn}('${path}')`)).getRowObjectsJS()
    const types = Object.fromEntries(described.map((r) => [String(r.column_name), String(r.column_type)]))
    // dates as ISO text, BIGINT as numbers: the values, not DuckDB's objects
    const columns = described.map((r) => {
      const name = `"${String(r.column_name)}"`
      return r.column_type === "DATE" ? `strftime(${name}, '%Y-%m-%d')` : r.column_type === "BIGINT" ? `${name}::DOUBLE` : name
    })
    const rows = (await connection.runAndReadAll(`SELECT ${columns.join(", ")} FROM ${fn}('${path}')`)).getRowsJS()
    return { types, rows: rows as unknown[][] }
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/** Debian's Python, where python3-pandas installs pandas (a `python3` earlier on PATH, pyenv's, may not have it). */
const DEBIAN_PYTHON = "/usr/bin/python3"

/**
 * The file read by pandas' `read_csv` with no options: dtypes and rows (NaN as null; floats written
 * by repr, exactly). Run without blocking: a blocked event loop let the server's keep-alive timer
 * close an idle connection just as the next request was written on it (ECONNRESET).
 */
const pandasRead = async (path: string): Promise<{ types: Record<string, string>; rows: unknown[][] }> => {
  const script = `
import json, math, sys
import pandas as pd
df = pd.read_csv(sys.argv[1])
cols = [[None if isinstance(v, float) and math.isnan(v) else v for v in df[c].tolist()] for c in df.columns]
print(json.dumps({"types": {c: str(t) for c, t in df.dtypes.items()}, "rows": [list(r) for r in zip(*cols)]}))
`
  const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, ["-c", script, path], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  return JSON.parse(stdout)
}

describe("the bulk CSV files load the first time in DuckDB and pandas, with every value the API gives", () => {
  let fx: FixtureDir
  let batchId: string
  let server: RunningServer
  let key: string
  let validator: ContractValidator
  let work: string
  /** Every series the catalog routes list, with its lines as the API gives them. */
  let expectedDays: DayRow[]
  let expectedSeries: SeriesRow[]

  const api = async (path: string): Promise<Json> => {
    const res = await get(`${server.url}${path}`, { "x-api-key": key })
    expect(res.status, path).toBe(200)
    return res.body
  }

  /** Downloads `path` of the batch to a file of `name` (gunzipped when `gunzip`); checks the answer against the contract. */
  const download = async (path: string, name: string) => {
    const res = await request(`${server.url}/api/batches/${batchId}/${path}`, { headers: { "x-api-key": key } })
    const bytes = Buffer.from(await res.body.arrayBuffer())
    const route = `/api/batches/{batch_id}/${path.replace(/\?.*$/, "")}`
    const json = String(res.headers["content-type"]).startsWith("application/json") ? bytes.toString("utf8") : ""
    expect(res.statusCode, `${path} ${json}`).toBe(200)
    expect(validator.problems("get", route, { status: res.statusCode, headers: res.headers, text: json }), path).toEqual([])
    const file = join(work, name)
    writeFileSync(file, bytes)
    return { file, headers: res.headers, bytes }
  }

  beforeAll(async () => {
    fx = makeDataDir()
    batchId = publishBatch(fx.snapshotsDir)
    work = mkdtempSync(join(tmpdir(), "fds-bulk-load-"))
    server = await startServer({ dataDir: fx.dataDir })
    key = (await createKey(fx.dataDir, { email: "bulk@example.cl", tier: "internal" })).key
    validator = contractValidator((await get(`${server.url}/openapi.json`)).body)

    // The catalog as the routes give it: FM funds by their ids (an ended fund too), FI/ETF instruments of every status.
    const data = fixtureA()
    const fm: Array<{ id: number; line: (days: Json[]) => SeriesRow }> = []
    const providers = (await api("/api/asset_providers")).data as Json[]
    for (const f of data.funds) {
      const admin = providers.find((p) => p.attributes.name === data.administrators.find((a) => a.rut === f.providerRut)!.name)!
      for (const s of (await api(`/api/conceptual_assets/${f.conceptId}/real_assets`)).data as Json[]) {
        fm.push({
          id: Number(s.id),
          line: () => [
            `fm-${s.id}`,
            "mutual_fund",
            s.attributes.run,
            f.name,
            s.attributes.serie,
            admin.attributes.name,
            s.attributes.currency,
            s.attributes.start_date,
            s.attributes.last_day.date,
          ],
        })
        // the start and last dates the catalog gives are the series' first and last days
        const days = (await api(`/api/real_assets/${s.id}/days`)).data as Json[]
        expect([days[0].attributes.date, days.at(-1).attributes.date]).toEqual([s.attributes.start_date, s.attributes.last_day.date])
      }
    }
    const fi: Array<{ id: string; line: (days: Json[]) => SeriesRow }> = []
    for (const i of (await api("/api/fi/instruments?status=all&limit=500")).data as Json[]) {
      for (const s of i.series as Json[]) {
        fi.push({
          id: s.serie_id,
          line: (days) => [
            `fi-${s.serie_id}`,
            i.vehicle,
            i.run,
            i.name,
            s.serie,
            i.administrator,
            s.currency,
            days[0]?.attributes.date ?? null,
            days.at(-1)?.attributes.date ?? null,
          ],
        })
      }
    }
    // the order the files promise: FM by numeric id, then FI/ETF by UUID
    fm.sort((a, b) => a.id - b.id)
    fi.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    expect(fm.map((s) => s.id)).toContain(BULK_ID)
    expect(fi.length).toBe(SERIES.length)

    // net assets and shareholders are not in /days: the fixture's rows give them
    const extra = new Map<string, [number | null, number | null]>()
    for (const q of [...fixtureRows(data).quotas, ...Array.from({ length: BULK_DAYS }, (_, d) => bulkQuota(d))]) {
      extra.set(`fm-${q.asset_id} ${q.date}`, [q.patrimony, q.holders])
    }
    for (const p of PRICES) extra.set(`fi-${p.serie_id} ${p.date}`, [p.patrimony, p.holders])
    expectedDays = []
    expectedSeries = []
    for (const s of [...fm, ...fi]) {
      const days = (await api(`/api/real_assets/${s.id}/days`)).data as Json[]
      const line = s.line(days)
      expectedSeries.push(line)
      for (const d of days) {
        const [patrimony, holders] = extra.get(`${line[0]} ${intOf(d.attributes.date)}`)!
        expectedDays.push([line[0], d.attributes.date, d.attributes.price, patrimony, holders])
      }
    }
    expect(expectedDays.length).toBe(BULK_DAYS + fixtureRows(data).quotas.length + PRICES.length)
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    if (work !== undefined) rmSync(work, { recursive: true, force: true })
    fx?.cleanup()
  })

  it("days.csv.gz: DuckDB types id as text, date as DATE, the decimals as DOUBLE, and reads every value /days gives", async () => {
    const { file } = await download("days.csv.gz", "days.csv.gz")
    for (const fn of ["read_csv", "read_csv_auto"] as const) {
      const duck = await duckRead(file, fn)
      expect(duck.types, fn).toEqual({ id: "VARCHAR", date: "DATE", price: "DOUBLE", total_net_assets: "DOUBLE", shareholders: "BIGINT" })
      expect(duck.rows, fn).toEqual(expectedDays)
    }
  }, 60_000)

  it("days.csv.gz: pandas reads id as text and every value /days gives", async () => {
    const { file } = await download("days.csv.gz", "days-pandas.csv.gz")
    const pandas = await pandasRead(file)
    // shareholders has empty fields: pandas' float column with NaN
    expect(pandas.types).toEqual({ id: "object", date: "object", price: "float64", total_net_assets: "float64", shareholders: "float64" })
    expect(pandas.rows).toEqual(expectedDays)
  }, 60_000)

  it("days.csv.gz?from_date= holds the dates on or after it, read the same by DuckDB and pandas; its ETag names the subset", async () => {
    const whole = await download("days.csv.gz", "whole.csv.gz")
    for (const from of ["2026-02-04", "1990-01-01"]) {
      const subset = await download(`days.csv.gz?from_date=${from}`, `from-${from}.csv.gz`)
      const expected = expectedDays.filter((r) => r[1] >= from)
      expect(expected.length).toBeGreaterThan(0)
      expect(expected.length).toBeLessThan(expectedDays.length)
      expect((await duckRead(subset.file, "read_csv")).rows, from).toEqual(expected)
      expect((await pandasRead(subset.file)).rows, from).toEqual(expected)
      expect(gunzipSync(subset.bytes).toString("utf8").split("\n")[0]).toBe(DAY_COLUMNS.join(","))
      expect(subset.headers.etag).not.toBe(whole.headers.etag)
      expect(subset.headers.etag).toMatch(new RegExp(`^W/".*-from-${from}"$`))
      expect(subset.headers["content-disposition"]).toBe(`attachment; filename="${batchId}-days-from-${from}.csv.gz"`)
    }
    const again = await request(`${server.url}/api/batches/${batchId}/days.csv.gz?from_date=2026-02-04`, {
      headers: { "x-api-key": key, "if-none-match": String(whole.headers.etag) },
    })
    // the whole file's tag does not validate a subset
    expect(again.statusCode).toBe(200)
    await again.body.arrayBuffer()
    for (const bad of ["2026-02-30", "20260204", "yesterday"]) {
      const res = await get(`${server.url}/api/batches/${batchId}/days.csv.gz?from_date=${bad}`, { "x-api-key": key })
      expect(res.status, bad).toBe(422)
      expect((res.body as Json).parameter, bad).toBe("from_date")
    }
  }, 60_000)

  it("series.csv: DuckDB and pandas read one text line per series, as the catalog routes and /days give it", async () => {
    const { file, headers, bytes } = await download("series.csv", "series.csv")
    expect(headers["content-type"]).toBe("text/csv; charset=utf-8; header=present")
    expect(headers["content-disposition"]).toBe(`attachment; filename="${batchId}-series.csv"`)
    expect(headers["batch-id"]).toBe(batchId)
    for (const fn of ["read_csv", "read_csv_auto"] as const) {
      const duck = await duckRead(file, fn)
      expect(duck.types, fn).toEqual({
        id: "VARCHAR",
        vehicle: "VARCHAR",
        run: "VARCHAR",
        fund: "VARCHAR",
        series: "VARCHAR",
        administrator: "VARCHAR",
        currency: "VARCHAR",
        first_date: "DATE",
        last_date: "DATE",
      })
      expect(duck.rows, fn).toEqual(expectedSeries)
    }
    const pandas = await pandasRead(file)
    expect(Object.keys(pandas.types)).toEqual(SERIES_COLUMNS)
    expect(Object.values(pandas.types).every((t) => t === "object")).toBe(true)
    expect(pandas.rows).toEqual(expectedSeries)
    // every id of days.csv.gz has its line, and every line's dates are its first and last there
    const days = await duckRead((await download("days.csv.gz", "days-ids.csv.gz")).file, "read_csv")
    for (const s of expectedSeries) {
      const mine = days.rows.filter((r) => r[0] === s[0]).map((r) => r[1])
      expect([mine[0], mine.at(-1)], s[0]).toEqual([s[7], s[8]])
    }
    expect(bytes.length).toBe(Number(headers["content-length"]))
  }, 60_000)

  it("series.csv has a strong ETag and Repr-Digest of its bytes, and serves one range (206, If-Range, 416)", async () => {
    const whole = await download("series.csv", "series-whole.csv")
    const { createHash } = await import("node:crypto")
    const sha = createHash("sha256").update(whole.bytes).digest()
    expect(whole.headers.etag).toBe(`"${sha.toString("hex")}"`)
    expect(whole.headers["repr-digest"]).toBe(`sha-256=:${sha.toString("base64")}:`)
    expect(whole.headers["accept-ranges"]).toBe("bytes")
    const url = `${server.url}/api/batches/${batchId}/series.csv`
    const size = whole.bytes.length
    const part = await request(url, { headers: { "x-api-key": key, range: "bytes=100-", "if-range": String(whole.headers.etag) } })
    expect(part.statusCode).toBe(206)
    expect(part.headers["content-range"]).toBe(`bytes 100-${size - 1}/${size}`)
    expect(Buffer.from(await part.body.arrayBuffer())).toEqual(whole.bytes.subarray(100))
    const stale = await request(url, { headers: { "x-api-key": key, range: "bytes=100-", "if-range": '"0000"' } })
    expect(stale.statusCode).toBe(200)
    expect(Buffer.from(await stale.body.arrayBuffer())).toEqual(whole.bytes)
    const past = await request(url, { headers: { "x-api-key": key, range: `bytes=${size}-` } })
    expect(past.statusCode).toBe(416)
    expect(past.headers["content-range"]).toBe(`bytes */${size}`)
    await past.body.dump()
    const notModified = await request(url, { headers: { "x-api-key": key, "if-none-match": String(whole.headers.etag) } })
    expect(notModified.statusCode).toBe(304)
    await notModified.body.dump()
    // RFC 9110: If-None-Match is weighed before Range (a 304, not a part), and a HEAD ignores Range
    const notModifiedPart = await request(url, { headers: { "x-api-key": key, "if-none-match": String(whole.headers.etag), range: "bytes=0-5" } })
    expect(notModifiedPart.statusCode).toBe(304)
    await notModifiedPart.body.dump()
    const head = await request(url, { method: "HEAD", headers: { "x-api-key": key, range: "bytes=0-5" } })
    expect([head.statusCode, head.headers["content-length"], head.headers["content-range"]]).toEqual([200, String(size), undefined])
    await head.body.dump()
    const unknown = await get(`${server.url}/api/batches/${BATCH_DATE}-0123456789abcdef/series.csv`, { "x-api-key": key })
    expect(unknown.status).toBe(404)
    expect(whole.bytes.toString("utf8").split("\n")[0]).toBe(SERIES_COLUMNS.join(","))
  })
})
