/**
 * The content hash of a snapshot: SHA-256 over one line per table, `<name> <table digest>\n`, in
 * TABLES order; a table's digest is SHA-256 over its canonical dump, rows in primary-key order.
 * It depends on the data only, not on SQLite's file layout, so it survives a SQLite upgrade and
 * means "same data".
 *
 * The dump of `quotas` (nine in ten rows) is binary: per row, nine little-endian float64 values
 * (asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto, units_subscribed,
 * units_redeemed; NULL as NaN, −0 as 0),
 * cut by calendar month: the table's digest is SHA-256 over `<YYYYMM> <month digest>\n` lines,
 * months ascending, each month digest SHA-256 over that month's rows in key order. Every other
 * table's dump is its rows as JSON arrays, one per line; a table that names a `months` column
 * (`fi_prices`: its date) is cut by calendar month the same way, each month digest over that
 * month's JSON lines in key order. Because each table (and each quota month)
 * has its own digest, the writer can take the quotas digest from the rows as it inserts them in key
 * order (`QuotaDigest`) instead of reading 10M rows back, and a daily build re-hashes only the
 * months and tables it changed, taking the others from the previous batch's manifest;
 * `contentHash(db)` with no precomputed digest reads every table from the file, and the tests check
 * that all give the same hash.
 */

import { createHash, type Hash } from "node:crypto"
import type Database from "better-sqlite3"
import { TABLES } from "./Tables.ts"

type Table = (typeof TABLES)[number]

const jsonDigest = (db: Database.Database, table: Table): string => {
  const hash = createHash("sha256")
  if (table.partition === undefined) {
    let buffer = ""
    for (const row of db.prepare(`SELECT * FROM ${table.name} ORDER BY ${table.orderBy}`).raw(true).iterate()) {
      buffer += JSON.stringify(row) + "\n"
      if (buffer.length > 1 << 20) {
        hash.update(buffer)
        buffer = ""
      }
    }
    hash.update(buffer)
    return hash.digest("hex")
  }
  // One partition at a time: bounded memory, and faster than one long iterate().
  const keys = db.prepare(`SELECT DISTINCT ${table.partition} FROM ${table.name} ORDER BY 1`).pluck().all()
  const rowsOf = db.prepare(`SELECT * FROM ${table.name} WHERE ${table.partition} = ? ORDER BY ${table.orderBy}`).raw(true)
  for (const key of keys) {
    let buffer = ""
    for (const row of rowsOf.all(key)) buffer += JSON.stringify(row) + "\n"
    hash.update(buffer)
  }
  return hash.digest("hex")
}

const QUOTA_VALUES = 9
/** Rows buffered per month before they go to its hash (≈240 months at full scale: ~12 MB of buffers). */
const CHUNK_ROWS = 1024

const canonical = (x: number | null): number => (x === null || Number.isNaN(x) ? Number.NaN : x === 0 ? 0 : x)

/** One month's hash of quota rows, fed in (asset_id, date) order through a small buffer. */
class MonthHash {
  readonly hash: Hash = createHash("sha256")
  readonly chunk = new Float64Array(CHUNK_ROWS * QUOTA_VALUES)
  filled = 0

  flush(): void {
    if (this.filled === 0) return
    // Float64Array is little-endian on every platform Node runs on here (x64, arm64).
    this.hash.update(new Uint8Array(this.chunk.buffer, 0, this.filled * QUOTA_VALUES * 8))
    this.filled = 0
  }
}

/**
 * The quotas digest, fed row by row in (asset_id, date) order. The table's digest is made of one
 * digest per calendar month (the month's rows in key order), so that a daily build that changes
 * only the latest month re-hashes that month and takes the others from the previous batch's
 * manifest (see `quotaTableDigest`). `ordered` turns false when a row does not come strictly after
 * the previous one: then the digests are not the table's and the caller must read the table back.
 */
export class QuotaDigest {
  private readonly months = new Map<number, MonthHash>()
  private lastAsset = Number.NEGATIVE_INFINITY
  private lastDate = Number.NEGATIVE_INFINITY
  rows = 0
  ordered = true

