/**
 * The CMF book-value history (`fi_prices`) of FI/ETF series: one series for `/days`, returns and
 * all-funds; several series of one instrument, paged, for `/api/fi/instruments/{id}/prices`.
 * Dates are YYYYMMDD integers, as in the table. Statements are prepared once per snapshot, on its
 * memo (../SnapshotMemo.ts).
 */
import type Database from "better-sqlite3"
import type { SnapshotData } from "../Reader.ts"
import { memoOf } from "../SnapshotMemo.ts"
import type { FiPricesTable } from "../tables/Fi.ts"

/** Bounds for "no bound": every YYYYMMDD date lies between them. */
export const NO_FROM = 0
export const NO_TO = 99_999_999

interface Statements {
  readonly range: Database.Statement
  readonly onOrBefore: Database.Statement
  readonly after: Database.Statement
}

const stmts = ({ db }: SnapshotData): Statements =>
  memoOf(db).memo("fi-book-values:statements", () => ({
    range: db.prepare("SELECT * FROM fi_prices WHERE serie_id = ? AND date >= ? AND date <= ? ORDER BY date"),
    onOrBefore: db.prepare("SELECT * FROM fi_prices WHERE serie_id = ? AND date <= ? ORDER BY date DESC LIMIT 1"),
    after: db.prepare("SELECT * FROM fi_prices WHERE serie_id = ? AND date > ? ORDER BY date LIMIT 1"),
  }))

/** Book values of one series with `from <= date <= to` (YYYYMMDD, inclusive), ascending by date. */
export const bookValues = (reader: SnapshotData, serieId: string, from = NO_FROM, to = NO_TO): FiPricesTable[] =>
  stmts(reader).range.all(serieId, from, to) as FiPricesTable[]

/** The last book value on or before `date` (YYYYMMDD); the series' last one without `date`. */
export const bookValueOnOrBefore = (reader: SnapshotData, serieId: string, date = NO_TO): FiPricesTable | undefined =>
  stmts(reader).onOrBefore.get(serieId, date) as FiPricesTable | undefined

/** The first book value after `date` (YYYYMMDD), or undefined. */
export const bookValueAfter = (reader: SnapshotData, serieId: string, date: number): FiPricesTable | undefined =>
  stmts(reader).after.get(serieId, date) as FiPricesTable | undefined

export interface PricePage {
  /** Rows in the range, before paging. */
  readonly total: number
  /** Ascending by date, then by the order of `serieIds`. */
  readonly rows: ReadonlyArray<FiPricesTable>
}

/**
 * One page of the book values of several series (an instrument's) in `[from, to]`, ascending by
 * date; rows of one date follow the order of `serieIds`. The histories are a few thousand rows
 * per series, so they are merged in memory.
 */
export const pricePage = (
  reader: SnapshotData,
  serieIds: ReadonlyArray<string>,
  range: { readonly from: number; readonly to: number; readonly limit: number; readonly offset: number },
): PricePage => {
  const all = serieIds.flatMap((id, rank) => bookValues(reader, id, range.from, range.to).map((row) => ({ row, rank })))
  all.sort((a, b) => a.row.date - b.row.date || a.rank - b.rank)
  return { total: all.length, rows: all.slice(range.offset, range.offset + range.limit).map((x) => x.row) }
}
