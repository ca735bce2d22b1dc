/**
 * Whether a series is active: the one definition the pipeline and every route use. A series ends
 * when the registry gives its fund an end date on or before the date asked about, or when it has
 * gone more than a grace period of weekdays without a value; until then it is active, late or not
 * (an administrator reporting a day late, a cartola that ends partway through a day), and its last
 * value is its price, dated. Weekdays are Monday to Friday: holidays are not known, so a holiday
 * counts as a weekday without a value. A fund is current while the registry has not ended it and
 * it has an active series, or none yet (registered, not yet reporting).
 */
import { dateToInt } from "../../schemas/Dates.ts"
import { addDays, dayNumber } from "./Calendar.ts"

/** Weekdays a series may go without a value and stay active (FDS_SERIES_GRACE_DAYS on the API). */
export const DEFAULT_SERIES_GRACE_WEEKDAYS = 10

/** Day numbers shifted so that 0 is a Monday (1970-01-05 is day 4) and every date in use is positive. */
const mondayBased = (date: number): number => dayNumber(date) - 4 + 7 * 100_000

/** Weekdays in [day 0, day k] of the Monday-based count. */
const weekdaysThrough = (k: number): number => 5 * Math.floor((k + 1) / 7) + Math.min((k + 1) % 7, 5)

/** Weekdays after `from` up to and including `to` (YYYYMMDD); 0 when `to` is not after `from`. */
export const weekdaysAfter = (from: number, to: number): number =>
  to <= from ? 0 : weekdaysThrough(mondayBased(to)) - weekdaysThrough(mondayBased(from))

/** The registry has ended the fund: an end date (YYYY-MM-DD) on or before `date` (YYYYMMDD). */
export const fundEnded = (fundEndDate: string | null, date: number): boolean =>
  fundEndDate !== null && dateToInt(fundEndDate) <= date

export interface SeriesFacts {
  /** The registry's end date of the series' fund, YYYY-MM-DD, or null. */
  readonly fundEndDate: string | null
  /** YYYYMMDD of the series' last value (on or before `batchDate`). */
  readonly lastDate: number
  /** YYYYMMDD: the batch date, or the date a historical view is at. */
  readonly batchDate: number
  readonly graceWeekdays: number
}

/** Active at `batchDate`: its fund not ended in the registry, and at most `graceWeekdays` weekdays without a value. */
export const seriesActive = (s: SeriesFacts): boolean =>
  !fundEnded(s.fundEndDate, s.batchDate) && weekdaysAfter(s.lastDate, s.batchDate) <= s.graceWeekdays

/** A fund is current: not ended in the registry, and with an active series or no series yet (`latestDate` null). */
export const fundCurrent = (f: {
  readonly fundEndDate: string | null
  /** YYYYMMDD of the latest value of any of its series; null when it has none. */
  readonly latestDate: number | null
  readonly batchDate: number
  readonly graceWeekdays: number
}): boolean =>
  f.latestDate === null
    ? !fundEnded(f.fundEndDate, f.batchDate)
    : seriesActive({ fundEndDate: f.fundEndDate, lastDate: f.latestDate, batchDate: f.batchDate, graceWeekdays: f.graceWeekdays })

/**
 * The earliest last-value date of a series active at `batchDate` (a bound for queries: every
 * active series' last value is on or after it; `seriesActive` still decides).
 */
export const earliestActiveDate = (batchDate: number, graceWeekdays: number): number => {
  let date = batchDate
  // each step back adds a weekday at least every third day, so this ends
  while (weekdaysAfter(addDays(date, -1), batchDate) <= graceWeekdays) date = addDays(date, -1)
  return date
}
