/**
 * A small, hand-made snapshot directory for tests: every value below is chosen here, so tests
 * compare the API's answers with these values, never with the code's own output.
 *
 * Ids are computed in this file with an independent CRC32 (table-driven, IEEE 802.3, the zlib
 * polynomial 0xEDB88320), not with schemas/Ids.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Manifest, writeManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import type { AdministratorsTable, FundsTable, QuotasTable, SeriesTable } from "../../snapshots/Tables.ts"
import { FORMAT_VERSION } from "../../snapshots/Tables.ts"
import { type FinishedSnapshot, SnapshotWriter } from "../../snapshots/Writer.ts"

// ---------------------------------------------------------------------------------------------
// Independent CRC32 (reflected, polynomial 0xEDB88320, init and final xor 0xFFFFFFFF).

const CRC_TABLE: ReadonlyArray<number> = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

export const testCrc32 = (text: string): number => {
  let crc = 0xffffffff
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

// ---------------------------------------------------------------------------------------------
// The fixture's chosen data.

export interface FixtureAdministrator {
  readonly rut: number
  /** Check digit worked out by hand (see test/api/ids.test.ts for the módulo 11 steps). */
  readonly dv: string
  readonly name: string
  readonly providerId: number
}

export interface FixtureQuota {
  readonly date: string
  readonly price: number
  readonly patrimony: number | null
  readonly holders: number | null
}

export interface FixtureSeries {
  readonly run: number
  readonly serie: string
  readonly currency: string | null
  readonly assetId: number
  readonly quotas: ReadonlyArray<FixtureQuota>
}

export interface FixtureFund {
  readonly run: number
  /** RUN check digit worked out by hand. */
  readonly dv: string
  readonly providerRut: number
  readonly name: string
  readonly fundType: number | null
  readonly currency: string | null
  readonly endDate: string | null
  readonly isCurrent: boolean
  readonly conceptId: number
  readonly series: ReadonlyArray<FixtureSeries>
}

export interface FixtureData {
  readonly batchDate: string
  readonly administrators: ReadonlyArray<FixtureAdministrator>
  readonly funds: ReadonlyArray<FixtureFund>
}

const admin = (rut: number, dv: string, name: string): FixtureAdministrator => ({
  rut,
  dv,
  name,
  providerId: testCrc32(`agf:${rut}`),
})

const series = (
  run: number,
  serie: string,
  currency: string | null,
  quotas: ReadonlyArray<FixtureQuota>,
): FixtureSeries => ({ run, serie, currency, assetId: testCrc32(`fm:${run}:${serie}`), quotas })

const fund = (f: Omit<FixtureFund, "conceptId">): FixtureFund => ({ ...f, conceptId: testCrc32(`fm:${f.run}`) })

/**
 * Snapshot A (batch 2026-02-06).
 *   96639280-0  "Alfa AGF S.A."   funds 8043-8 (current, series A and B) and 8106-K (terminated 2026-01-15)
 *   97004000-5  "Beta AGF S.A."   fund 9105-7 (current, series A and APV)
 */
export const fixtureA = (): FixtureData => {
  const alfa = admin(96639280, "0", "Alfa AGF S.A.")
  const beta = admin(97004000, "5", "Beta AGF S.A.")
  return {
    batchDate: "2026-02-06",
    administrators: [alfa, beta],
    funds: [
      fund({
        run: 8043,
        dv: "8",
        providerRut: alfa.rut,
        name: "Fondo Mutuo Alfa Ahorro",
        fundType: 1,
        currency: "$$",
        endDate: null,
        isCurrent: true,
        series: [
          series(8043, "A", "$$", [
            { date: "2026-02-02", price: 1000.5, patrimony: 5_000_000_000, holders: 1200 },
            { date: "2026-02-03", price: 1001.25, patrimony: 5_010_000_000, holders: 1201 },
            { date: "2026-02-04", price: 1002, patrimony: 5_020_000_000, holders: 1203 },
            { date: "2026-02-05", price: 1002.75, patrimony: 5_030_000_000, holders: 1204 },
            { date: "2026-02-06", price: 1003.5, patrimony: 5_040_000_000, holders: 1206 },
          ]),
          series(8043, "B", "$$", [
            { date: "2026-02-03", price: 2500.125, patrimony: 750_000_000, holders: 88 },
            { date: "2026-02-05", price: 2501.5, patrimony: null, holders: null },
            { date: "2026-02-06", price: 2502.375, patrimony: 751_500_000, holders: 90 },
          ]),
        ],
      }),
      fund({
        run: 8106,
        dv: "K",
        providerRut: alfa.rut,
        name: "Fondo Mutuo Alfa Cerrado",
        fundType: 3,
        currency: "$$",
        endDate: "2026-01-15",
        isCurrent: false,
        series: [
          series(8106, "A", "$$", [
            { date: "2026-01-13", price: 1500.25, patrimony: 10_000_000, holders: 5 },
            { date: "2026-01-14", price: 1499.75, patrimony: 9_000_000, holders: 4 },
            { date: "2026-01-15", price: 1498.5, patrimony: 1_000_000, holders: 1 },
          ]),
        ],
      }),
      fund({
        run: 9105,
        dv: "7",
        providerRut: beta.rut,
        name: "Fondo Mutuo Beta Dólar",
        fundType: 5,
        currency: "PROM",
        endDate: null,
        isCurrent: true,
        series: [
          series(9105, "A", "PROM", [
            { date: "2026-02-04", price: 1.2345, patrimony: 2_000_000, holders: 40 },
            { date: "2026-02-05", price: 1.2401, patrimony: 2_010_000, holders: 41 },
            { date: "2026-02-06", price: 1.2388, patrimony: 2_005_000, holders: 41 },
          ]),
          series(9105, "APV", "PROM", [
            { date: "2026-02-05", price: 1.1111, patrimony: 300_000, holders: 12 },
            { date: "2026-02-06", price: 1.1122, patrimony: 301_000, holders: 12 },
          ]),
        ],
      }),
    ],
  }
}

