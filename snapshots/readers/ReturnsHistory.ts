/**
 * Reads what the return and risk computations need from a snapshot: one series' quota history up
 * to a cutoff, and the UF and USD indicator series. Statements and the indicators are kept once
 * per snapshot on its memo (../SnapshotMemo.ts), so the pipeline's build and each API snapshot
 * share the code.
 */
import type Database from "better-sqlite3"
import { shiftMonths } from "../compute/Calendar.ts"
import type { Indicators } from "../compute/Policy.ts"
import type { ReturnBasis } from "../compute/Returns.ts"
import type { QuotaSeries, RateSeries } from "../compute/Series.ts"
import { WINDOWS, windowTargets } from "../compute/Windows.ts"
import { memoOf } from "../SnapshotMemo.ts"

/**
 * Months of history before the as-of date D that any window reads: the longest window is 5y
 * (60 months); ytd, last_closed_month and the 36m risk figures all start later. The row on or
 * before D − 60 months is included, so the trimmed history answers exactly as the whole one.
 */
export const HISTORY_MONTHS = 60

interface Statements {
  readonly lastDate: Database.Statement
  readonly rows: Database.Statement
  readonly point: Database.Statement
  readonly indicator: Database.Statement
}

const statements = (db: Database.Database): Statements =>
  memoOf(db).memo("returns-history:statements", () => ({
    lastDate: db.prepare("SELECT max(date) FROM quotas WHERE asset_id = ? AND date <= ?").pluck(),
    rows: db
      .prepare("SELECT date, price, factor_reparto, factor_ajuste FROM quotas WHERE asset_id = ? AND date >= ? AND date <= ? ORDER BY date")
      .raw(true),
    point: db
      .prepare("SELECT date, price, factor_reparto, factor_ajuste FROM quotas WHERE asset_id = ? AND date <= ? ORDER BY date DESC LIMIT 1")
      .raw(true),
    indicator: db.prepare("SELECT date, value FROM indicators WHERE indicator = ? ORDER BY date").raw(true),
  }))

const EMPTY: QuotaSeries = { dates: [], prices: [], factorReparto: [], factorAjuste: [] }

/**
 * The quota history of `assetId` that the windows at `cutoff` (YYYYMMDD) can reach: from the last
 * quota on or before D − 60 months (or the first quota) up to D, the last quota on or before the
 * cutoff. Empty when the series has no quota by then.
 */
export const loadHistory = (db: Database.Database, assetId: number, cutoff: number): QuotaSeries => {
  const s = statements(db)
  const asOf = s.lastDate.get(assetId, cutoff) as number | null
  if (asOf === null) return EMPTY
  const floor = (s.lastDate.get(assetId, shiftMonths(asOf, -HISTORY_MONTHS)) as number | null) ?? 0
  return toSeries(s.rows.all(assetId, floor, asOf) as Row[])
}

type Row = [number, number, number | null, number | null]

/**
 * Only the quotes the price windows at `cutoff` read: D and, for every window, the last quote on
 * or before its target start and end. Every "last quote on or before a target" is then the same
 * row as in the whole history, so computeReturns gives the very same price answer from ~17 point
 * reads instead of years of rows. Not for `total`, which walks every row of a window.
 */
export const loadWindowQuotes = (db: Database.Database, assetId: number, cutoff: number): QuotaSeries => {
  const s = statements(db)
  const d = s.point.get(assetId, cutoff) as Row | undefined
  if (d === undefined) return EMPTY
  const byDate = new Map<number, Row>([[d[0], d]])
  for (const key of WINDOWS) {
    const t = windowTargets(key, d[0], cutoff)
    for (const target of [t.start, t.end]) {
      const row = s.point.get(assetId, target) as Row | undefined
      if (row !== undefined) byDate.set(row[0], row)
    }
  }
  return toSeries([...byDate.values()].sort((a, b) => a[0] - b[0]))
}

/** The history a request needs: the window quotes for `price`, the trimmed history for `total`. */
export const historyFor = (db: Database.Database, assetId: number, cutoff: number, basis: ReturnBasis): QuotaSeries =>
  basis === "price" ? loadWindowQuotes(db, assetId, cutoff) : loadHistory(db, assetId, cutoff)

const toSeries = (rows: ReadonlyArray<Row>): QuotaSeries => {
  const dates = new Int32Array(rows.length)
  const prices = new Float64Array(rows.length)
  const factorReparto = new Float64Array(rows.length)
  const factorAjuste = new Float64Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as Row
    dates[i] = r[0]
    prices[i] = r[1]
    // NaN = no event (see factorAt); a typed array cannot hold null.
    factorReparto[i] = r[2] ?? Number.NaN
    factorAjuste[i] = r[3] ?? Number.NaN
  }
  return { dates, prices, factorReparto, factorAjuste }
}

const rateSeries = (s: Statements, indicator: string): RateSeries => {
  const rows = s.indicator.all(indicator) as Array<[number, number]>
  return { dates: Int32Array.from(rows, (r) => r[0]), values: Float64Array.from(rows, (r) => r[1]) }
}

/** The USD observed rate and the UF of the snapshot, read once per snapshot. */
export const loadIndicators = (db: Database.Database): Indicators =>
  memoOf(db).memo("returns-history:indicators", () => {
    const s = statements(db)
    return { usdClp: rateSeries(s, "USD"), uf: rateSeries(s, "UF") }
  })