  add(
    assetId: number,
    date: number,
    price: number,
    patrimony: number | null,
    holders: number | null,
    factorAjuste: number | null,
    factorReparto: number | null,
    unitsSubscribed: number | null,
    unitsRedeemed: number | null,
  ): void {
    if (assetId < this.lastAsset || (assetId === this.lastAsset && date <= this.lastDate)) this.ordered = false
    this.lastAsset = assetId
    this.lastDate = date
    const key = Math.floor(date / 100)
    let m = this.months.get(key)
    if (m === undefined) {
      m = new MonthHash()
      this.months.set(key, m)
    }
    const c = m.chunk
    let at = m.filled * QUOTA_VALUES
    c[at++] = canonical(assetId)
    c[at++] = canonical(date)
    c[at++] = canonical(price)
    c[at++] = canonical(patrimony)
    c[at++] = canonical(holders)
    c[at++] = canonical(factorAjuste)
    c[at++] = canonical(factorReparto)
    c[at++] = canonical(unitsSubscribed)
    c[at] = canonical(unitsRedeemed)
    this.rows++
    if (++m.filled === CHUNK_ROWS) m.flush()
  }

  /** Each month's digest (YYYYMM → hex), months ascending. */
  monthDigests(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const key of [...this.months.keys()].sort((a, b) => a - b)) {
      const m = this.months.get(key)!
      m.flush()
      out[String(key)] = m.hash.digest("hex")
    }
    return out
  }
}

/**
 * The quotas table's digest from its months' digests: SHA-256 over `<YYYYMM> <month digest>\n`,
 * months ascending (a month digest is SHA-256 over that month's rows in (asset_id, date) order, each
 * row seven little-endian float64). An empty table has no month: the digest of zero bytes.
 */
export const quotaTableDigest = (months: Readonly<Record<string, string>>): string => {
  const hash = createHash("sha256")
  for (const key of Object.keys(months).sort()) hash.update(`${key} ${months[key]}\n`)
  return hash.digest("hex")
}

type QuotaRow = [number, number, number, number | null, number | null, number | null, number | null, number | null, number | null]

/**
 * The month digests of the quotas from `fromDate` (YYYYMMDD, the first of a month; 0: all), read
 * one series at a time, as jsonDigest reads a partitioned table: 4.9 s instead of 8.0 s over one
 * iterate() at full size (9.3M rows).
 */
export const quotaMonthDigests = (db: Database.Database, fromDate = 0): Record<string, string> => {
  const digest = new QuotaDigest()
  const assets = db.prepare("SELECT DISTINCT asset_id FROM quotas ORDER BY 1").pluck().all()
  const rowsOf = db
    .prepare(
      "SELECT asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto, units_subscribed, units_redeemed FROM quotas WHERE asset_id = ? AND date >= ? ORDER BY date",
    )
    .raw(true)
  for (const asset of assets) {
    for (const r of rowsOf.all(asset, fromDate) as QuotaRow[]) digest.add(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8])
  }
  return digest.monthDigests()
}

/**
 * The month digests of a table cut by month (`months`, a YYYYMMDD column) from `fromDate` (the
 * first of a month; 0: all): each month's rows as JSON lines in key order, read one partition at
 * a time from that date on.
 */
export const jsonMonthDigests = (db: Database.Database, table: Table, fromDate = 0): Record<string, string> => {
  const column = table.months!
  const partition = table.partition!
  const rowsOf = db.prepare(`SELECT * FROM ${table.name} WHERE ${partition} = ? AND ${column} >= ? ORDER BY ${table.orderBy}`).raw(true)
  const at = rowsOf.columns().findIndex((c) => c.name === column)
  const months = new Map<number, { readonly hash: Hash; buffer: string }>()
  for (const key of db.prepare(`SELECT DISTINCT ${partition} FROM ${table.name} ORDER BY 1`).pluck().all()) {
    for (const row of rowsOf.all(key, fromDate) as unknown[][]) {
      const month = Math.floor((row[at] as number) / 100)
      let m = months.get(month)
      if (m === undefined) {
        m = { hash: createHash("sha256"), buffer: "" }
        months.set(month, m)
      }
      m.buffer += JSON.stringify(row) + "\n"
      if (m.buffer.length > 1 << 16) {
        m.hash.update(m.buffer)
        m.buffer = ""
      }
    }
  }
  const out: Record<string, string> = {}
  for (const month of [...months.keys()].sort((a, b) => a - b)) {
    const m = months.get(month)!
    m.hash.update(m.buffer)
    out[String(month)] = m.hash.digest("hex")
  }
  return out
}

