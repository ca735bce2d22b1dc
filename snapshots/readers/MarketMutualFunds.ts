/**
 * The mutual-fund part of /api/all-funds: rendered live for any cutoff, or read from the rows the
 * pipeline stored for the batch's own date (market_all_funds_rows), kept in memory per snapshot.
 */
import type Database from "better-sqlite3"
import { toIsoDate } from "../compute/Calendar.ts"
import type { VehiclePart } from "./MarketAllFunds.ts"
import { memo, prepared } from "./MarketDb.ts"
import { READY_GRACE_WEEKDAYS } from "./MarketReady.ts"
import { type MarketDates, marketDates } from "./MarketDates.ts"
import { type RenderedRow, renderMutualFundRow } from "./MarketFundRow.ts"
import { rowRisk } from "./MarketRisk.ts"
import { marketRows } from "./MarketRows.ts"
import { type UniverseSeries, universe } from "./MarketUniverse.ts"

/** The market dates of the batch's own date over the universe of `graceWeekdays` (memoised per snapshot). */
export const latestDates = (db: Database.Database, batchDate: number, graceWeekdays: number): MarketDates | null =>
  memo(db, `latestDates:${batchDate}:${graceWeekdays}`, () => marketDates(db, universe(db, batchDate, graceWeekdays), batchDate))

const part = (dates: MarketDates, rows: ReadonlyArray<RenderedRow>): VehiclePart => ({
  vehicle: "mutual_fund",
  rows,
  date: toIsoDate(dates.date),
  previousDate: dates.previousDate === null ? null : toIsoDate(dates.previousDate),
})

/**
 * Rows computed now at `dates`, risk included: the published risk snapshot when `dates` are the
 * batch's own, else the risk at `dates.date` (MarketRisk.ts). The rows are those of `series`
 * (universe=as_of: MarketUniverse.ts `universeAsOf`), by default today's universe.
 */
export const liveMutualFundPart = (
  db: Database.Database,
  batchDate: number,
  graceWeekdays: number,
  dates: MarketDates,
  series: ReadonlyArray<UniverseSeries> = universe(db, batchDate, graceWeekdays),
): VehiclePart => {
  const latest = latestDates(db, batchDate, graceWeekdays)?.date === dates.date
  return part(
    dates,
    marketRows(db, series, dates).map((r) =>
      renderMutualFundRow(r, rowRisk(db, r.assetId, r.currencyCode, batchDate, dates.date, latest)),
    ),
  )
}

interface StoredRow {
  serie_id: string
  category: string | null
  family_slug: string | null
  article107_status: string | null
  provider_id: number
  row_json: string
}

/**
 * The stored rows of the batch date; null when this snapshot has none, or they were built with
 * another grace than `graceWeekdays` (then render live).
 */
export const readyMutualFundPart = (db: Database.Database, batchDate: number, graceWeekdays: number): VehiclePart | null =>
  graceWeekdays !== READY_GRACE_WEEKDAYS
    ? null
    : memo(db, "readyMutualFundPart", () => {
        const dates = latestDates(db, batchDate, graceWeekdays)
        const stored = prepared(db, "SELECT 1 FROM market_ready WHERE name = 'all-funds/mutual_fund'").get()
        if (dates === null || stored === undefined) return null
        const rows = (
          prepared(
            db,
            "SELECT serie_id, category, family_slug, article107_status, provider_id, row_json FROM market_all_funds_rows WHERE vehicle = 'mutual_fund' ORDER BY position",
          ).all() as StoredRow[]
        ).map(
          (r): RenderedRow => ({
            json: r.row_json,
            serieId: r.serie_id,
            category: r.category,
            familySlug: r.family_slug,
            article107Status: r.article107_status,
            providerId: r.provider_id,
          }),
        )
        return part(dates, rows)
      })
