/**
 * How a page of changes is cut (Changes.ts): its size, the rows its per-series sections may
 * compare, when a series counts as ended, and what need not be compared at all.
 */
import type { Identical } from "./Identical.ts"

/** The options of one page of the changes feed. */
export interface ChangesOptions {
  /** Items per page at most. */
  readonly limit: number
  /** Rows (estimated: weekdays or months of each series' overlap) a page's per-series sections compare before it ends. */
  readonly scanBudget: number
  /** FDS_SERIES_GRACE_DAYS: when a series counts as ended. */
  readonly graceWeekdays: number
  /** What the two batches hold identically (their manifests' digests: Identical.ts): not compared. */
  readonly identical?: Identical
}