/** Values a row of the whole-table digest had (before the units subscribed and redeemed). */
const LEGACY_QUOTA_VALUES = 7

/**
 * The quotas digest of pipeline 0.4 and before, for snapshots they built: SHA-256 over every row in
 * (asset_id, date) order, each row seven little-endian float64 (NULL as NaN), with no months. A
 * batch built before 0.5 keeps the hash its manifest and the ledger recorded; `pipeline reproduce`
 * of such a day says "version differs".
 */
export const wholeQuotaDigest = (db: Database.Database): string => {
  const hash = createHash("sha256")
  const chunk = new MonthHash()
  const assets = db.prepare("SELECT DISTINCT asset_id FROM quotas ORDER BY 1").pluck().all()
  const rowsOf = db
    .prepare("SELECT asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto FROM quotas WHERE asset_id = ? ORDER BY date")
    .raw(true)
  const c = chunk.chunk
  const flush = () => {
    if (chunk.filled === 0) return
    hash.update(new Uint8Array(c.buffer, 0, chunk.filled * LEGACY_QUOTA_VALUES * 8))
    chunk.filled = 0
  }
  for (const asset of assets) {
    for (const r of rowsOf.all(asset) as QuotaRow[]) {
      let at = chunk.filled * LEGACY_QUOTA_VALUES
      for (const v of r) c[at++] = canonical(v)
      if (++chunk.filled === CHUNK_ROWS) flush()
    }
  }
  flush()
  return hash.digest("hex")
}

/**
 * The snapshot's content hash, to hold against its manifest's, as the pipeline that built it
 * hashed: per-month quotas from pipeline 0.5 on, per-month `fi_prices` from 0.6 on. For a manifest
 * whose hash the current scheme does not give, the tables its pipeline hashed whole (no
 * `table_month_digests`: `fi_prices`; no `quota_month_digests`: the quotas too) are hashed whole
 * again, so that a batch built before an upgrade keeps the hash it was published with. The file is
 * read a second time only for such a batch. A file that is neither gets the current hash.
 */
export const contentHashFor = (
  db: Database.Database,
  manifest: { readonly content_hash: string; readonly quota_month_digests?: unknown; readonly table_month_digests?: unknown },
): string => {
  const digests: Record<string, string> = {}
  for (const table of TABLES) digests[table.name] = tableDigest(db, table)
  const hash = hashOfDigests(digests)
  if (hash === manifest.content_hash) return hash
  const older: Record<string, string> = { ...digests }
  if (manifest.table_month_digests === undefined) {
    for (const table of TABLES) if (table.months !== undefined && table.name !== "quotas") older[table.name] = jsonDigest(db, table)
  }
  if (manifest.quota_month_digests === undefined) older.quotas = wholeQuotaDigest(db)
  if (TABLES.every((t) => older[t.name] === digests[t.name])) return hash
  const old = hashOfDigests(older)
  // neither: the file is not its manifest's; the current hash is the one to report
  return old === manifest.content_hash ? old : hash
}

/** One table's digest, read from the file. */
export const tableDigest = (db: Database.Database, table: Table): string =>
  table.name === "quotas"
    ? quotaTableDigest(quotaMonthDigests(db))
    : table.months !== undefined
      ? quotaTableDigest(jsonMonthDigests(db, table))
      : jsonDigest(db, table)

/** The content hash from every table's digest (by name), in TABLES order. */
export const hashOfDigests = (digests: Readonly<Record<string, string>>): string => {
  const hash = createHash("sha256")
  for (const table of TABLES) {
    const digest = digests[table.name]
    if (digest === undefined) throw new Error(`no digest for table ${table.name}`)
    hash.update(`${table.name} ${digest}\n`)
  }
  return hash.digest("hex")
}

