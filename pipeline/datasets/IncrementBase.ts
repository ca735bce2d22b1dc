/**
 * What a daily increment's staging takes from the previous snapshot (Increment.ts decides it,
 * datasets/fm/Core.ts merges the quotas from `from` on with it).
 */

/** A series of the previous snapshot, as the increment's staging needs it. */
export interface BaseSeries {
  readonly asset_id: number
  readonly first_date: number
  readonly last_date: number
  /** Its last quota date before `from` (null: none). */
  readonly lastBefore: number | null
}

/** What staging takes from the previous snapshot (see datasets/fm/Core.ts). */
export interface IncrementBase {
  /** YYYYMMDD: quota rows from this date on are merged again. */
  readonly from: number
  /** Each series' last price before `from`, by asset id. */
  readonly seed: ReadonlyMap<number, number>
  readonly series: ReadonlyArray<BaseSeries>
}
