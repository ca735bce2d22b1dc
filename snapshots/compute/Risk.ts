/**
 * Risk metrics of one series at one cutoff (the reference's risk_metrics fields): volatility of
 * daily simple quota returns over 12 and 36 months, max drawdown over 36 months, and a 1–7 score.
 */
import { currencyOf } from "../../schemas/FundClass.ts"
import { shiftMonths, toIsoDate } from "./Calendar.ts"
import { isPositive, lastIndexOnOrBefore, type QuotaSeries } from "./Series.ts"

/** Bump when a formula, threshold or band below changes. */
export const RISK_METHOD_VERSION = "risk_v1"

/**
 * Fewest daily returns for a 12m / 36m figure. A Chilean year has ~245–250 quota days, so 200
 * (≈ 80%) tolerates a fund that skipped some days but rejects one reporting only now and then;
 * 600 is the same ≈ 80% of ~745 days in 36 months.
 */
export const MIN_RETURNS_12M = 200
export const MIN_RETURNS_36M = 600

/** Trading days per month and per year used to scale the daily σ (σ·√21, σ·√252). */
const DAYS_PER_MONTH = 21
const DAYS_PER_YEAR = 252

/** The score's words, index = score − 1. */
export const RISK_LEVELS = ["very_low", "low", "medium_low", "medium", "medium_high", "high", "very_high"] as const

/** A risk word. */
export type RiskLevel = (typeof RISK_LEVELS)[number]

/**
 * Lower bounds (inclusive) of scores 2–7 on the annualized 12m volatility: the UCITS KIID SRRI
 * bands (CESR/10-673): <0.5%, 0.5–2%, 2–5%, 5–10%, 10–15%, 15–25%, ≥25%. Applied to our daily
 * 12m volatility, so it is an SRRI-like score, not the official SRRI (weekly returns over 5 years).
 */
export const RISK_BAND_LOWER_BOUNDS = [0.005, 0.02, 0.05, 0.1, 0.15, 0.25] as const

/** The 1–7 score and word for an annualized volatility (decimal fraction). */
export const riskBand = (annualizedVolatility: number): { score: number; level: RiskLevel } => {
  const score = 1 + RISK_BAND_LOWER_BOUNDS.filter((bound) => annualizedVolatility >= bound).length
  return { score, level: RISK_LEVELS[score - 1] as RiskLevel }
}

/** The risk answer; values are decimal fractions (0.0132 = 1.32%), drawdown ≤ 0. */
export interface RiskMetrics {
  as_of_date: string | null
  volatility_monthly_12m: number | null
  volatility_monthly_36m: number | null
  volatility_annualized_12m: number | null
  volatility_annualized_36m: number | null
  max_drawdown_36m: number | null
  risk_level: RiskLevel | null
  risk_score: number | null
  method_version: string
  unavailable_reason: "no_quota_at_cutoff" | "insufficient_history" | "unknown_currency" | null
}

/** Overrides of the history thresholds (tests use tiny series). */
export interface RiskOptions {
  readonly minReturns12m?: number
  readonly minReturns36m?: number
  /**
   * The series' currency (ISO or CMF code). When given and not a known currency (e.g. COP), no
   * figure is computed (`unknown_currency`): quotas in an unknown unit are not comparable.
   */
  readonly currency?: string | null
}

/** Sample standard deviation (ddof = 1); null under two values. */
export const sampleStdDev = (xs: ReadonlyArray<number>): number | null => {
  if (xs.length < 2) return null
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length
  const squares = xs.reduce((a, x) => a + (x - mean) ** 2, 0)
  return Math.sqrt(squares / (xs.length - 1))
}

/** Min over t of P_t / max_{s≤t} P_s − 1 on rows from..to (inclusive): 0 or negative. */
export const maxDrawdown = (prices: ArrayLike<number>, from: number, to: number): number => {
  let peak = -Infinity
  let worst = 0
  for (let i = from; i <= to; i++) {
    const p = prices[i] as number
    if (p > peak) peak = p
    worst = Math.min(worst, p / peak - 1)
  }
  return worst
}