/** Snapshot B (batch 2026-02-09): A plus one more quota day on each current series. */
export const fixtureB = (): FixtureData => {
  const a = fixtureA()
  const extra: Record<string, FixtureQuota> = {
    "8043:A": { date: "2026-02-09", price: 1004.125, patrimony: 5_050_000_000, holders: 1207 },
    "8043:B": { date: "2026-02-09", price: 2503.25, patrimony: 752_000_000, holders: 91 },
    "9105:A": { date: "2026-02-09", price: 1.2399, patrimony: 2_006_000, holders: 42 },
    "9105:APV": { date: "2026-02-09", price: 1.1134, patrimony: 302_000, holders: 13 },
  }
  return {
    batchDate: "2026-02-09",
    administrators: a.administrators,
    funds: a.funds.map((f) => ({
      ...f,
      series: f.series.map((s) => {
        const more = extra[`${s.run}:${s.serie}`]
        return more === undefined ? s : { ...s, quotas: [...s.quotas, more] }
      }),
    })),
  }
}

// ---------------------------------------------------------------------------------------------
// Table rows, and the helpers that write them.

const dateInt = (iso: string): number => Number(iso.replaceAll("-", ""))

export interface FixtureRows {
  readonly administrators: AdministratorsTable[]
  readonly funds: FundsTable[]
  readonly series: SeriesTable[]
  readonly quotas: QuotasTable[]
}

export const fixtureRows = (data: FixtureData): FixtureRows => {
  const administrators = data.administrators.map((a) => ({ provider_id: a.providerId, rut: a.rut, name: a.name }))
  const funds: FundsTable[] = []
  const seriesRows: SeriesTable[] = []
  const quotas: QuotasTable[] = []
  for (const f of data.funds) {
    funds.push({
      concept_id: f.conceptId,
      run: f.run,
      provider_id: testCrc32(`agf:${f.providerRut}`),
      name: f.name,
      short_name: null,
      fund_type: f.fundType,
      currency: f.currency,
      start_date: f.series[0]?.quotas[0]?.date ?? null,
      end_date: f.endDate,
      is_current: f.isCurrent ? 1 : 0,
    })
    for (const s of f.series) {
      seriesRows.push({
        asset_id: s.assetId,
        concept_id: f.conceptId,
        run: s.run,
        serie: s.serie,
        currency: s.currency,
        first_date: dateInt(s.quotas[0]!.date),
        last_date: dateInt(s.quotas[s.quotas.length - 1]!.date),
      })
      for (const q of s.quotas) {
        quotas.push({
          asset_id: s.assetId,
          date: dateInt(q.date),
          price: q.price,
          patrimony: q.patrimony,
          holders: q.holders,
          factor_ajuste: null,
          factor_reparto: null,
        })
      }
    }
  }
  quotas.sort((x, y) => x.asset_id - y.asset_id || x.date - y.date)
  return { administrators, funds, series: seriesRows, quotas }
}

