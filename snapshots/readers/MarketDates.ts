/**
 * The dates a market view is computed at. The market date D is the last quote date on or before
 * the requested cutoff among the universe's series; the previous date is the last quote date
 * before D among them (the daily change's base); the monthly base target is D shifted back one
 * calendar month (clamped to the month's end when the day does not exist).
 */
import type Database from "better-sqlite3"
import { shiftMonths } from "../compute/Calendar.ts"
import { prepared } from "./MarketDb.ts"
import type { UniverseSeries } from "./MarketUniverse.ts"

export interface MarketDates {
  /** YYYYMMDD */
  readonly date: number
  readonly previousDate: number | null
  readonly monthlyBaseDate: number
}

const lastOnOrBefore = (db: Database.Database, assetId: number, cutoff: number): number | undefined =>
  prepared(db, "SELECT date FROM quotas WHERE asset_id = ? AND date <= ? ORDER BY date DESC LIMIT 1")
    .pluck()
    .get(assetId, cutoff) as number | undefined

const lastBefore = (db: Database.Database, assetId: number, date: number): number | undefined =>
  prepared(db, "SELECT date FROM quotas WHERE asset_id = ? AND date < ? ORDER BY date DESC LIMIT 1")
    .pluck()
    .get(assetId, date) as number | undefined

/** Null when no series of the universe has a quote on or before the cutoff. */
export const marketDates = (
  db: Database.Database,
  series: ReadonlyArray<UniverseSeries>,
  cutoff: number,
): MarketDates | null => {
  let date = 0
  for (const s of series) {
    const d = s.lastDate <= cutoff ? s.lastDate : lastOnOrBefore(db, s.assetId, cutoff)
    if (d !== undefined && d > date) date = d
  }
  if (date === 0) return null
  let previous = 0
  for (const s of series) {
    const d = lastBefore(db, s.assetId, date)
    if (d !== undefined && d > previous) previous = d
  }
  return { date, previousDate: previous === 0 ? null : previous, monthlyBaseDate: shiftMonths(date, -1) }
}