/**
 * Rows of a trailing window of `months` ending at row `iEnd`: the base row is the last quota on
 * or before D − months, and the returns are those dated after it, each against the previous
 * quota date. Null when the series starts after D − months (no partial windows, as for
 * returns), has fewer than `minReturns` returns there, or holds a non-positive quota.
 */
const trailingRows = (series: QuotaSeries, iEnd: number, months: number, minReturns: number): number | null => {
  const iBase = lastIndexOnOrBefore(series.dates, shiftMonths(series.dates[iEnd] as number, -months))
  if (iBase < 0 || iEnd - iBase < minReturns) return null
  for (let i = iBase; i <= iEnd; i++) if (!isPositive(series.prices[i])) return null
  return iBase
}

const dailyReturns = (prices: ArrayLike<number>, iBase: number, iEnd: number): number[] => {
  const out: number[] = []
  for (let i = iBase + 1; i <= iEnd; i++) out.push((prices[i] as number) / (prices[i - 1] as number) - 1)
  return out
}

const volatility = (series: QuotaSeries, iEnd: number, months: number, minReturns: number): number | null => {
  const iBase = trailingRows(series, iEnd, months, minReturns)
  return iBase === null ? null : sampleStdDev(dailyReturns(series.prices, iBase, iEnd))
}

/**
 * Risk at `cutoff` (YYYYMMDD), as of D = the last quota on or before it. The score comes from the
 * 12m annualized volatility only (null when that is). Price (quota) path: distributions show as
 * drops, as in the reference's quota-based figures.
 */
export const computeRisk = (series: QuotaSeries, cutoff: number, options: RiskOptions = {}): RiskMetrics => {
  const iEnd = lastIndexOnOrBefore(series.dates, cutoff)
  const none: RiskMetrics = {
    as_of_date: iEnd < 0 ? null : toIsoDate(series.dates[iEnd] as number),
    volatility_monthly_12m: null,
    volatility_monthly_36m: null,
    volatility_annualized_12m: null,
    volatility_annualized_36m: null,
    max_drawdown_36m: null,
    risk_level: null,
    risk_score: null,
    method_version: RISK_METHOD_VERSION,
    unavailable_reason: iEnd < 0 ? "no_quota_at_cutoff" : "insufficient_history",
  }
  if (iEnd < 0) return none
  if (options.currency !== undefined && currencyOf(options.currency) === null) return { ...none, unavailable_reason: "unknown_currency" }
  const min12 = options.minReturns12m ?? MIN_RETURNS_12M
  const min36 = options.minReturns36m ?? MIN_RETURNS_36M
  const sigma12 = volatility(series, iEnd, 12, min12)
  const sigma36 = volatility(series, iEnd, 36, min36)
  const base36 = trailingRows(series, iEnd, 36, min36)
  const drawdown = base36 === null ? null : maxDrawdown(series.prices, base36, iEnd)
  if (sigma12 === null && sigma36 === null && drawdown === null) return none
  const annual12 = sigma12 === null ? null : sigma12 * Math.sqrt(DAYS_PER_YEAR)
  const band = annual12 === null ? null : riskBand(annual12)
  return {
    ...none,
    volatility_monthly_12m: sigma12 === null ? null : sigma12 * Math.sqrt(DAYS_PER_MONTH),
    volatility_monthly_36m: sigma36 === null ? null : sigma36 * Math.sqrt(DAYS_PER_MONTH),
    volatility_annualized_12m: annual12,
    volatility_annualized_36m: sigma36 === null ? null : sigma36 * Math.sqrt(DAYS_PER_YEAR),
    max_drawdown_36m: drawdown,
    risk_level: band?.level ?? null,
    risk_score: band?.score ?? null,
    unavailable_reason: null,
  }
}
