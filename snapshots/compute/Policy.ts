/**
 * The service's fixed parameters for returns and risk, applied in one place so that the pipeline's
 * precomputed answers and the API's on-request answers come from the very same call.
 */
import { computeReturns, type ReturnBasis, type ReturnsResult } from "./Returns.ts"
import { computeRisk, type RiskMetrics } from "./Risk.ts"
import type { QuotaSeries, RateSeries } from "./Series.ts"
import type { Valuation } from "./Valuation.ts"

/** Max calendar days a base or end quote may lie before its target date. */
export const TOLERANCE_DAYS = 7
/** Max calendar days the USD observed rate may lie before its quota date. */
export const FX_TOLERANCE_DAYS = 7
/** `total`: the longest calendar gap between consecutive quotas a covered window may hold. */
export const COVERAGE_GAP_DAYS = 7

/** Every valuation and basis, in the order the precomputed rows are keyed. */
export const VALUATIONS: ReadonlyArray<Valuation> = ["accounting", "clp", "real_uf"]
export const BASES: ReadonlyArray<ReturnBasis> = ["price", "total"]

/** The indicator series a snapshot holds (CLP per USD observed, CLP per UF). */
export interface Indicators {
  readonly usdClp: RateSeries
  readonly uf: RateSeries
}

/** Returns of one series at one cutoff under the service's rules. */
export const seriesReturns = (
  history: QuotaSeries,
  cutoff: number,
  currency: string | null,
  valuation: Valuation,
  basis: ReturnBasis,
  indicators: Indicators,
): ReturnsResult =>
  computeReturns(history, cutoff, {
    currency,
    valuation,
    basis,
    toleranceDays: TOLERANCE_DAYS,
    fxToleranceDays: FX_TOLERANCE_DAYS,
    coverageGapDays: COVERAGE_GAP_DAYS,
    usdClp: indicators.usdClp,
    uf: indicators.uf,
  })

/** The risk snapshot of one series at one cutoff. */
export const seriesRisk = (history: QuotaSeries, cutoff: number, currency: string | null): RiskMetrics =>
  computeRisk(history, cutoff, { currency })
