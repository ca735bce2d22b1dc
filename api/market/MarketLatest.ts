/**
 * The mutual-fund part of all-funds at any cutoff: the stored rows when the cutoff reaches the
 * batch's latest market date, else rendered live (a bounded cache per snapshot); filters apply
 * to the rows either way. With universe=as_of the rows are those of the series alive at the
 * cutoff (MarketUniverse.ts `universeAsOf`), always rendered live.
 */
import type Database from "better-sqlite3"
import { type AllFundsFilters, filterRows, type VehiclePart } from "../../snapshots/readers/MarketAllFunds.ts"
import { marketDates } from "../../snapshots/readers/MarketDates.ts"
import { memoLru } from "../../snapshots/readers/MarketDb.ts"
import { latestDates, liveMutualFundPart, readyMutualFundPart } from "../../snapshots/readers/MarketMutualFunds.ts"
import { universe, universeAsOf } from "../../snapshots/readers/MarketUniverse.ts"
import type { Universe } from "../../schemas/MarketUniverse.ts"

const NO_ROWS: VehiclePart = { vehicle: "mutual_fund", rows: [], date: null, previousDate: null }

/**
 * Null cutoff = the batch's own date; `graceWeekdays` decides the universe (compute/SeriesActivity.ts),
 * `which` whether it is today's or the one alive at the cutoff (as_of: the handler requires a cutoff).
 */
export const mutualFundPart = (
  db: Database.Database,
  batchDate: number,
  graceWeekdays: number,
  cutoff: number | null,
  filters: AllFundsFilters,
  which: Universe = "current",
): VehiclePart => {
  const latest = latestDates(db, batchDate, graceWeekdays)
  let whole: VehiclePart
  if (which === "as_of") {
    const at = cutoff ?? batchDate
    whole = memoLru(db, "mfPart", `asOf:${at}:${graceWeekdays}`, 32, () => {
      const series = universeAsOf(db, at, graceWeekdays)
      const dates = marketDates(db, series, at)
      return dates === null ? NO_ROWS : liveMutualFundPart(db, batchDate, graceWeekdays, dates, series)
    })
  } else if (latest === null) {
    whole = NO_ROWS
  } else if (cutoff === null || cutoff >= latest.date) {
    whole =
      readyMutualFundPart(db, batchDate, graceWeekdays) ??
      memoLru(db, "mfPart", `latest:${graceWeekdays}`, 32, () => liveMutualFundPart(db, batchDate, graceWeekdays, latest))
  } else {
    whole = memoLru(db, "mfPart", `${cutoff}:${graceWeekdays}`, 32, () => {
      const dates = marketDates(db, universe(db, batchDate, graceWeekdays), cutoff)
      return dates === null ? NO_ROWS : liveMutualFundPart(db, batchDate, graceWeekdays, dates)
    })
  }
  return { ...whole, rows: filterRows(whole.rows, filters) }
}