/** Writes the rows with SnapshotWriter and finishes the file (no manifest, no CURRENT). */
export const writeSnapshotFile = (
  dir: string,
  data: FixtureData,
  options: {
    readonly reverse?: boolean
    readonly extraMeta?: Record<string, string>
    readonly hashBeside?: boolean
    /** Runs on the file before it is finished (the pipeline's computations, as a build runs them). */
    readonly compute?: (writer: SnapshotWriter) => void
  } = {},
): FinishedSnapshot => {
  const rows = fixtureRows(data)
  const order = <T>(xs: T[]): T[] => (options.reverse === true ? [...xs].reverse() : xs)
  const writer = new SnapshotWriter(dir)
  try {
    if (options.extraMeta !== undefined) writer.insertMeta(options.extraMeta)
    writer.insertAdministrators(order(rows.administrators))
    writer.insertFunds(order(rows.funds))
    writer.insertSeries(order(rows.series))
    writer.insertQuotas(order(rows.quotas))
    options.compute?.(writer)
    return writer.finish(data.batchDate, options.hashBeside === undefined ? {} : { hashBeside: options.hashBeside })
  } catch (e) {
    writer.abort()
    throw e
  }
}

export const manifestFor = (finished: FinishedSnapshot, batchDate: string): Manifest => ({
  format_version: FORMAT_VERSION,
  pipeline_version: "test-fixture",
  batch_date: batchDate,
  file: finished.file,
  content_hash: finished.contentHash,
  inputs: [],
  row_counts: finished.rowCounts,
  repairs: {},
  options: {},
})

export interface PublishedSnapshot {
  readonly data: FixtureData
  readonly finished: FinishedSnapshot
  /** Rows in administrators + funds + series + quotas (what /health calls total_records). */
  readonly totalRecords: number
}

/** Writes a snapshot file, its manifest and then CURRENT (the publishing order the API relies on). */
export const publishSnapshot = (
  snapshotsDir: string,
  data: FixtureData,
  compute?: (writer: SnapshotWriter) => void,
): PublishedSnapshot => {
  const finished = writeSnapshotFile(snapshotsDir, data, compute === undefined ? {} : { compute })
  writeManifest(snapshotsDir, manifestFor(finished, data.batchDate))
  publishCurrent(snapshotsDir, finished.file)
  const rows = fixtureRows(data)
  return {
    data,
    finished,
    totalRecords: rows.administrators.length + rows.funds.length + rows.series.length + rows.quotas.length,
  }
}

export interface FixtureDir {
  /** The data directory (FDS_DATA_DIR): holds snapshots/ and accounts.sqlite. */
  readonly dataDir: string
  readonly snapshotsDir: string
  readonly cleanup: () => void
}

/** A fresh, empty data directory under the OS temp dir. */
export const makeDataDir = (): FixtureDir => {
  const dataDir = mkdtempSync(join(tmpdir(), "fds-test-"))
  const snapshotsDir = join(dataDir, "snapshots")
  mkdirSync(snapshotsDir, { recursive: true })
  return { dataDir, snapshotsDir, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) }
}

/** A data directory with snapshot A published. */
export const makeFixtureA = (): FixtureDir & { readonly snapshot: PublishedSnapshot } => {
  const dir = makeDataDir()
  return { ...dir, snapshot: publishSnapshot(dir.snapshotsDir, fixtureA()) }
}

/** Publishes snapshot B (another batch date, different content) into an existing data directory. */
export const publishFixtureB = (snapshotsDir: string): PublishedSnapshot => publishSnapshot(snapshotsDir, fixtureB())

/** A file with a valid snapshot name that is not a database, plus a manifest naming it; then CURRENT. */
export const publishGarbageSnapshot = (snapshotsDir: string, batchDate: string): string => {
  const hash = "0123456789abcdef".repeat(4)
  const file = `${batchDate}-${hash.slice(0, 16)}.sqlite`
  writeFileSync(join(snapshotsDir, file), Buffer.alloc(8192, 0x5a))
  writeManifest(snapshotsDir, {
    format_version: FORMAT_VERSION,
    pipeline_version: "test-fixture",
    batch_date: batchDate,
    file,
    content_hash: hash,
    inputs: [],
    row_counts: {},
    repairs: {},
    options: {},
  })
  publishCurrent(snapshotsDir, file)
  return file
}

/** The ISO date → YYYYMMDD conversion the snapshot tables use, written independently. */
export const fixtureDateInt = dateInt

/** Every Monday–Friday from `from` to `to` (inclusive), YYYY-MM-DD. */
export const weekdays = (from: string, to: string): string[] => {
  const out: string[] = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t)
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10))
  }
  return out
}