/** The snapshot's content hash; `precomputed` digests (by table name) are taken as given. */
export const contentHash = (db: Database.Database, precomputed: Readonly<Record<string, string>> = {}): string => {
  const digests: Record<string, string> = {}
  for (const table of TABLES) digests[table.name] = precomputed[table.name] ?? tableDigest(db, table)
  return hashOfDigests(digests)
}

/** Every table's row count; `known` counts are taken as given. */
export const rowCounts = (db: Database.Database, known: Readonly<Record<string, number>> = {}): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const table of TABLES) {
    counts[table.name] = known[table.name] ?? (db.prepare(`SELECT count(*) AS n FROM ${table.name}`).get() as { n: number }).n
  }
  return counts
}

/** What a finished snapshot's hash is made of: kept in its manifest, so that the next daily build reuses what it did not change. */
export interface SnapshotDigests {
  readonly hash: string
  readonly counts: Record<string, number>
  /** Each table's digest, by name. */
  readonly tables: Record<string, string>
  /** The quotas table's month digests (YYYYMM → hex). */
  readonly quotaMonths: Record<string, string>
  /** The month digests of the other tables cut by month (`fi_prices`), by table. */
  readonly tableMonths: Record<string, Record<string, string>>
}

/** Digests known before reading the file: the quotas months taken while inserting, and tables left unchanged. */
export interface KnownDigests {
  /** All the quotas months and the rows they cover, used when the table's row count agrees; or the months before `from`. */
  readonly quotas: { readonly months: Readonly<Record<string, string>>; readonly rows: number } | null
  /** Reuse the months before this YYYYMMDD (the first of a month) from `quotas.months` and read the rest (an increment). */
  readonly quotasFrom?: number
  /** Tables whose digest is known (not read). */
  readonly tables?: Readonly<Record<string, string>>
  /** Tables whose row count is known (not counted). */
  readonly counts?: Readonly<Record<string, number>>
  /** Tables cut by month (other than quotas): their month digests before `from` (YYYYMMDD, a month's first day), the rest read. */
  readonly months?: Readonly<Record<string, { readonly digests: Readonly<Record<string, string>>; readonly from: number }>>
}

/**
 * The content hash, table digests and row counts of a finished snapshot file, on a read-only
 * connection of its own; what `known` gives is taken as given, the rest read from the file.
 */
export const hashSnapshotFile = (open: (path: string) => Database.Database, path: string, known: KnownDigests): SnapshotDigests => {
  const db = open(path)
  try {
    const counts = rowCounts(db, known.counts)
    let quotaMonths: Record<string, string>
    if (known.quotas !== null && known.quotasFrom !== undefined) {
      const from = known.quotasFrom
      const kept = Object.entries(known.quotas.months).filter(([m]) => Number(m) < Math.floor(from / 100))
      quotaMonths = { ...Object.fromEntries(kept), ...quotaMonthDigests(db, from) }
    } else if (known.quotas !== null && known.quotas.rows === counts.quotas) {
      quotaMonths = { ...known.quotas.months }
    } else {
      quotaMonths = quotaMonthDigests(db)
    }
    const tables: Record<string, string> = {}
    const tableMonths: Record<string, Record<string, string>> = {}
    for (const table of TABLES) {
      if (table.name === "quotas") {
        tables[table.name] = quotaTableDigest(quotaMonths)
      } else if (table.months !== undefined) {
        const kept = known.months?.[table.name]
        const from = kept?.from ?? 0
        const before = Object.entries(kept?.digests ?? {}).filter(([m]) => Number(m) < Math.floor(from / 100))
        tableMonths[table.name] = { ...Object.fromEntries(before), ...jsonMonthDigests(db, table, from) }
        tables[table.name] = quotaTableDigest(tableMonths[table.name]!)
      } else {
        tables[table.name] = known.tables?.[table.name] ?? jsonDigest(db, table)
      }
    }
    return { hash: hashOfDigests(tables), counts, tables, quotaMonths, tableMonths }
  } finally {
    db.close()
  }
}
