/** The eight return windows of `/returns` and the target dates each one asks for. */
import { lastClosedMonthEnd, previousMonthEnd, previousYearEnd, shiftMonths } from "./Calendar.ts"

/** The windows, in the contract's order. */
export const WINDOWS = ["1m", "3m", "6m", "1y", "ytd", "3y_ann", "5y_ann", "last_closed_month"] as const

/** One window's key. */
export type WindowKey = (typeof WINDOWS)[number]

/** Whole months each trailing window spans (3y = 36, 5y = 60, so the clamp rule is the months'). */
const MONTHS: Partial<Record<WindowKey, number>> = { "1m": 1, "3m": 3, "6m": 6, "1y": 12, "3y_ann": 36, "5y_ann": 60 }

/** Years to annualize over; only windows of a year or more (GIPS: never annualize under a year). */
const ANNUALIZE_YEARS: Partial<Record<WindowKey, number>> = { "3y_ann": 3, "5y_ann": 5 }

/** The years a window's cumulative return is annualized over, or null when it is not. */
export const annualizationYears = (key: WindowKey): number | null => ANNUALIZE_YEARS[key] ?? null

/** The dates a window wants its base and end quotes on or before (YYYYMMDD). */
export interface WindowTargets {
  readonly start: number
  readonly end: number
}

/**
 * Targets for a window given the as-of date D (last quota ≤ cutoff) and the cutoff.
 * - trailing windows: start = D shifted back by whole months; end = the cutoff (the end quote is D).
 * - `ytd`: start = 31 Dec of the year before D's year; end = the cutoff.
 * - `last_closed_month`: M is the last month complete on the CUTOFF (a month is complete once its
 *   last calendar day is reached, so a cutoff of 30 Nov closes November, 29 Nov closes October).
 *   It uses the cutoff, not D, so a weekend cutoff of Sun 1 Nov still closes October even though
 *   D is Fri 30 Oct. start = end of M−1, end = end of M.
 */
export const windowTargets = (key: WindowKey, asOf: number, cutoff: number): WindowTargets => {
  if (key === "ytd") return { start: previousYearEnd(asOf), end: cutoff }
  if (key === "last_closed_month") {
    const end = lastClosedMonthEnd(cutoff)
    return { start: previousMonthEnd(end), end }
  }
  return { start: shiftMonths(asOf, -(MONTHS[key] as number)), end: cutoff }
}
