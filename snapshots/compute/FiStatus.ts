/**
 * How current an investment fund's (FI/ETF) data is at a cutoff: `price_status` of its last CMF
 * book value and `tac.status` of its CMF fact sheet. Pure functions over plain data; the cutoff is
 * the FI/ETF data's shared cutoff (the latest book-value date in the batch, see FiCatalog.fiCutoff).
 * Thresholds and precedence are documented in docs/fi.md; tests in test/fi/status.test.ts.
 */
import type { PriceStatus, TacStatus } from "../../schemas/FiStatus.ts"

export type { PriceStatus, TacStatus }

/**
 * A book value at most this many calendar days before the cutoff is `current` (the design's
 * staleness tolerance, `tolerance_days`: a week covers weekends, holidays and a fund that reports
 * a day or two late); older is `stale`.
 */
export const PRICE_CURRENT_MAX_AGE_DAYS = 7

/**
 * A reviewed fact sheet dated at most this many calendar days before the cutoff is current: a
 * sheet states one year's costs, so one older than a year no longer says what the fund costs now.
 */
export const TAC_SHEET_MAX_AGE_DAYS = 365

const DAY_MS = 86_400_000

const isoDay = (iso: string): number => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (m === null) throw new Error(`not a YYYY-MM-DD date: ${iso}`)
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY_MS
}

/** Whole calendar days from `date` to `cutoff` (negative when `date` is after the cutoff). */
export const daysBefore = (date: string, cutoff: string): number => isoDay(cutoff) - isoDay(date)

/**
 * `unavailable`: no book value at all (null). `current`: the last book value is at most
 * PRICE_CURRENT_MAX_AGE_DAYS calendar days before the cutoff (a date after the cutoff counts as
 * age 0: callers pass the last value on or before the cutoff, and the batch never holds later
 * ones). `stale`: older than that, however old.
 */
export const priceStatus = (lastPriceDate: string | null, cutoff: string): PriceStatus => {
  if (lastPriceDate === null) return "unavailable"
  return daysBefore(lastPriceDate, cutoff) <= PRICE_CURRENT_MAX_AGE_DAYS ? "current" : "stale"
}

/** The review states our fact-sheet file uses (pipeline/datasets/fi/FiFactSheets.ts). */
export type FactSheetReviewText = "REVISADA" | "PENDIENTE" | "NO_INFORMADA" | "CONFLICTO"

/** What tacStatus reads of a series' fact sheet line (a `fi_fact_sheets` row fits). */
export interface FactSheetFacts {
  /** TAC as a decimal fraction, or null when the sheet gives none. */
  readonly tac: number | null
  /** REVISADA, PENDIENTE, NO_INFORMADA or CONFLICTO (anything else counts as a conflict). */
  readonly review: string
  /** YYYY-MM-DD, or null when the line gives no date. */
  readonly sheet_date: string | null
}

/**
 * The series' `tac.status` at the cutoff, decided in this order:
 *   1. no fact-sheet line for the series (null/undefined)        → `not_checked`
 *   2. review CONFLICTO (sources disagree), or an unknown review  → `unavailable_or_conflict`
 *   3. review NO_INFORMADA (the sheet gives no TAC)               → `not_reported`
 *   4. review PENDIENTE (TAC read, not yet checked)               → `pending_review`
 *   5. review REVISADA without a TAC value (contradictory line)   → `unavailable_or_conflict`
 *   6. REVISADA without a sheet date, or dated more than TAC_SHEET_MAX_AGE_DAYS before the
 *      cutoff                                                     → `stale`
 *   7. REVISADA, with a TAC, dated within TAC_SHEET_MAX_AGE_DAYS (or after the cutoff) → `available`
 * Review states come first: a pending or conflicting sheet is never called merely stale.
 */
export const tacStatus = (factSheet: FactSheetFacts | null | undefined, cutoff: string): TacStatus => {
  if (factSheet === null || factSheet === undefined) return "not_checked"
  switch (factSheet.review) {
    case "NO_INFORMADA":
      return "not_reported"
    case "PENDIENTE":
      return "pending_review"
    case "REVISADA":
      if (factSheet.tac === null) return "unavailable_or_conflict"
      if (factSheet.sheet_date === null) return "stale"
      return daysBefore(factSheet.sheet_date, cutoff) > TAC_SHEET_MAX_AGE_DAYS ? "stale" : "available"
    default:
      return "unavailable_or_conflict"
  }
}

/** The TAC a client may use as the series' cost: the sheet's value only when `tacStatus` is `available`. */
export const usableTac = (factSheet: FactSheetFacts | null | undefined, cutoff: string): number | null =>
  tacStatus(factSheet, cutoff) === "available" ? (factSheet?.tac ?? null) : null
