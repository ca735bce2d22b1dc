/**
 * Each universe series' values at a market date: the price (last quote on or before D), the
 * daily change (vs the last quote on or before the previous market date) and the monthly change
 * (vs the last quote on or before D − 1 month), with the patrimony they open with. A change is
 * null when a quote it needs is missing or stale (more than TOLERANCE_DAYS before its target),
 * and the daily change also when the series has no quote after the previous market date. History
 * is stored under the current id of a renamed series, so changes run across the rename.
 */
import type Database from "better-sqlite3"
import { addDays, monthOf, yearOf } from "../compute/Calendar.ts"
import { prepared } from "./MarketDb.ts"
import type { MarketDates } from "./MarketDates.ts"
import { TOLERANCE_DAYS, type UniverseSeries } from "./MarketUniverse.ts"

export interface SeriesValues {
  readonly price: number
  /** YYYYMMDD of the price's quote. */
  readonly priceDate: number
  readonly patrimony: number | null
  readonly holders: number | null
  readonly dailyChange: number | null
  /** Patrimony at the daily change's base quote (its opening patrimony). */
  readonly previousPatrimony: number | null
  readonly monthlyChange: number | null
  /** Patrimony at the monthly change's base quote. */
  readonly monthlyPatrimony: number | null
  /** A distribution or adjustment factor inside the daily / monthly window: the move is not a return. */
  readonly dailyEvent: boolean
  readonly monthlyEvent: boolean
  /** The largest absolute day-to-day move inside the monthly window (0 without one). */
  readonly monthlyMaxStep: number
  /** TAC of the latest month on or before D's month, decimal fraction. */
  readonly tac: number | null
}

export type MarketRow = UniverseSeries & SeriesValues

type Quote = [date: number, price: number, patrimony: number | null, holders: number | null, ajuste: number | null, reparto: number | null]

const isEvent = (q: Quote): boolean => (q[4] !== null && q[4] !== 1) || (q[5] !== null && q[5] !== 1)

/** Rounds away binary noise (0.020000000000000018 → 0.02); ten decimals keep far more than the data's precision. */
export const round10 = (x: number): number => Math.round(x * 1e10) / 1e10

const lastIndexOnOrBefore = (quotes: ReadonlyArray<Quote>, date: number): number => {
  let i = quotes.length - 1
  while (i >= 0 && quotes[i]![0] > date) i--
  return i
}

const tacAt = (db: Database.Database, assetId: number, month: string): number | null =>
  (prepared(db, "SELECT tac FROM tac WHERE asset_id = ? AND month <= ? ORDER BY month DESC LIMIT 1").pluck().get(assetId, month) as
    | number
    | undefined) ?? null

/** The values of one series at `dates`; undefined when it has no quote on or before D. */
export const seriesValues = (db: Database.Database, assetId: number, dates: MarketDates): SeriesValues | undefined => {
  const d = dates.date
  const from = addDays(Math.min(dates.previousDate ?? d, dates.monthlyBaseDate), -TOLERANCE_DAYS)
  const quotes = prepared(
    db,
    "SELECT date, price, patrimony, holders, factor_ajuste, factor_reparto FROM quotas WHERE asset_id = ? AND date >= ? AND date <= ? ORDER BY date",
  )
    .raw(true)
    .all(assetId, from, d) as Quote[]
  const tac = tacAt(db, assetId, `${yearOf(d)}-${String(monthOf(d)).padStart(2, "0")}`)
  const end = quotes.at(-1) ?? (prepared(
    db,
    "SELECT date, price, patrimony, holders, factor_ajuste, factor_reparto FROM quotas WHERE asset_id = ? AND date <= ? ORDER BY date DESC LIMIT 1",
  )
    .raw(true)
    .get(assetId, d) as Quote | undefined)
  if (end === undefined) return undefined
  const endIndex = quotes.length - 1
  let dailyChange: number | null = null
  let previousPatrimony: number | null = null
  let dailyEvent = false
  const prev = dates.previousDate
  if (prev !== null && endIndex >= 0 && end[0] > prev) {
    const b = lastIndexOnOrBefore(quotes, prev)
    if (b >= 0 && quotes[b]![0] >= addDays(prev, -TOLERANCE_DAYS)) {
      dailyChange = round10(end[1] / quotes[b]![1] - 1)
      previousPatrimony = quotes[b]![2]
      for (let i = b + 1; i <= endIndex; i++) dailyEvent ||= isEvent(quotes[i]!)
    }
  }
  let monthlyChange: number | null = null
  let monthlyPatrimony: number | null = null
  let monthlyEvent = false
  let monthlyMaxStep = 0
  if (endIndex >= 0 && end[0] >= addDays(d, -TOLERANCE_DAYS)) {
    const b = lastIndexOnOrBefore(quotes, dates.monthlyBaseDate)
    if (b >= 0 && quotes[b]![0] >= addDays(dates.monthlyBaseDate, -TOLERANCE_DAYS)) {
      monthlyChange = round10(end[1] / quotes[b]![1] - 1)
      monthlyPatrimony = quotes[b]![2]
      for (let i = b + 1; i <= endIndex; i++) {
        monthlyEvent ||= isEvent(quotes[i]!)
        monthlyMaxStep = Math.max(monthlyMaxStep, Math.abs(quotes[i]![1] / quotes[i - 1]![1] - 1))
      }
    }
  }
  return {
    price: end[1],
    priceDate: end[0],
    patrimony: end[2],
    holders: end[3],
    dailyChange,
    previousPatrimony,
    monthlyChange,
    monthlyPatrimony,
    dailyEvent,
    monthlyEvent,
    monthlyMaxStep,
    tac,
  }
}

/** Every universe series that has a quote on or before D, in universe order. */
export const marketRows = (
  db: Database.Database,
  series: ReadonlyArray<UniverseSeries>,
  dates: MarketDates,
): ReadonlyArray<MarketRow> => {
  const out: MarketRow[] = []
  for (const s of series) {
    const values = seriesValues(db, s.assetId, dates)
    if (values !== undefined) out.push({ ...s, ...values })
  }
  return out
}
