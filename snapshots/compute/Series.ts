/**
 * The plain data the computations read: a series' quota history as parallel ascending arrays
 * (typed arrays straight from the snapshot, or plain arrays in tests), and indicator series.
 */

/** One series' history; `dates` are ascending YYYYMMDD integers, `prices` the quota values. */
export interface QuotaSeries {
  readonly dates: ArrayLike<number>
  readonly prices: ArrayLike<number>
  /** FACTOR DE REPARTO per date (dividend/price + 1); null, NaN or 0 mean "no event" (= 1). */
  readonly factorReparto?: ArrayLike<number | null> | undefined
  /** FACTOR DE AJUSTE per date; null, NaN or 0 mean "no event" (= 1). */
  readonly factorAjuste?: ArrayLike<number | null> | undefined
}

/** An indicator (USD→CLP observed rate, UF) as ascending dates with one value each. */
export interface RateSeries {
  readonly dates: ArrayLike<number>
  readonly values: ArrayLike<number>
}

/** Index of the last date ≤ target, or −1 when every date is later (binary search). */
export const lastIndexOnOrBefore = (dates: ArrayLike<number>, target: number): number => {
  let lo = 0
  let hi = dates.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    if ((dates[mid] as number) <= target) {
      found = mid
      lo = mid + 1
    } else {
      hi = mid - 1
    }
  }
  return found
}

/**
 * The factor on row i: 1 when absent. The CMF leaves the columns blank (or 0) on ordinary days,
 * and a Float64Array cannot hold null, so NaN also means "absent". Negative or infinite values
 * are returned as they are, for the caller to reject.
 */
export const factorAt = (factors: ArrayLike<number | null> | undefined, i: number): number => {
  const f = factors?.[i]
  return f === undefined || f === null || Number.isNaN(f) || f === 0 ? 1 : f
}

/** A positive, finite number (a usable quota, rate or factor). */
export const isPositive = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x) && x > 0
