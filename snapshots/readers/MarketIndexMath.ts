/**
 * A family's base-100 index, chained day by day. The family's market dates are every date one of
 * its series is quoted on. On each market date t after the first, with t₀ the previous market
 * date, the day's change is Σ pᵢ(t₀)·rᵢ / Σ pᵢ(t₀), rᵢ = Pᵢ(t)/Pᵢ(t₀) − 1, over the series quoted
 * on both t₀ and t with an opening patrimony pᵢ(t₀) > 0; then I(t) = I(t₀)·(1 + change). The first
 * market date is the base, 100. A date with no such series keeps the value and has a null change.
 * Pure arithmetic: series are fed one at a time (the pipeline streams them), order irrelevant.
 */

export interface IndexPoint {
  /** YYYYMMDD */
  readonly date: number
  readonly value: number
  readonly change: number | null
  readonly seriesCount: number
}

interface Bucket {
  weight: number
  weighted: number
  count: number
}

export const BASE_VALUE = 100

export class IndexAccumulator {
  private readonly dates = new Set<number>()
  /** For each date t: sums keyed by the pair's opening date t₀ (only t₀ = previous market date is used). */
  private readonly pairs = new Map<number, Map<number, Bucket>>()

  /** One series' quotes, dates ascending. Patrimony null or ≤ 0 makes a pair weightless (skipped). */
  add(dates: ArrayLike<number>, prices: ArrayLike<number>, patrimonies: ArrayLike<number | null>): void {
    for (let i = 0; i < dates.length; i++) {
      this.dates.add(dates[i]!)
      if (i === 0) continue
      const p0 = patrimonies[i - 1]
      if (p0 === null || p0 === undefined || !(p0 > 0)) continue
      const t = dates[i]!
      const t0 = dates[i - 1]!
      let byOpening = this.pairs.get(t)
      if (byOpening === undefined) {
        byOpening = new Map()
        this.pairs.set(t, byOpening)
      }
      let bucket = byOpening.get(t0)
      if (bucket === undefined) {
        bucket = { weight: 0, weighted: 0, count: 0 }
        byOpening.set(t0, bucket)
      }
      bucket.weight += p0
      bucket.weighted += p0 * (prices[i]! / prices[i - 1]! - 1)
      bucket.count++
    }
  }

  points(): IndexPoint[] {
    const dates = [...this.dates].sort((a, b) => a - b)
    const out: IndexPoint[] = []
    let value = BASE_VALUE
    for (let k = 0; k < dates.length; k++) {
      const t = dates[k]!
      if (k === 0) {
        out.push({ date: t, value, change: null, seriesCount: 0 })
        continue
      }
      const bucket = this.pairs.get(t)?.get(dates[k - 1]!)
      if (bucket === undefined || bucket.weight <= 0) {
        out.push({ date: t, value, change: null, seriesCount: 0 })
        continue
      }
      const change = bucket.weighted / bucket.weight
      value *= 1 + change
      out.push({ date: t, value, change, seriesCount: bucket.count })
    }
    return out
  }
}
