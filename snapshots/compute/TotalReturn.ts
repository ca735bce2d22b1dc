/**
 * The total-return growth between two quota rows: one quota held with every distribution
 * reinvested on its date and every adjustment applied,
 *   TR_t = TR_{t−1} · P_t · FR_t · FA_t / P_{t−1},  growth = TR_end / TR_start = (P_end / P_start)·ΠFR·ΠFA,
 * so only the factors of rows strictly after the base row and up to the end row count (the base
 * row's own factor is already inside the base price).
 */
import { daysBetween, toIsoDate } from "./Calendar.ts"
import { factorAt, isPositive, type QuotaSeries } from "./Series.ts"

/** A factor applied inside a window (FACTOR DE REPARTO or FACTOR DE AJUSTE ≠ 1). */
export interface AppliedFactor {
  readonly date: string
  readonly factor: number
}

/** The growth with what was applied, or why the window cannot be computed. */
export type TotalGrowth =
  | {
      readonly ok: true
      readonly growth: number
      readonly distributions: AppliedFactor[]
      readonly exchanges: AppliedFactor[]
      /** Product of the applied FACTOR DE REPARTO (1 when none). */
      readonly distributionMultiplier: number
      /** Product of the applied FACTOR DE AJUSTE (1 when none). */
      readonly exchangeMultiplier: number
    }
  | {
      readonly ok: false
      readonly reason: "invalid_distribution_factor" | "missing_factor_coverage" | "non_finite_return"
    }

/**
 * Growth of the total-return index from row `iStart` to row `iEnd` (iStart ≤ iEnd). A window with
 * any event whose date `verified` rejects is refused as a whole (`missing_factor_coverage`):
 * a partly adjusted figure would look exact while it is not. So is a window whose quota record
 * has a hole longer than `maxGapDays` calendar days between two consecutive quotas: the factors
 * live on the quota rows, so a distribution paid inside the hole would go unseen (coverage).
 */
export const totalGrowth = (
  series: QuotaSeries,
  iStart: number,
  iEnd: number,
  verified: (date: number) => boolean,
  maxGapDays = Number.POSITIVE_INFINITY,
): TotalGrowth => {
  const distributions: AppliedFactor[] = []
  const exchanges: AppliedFactor[] = []
  let distributionMultiplier = 1
  let exchangeMultiplier = 1
  for (let i = iStart + 1; i <= iEnd; i++) {
    const date = series.dates[i] as number
    const previousDate = series.dates[i - 1] as number
    // YYYYMMDD differences are never below day differences: only a large one needs the calendar.
    if (date - previousDate > maxGapDays && daysBetween(previousDate, date) > maxGapDays) {
      return { ok: false, reason: "missing_factor_coverage" }
    }
    const fr = factorAt(series.factorReparto, i)
    const fa = factorAt(series.factorAjuste, i)
    if (!isPositive(fr) || !isPositive(fa)) return { ok: false, reason: "invalid_distribution_factor" }
    if ((fr !== 1 || fa !== 1) && !verified(date)) return { ok: false, reason: "missing_factor_coverage" }
    const price = series.prices[i]
    const previous = series.prices[i - 1]
    // A bad quota inside the window breaks the chain; the endpoints were checked by the caller.
    if (!isPositive(price) || !isPositive(previous)) return { ok: false, reason: "non_finite_return" }
    if (fr !== 1) {
      distributions.push({ date: toIsoDate(date), factor: fr })
      distributionMultiplier *= fr
    }
    if (fa !== 1) {
      exchanges.push({ date: toIsoDate(date), factor: fa })
      exchangeMultiplier *= fa
    }
  }
  // Π P_i·FR_i·FA_i / P_{i−1} telescopes to (P_end / P_start)·ΠFR·ΠFA: fewer roundings, and a
  // window without events equals its price return exactly.
  const growth = ((series.prices[iEnd] as number) / (series.prices[iStart] as number)) * distributionMultiplier * exchangeMultiplier
  return { ok: true, growth, distributions, exchanges, distributionMultiplier, exchangeMultiplier }
}
