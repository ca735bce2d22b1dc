/**
 * Returns over the eight `/returns` windows for one series at one cutoff (DESIGN.md "Conventions
 * for numbers"). Pure: the pipeline precomputes the latest cutoff with it and the API any other.
 * Status and reason values are the reference contract's enums (ReturnPeriod, AdjustedReturnPeriod,
 * TotalReturnPeriod), so a period can be served as it is.
 */
import { daysBetween, toIsoDate } from "./Calendar.ts"
import { isPositive, lastIndexOnOrBefore, type QuotaSeries, type RateSeries } from "./Series.ts"
import { type AppliedFactor, totalGrowth } from "./TotalReturn.ts"
import { type Conversion, conversionFor, fxOnOrBefore, type IndicatorValue, ufOn, type Valuation, type ValueCurrency } from "./Valuation.ts"
import { annualizationYears, WINDOWS, type WindowKey, windowTargets } from "./Windows.ts"

/** `price`: quota to quota; `total`: distributions reinvested and adjustments applied. */
export type ReturnBasis = "price" | "total"

/** Why a window has no value (the contract's reason enums). */
export type ReturnReason =
  | "no_closed_month" | "missing_start_quote" | "missing_end_quote" | "invalid_start_quote" | "invalid_end_quote"
  | "stale_start_quote" | "stale_end_quote" | "unknown_currency" | "non_finite_return"
  | `${"missing" | "stale" | "invalid"}_${"start" | "end"}_fx` | `${"missing" | "invalid"}_${"start" | "end"}_uf`
  | "invalid_distribution_factor" | "missing_factor_coverage"

/** One window's answer: the value and every input it used, so the response can show its dates. */
export interface ReturnPeriod {
  value: number | null
  currency: ValueCurrency | null
  status: "available" | "unavailable"
  reason: ReturnReason | null
  annualized: boolean
  target_start_date: string | null
  target_end_date: string | null
  effective_start_date: string | null
  effective_end_date: string | null
  /** Quota values at the effective dates, in the accounting currency. */
  start_price: number | null
  end_price: number | null
  start_fx: IndicatorValue | null
  end_fx: IndicatorValue | null
  start_uf: IndicatorValue | null
  end_uf: IndicatorValue | null
  /** `total` basis only (empty and null under `price`). */
  applied_distributions: AppliedFactor[]
  applied_exchanges: AppliedFactor[]
  distribution_multiplier: number | null
  exchange_multiplier: number | null
}

/** How to compute: basis, valuation, the series' currency and the indicator series. */
export interface ReturnOptions {
  /** The series' currency, ISO or CMF code ("CLP", "$$", "USD", "PROM", "EUR", …). */
  readonly currency: string | null
  readonly basis?: ReturnBasis
  readonly valuation?: Valuation
  /** Max calendar days a base or end quote may lie before its target (default 7). */
  readonly toleranceDays?: number
  /** Max calendar days the USD rate may lie before its quota date (default 7). */
  readonly fxToleranceDays?: number
  /** USD→CLP observed rate, for USD series under `clp` / `real_uf`. */
  readonly usdClp?: RateSeries
  /** UF per calendar day, for `real_uf`. */
  readonly uf?: RateSeries
  /** Whether a distribution/adjustment dated YYYYMMDD is verified (default: all are). */
  readonly verified?: (date: number) => boolean
  /**
   * `total` only: the longest calendar gap between two consecutive quotas a window may contain
   * and still count as covered (default: unchecked). See totalGrowth.
   */
  readonly coverageGapDays?: number
}

/** The whole answer for one cutoff. */
export interface ReturnsResult {
  requested_as_of_date: string
  as_of_date: string | null
  currency: ValueCurrency | null
  return_basis: ReturnBasis
  valuation: Valuation
  method_version: string
  tolerance_days: number
  periods: Record<WindowKey, ReturnPeriod>
}

/** The contract's method_version for a basis and valuation. */
export const methodVersion = (basis: ReturnBasis, valuation: Valuation): string =>
  `${basis === "price" ? "price_return" : "total_return"}${valuation === "accounting" ? "" : `_${valuation}`}_v1`

const emptyPeriod = (key: WindowKey, currency: ValueCurrency | null): ReturnPeriod => ({
  value: null, currency, status: "unavailable", reason: null, annualized: annualizationYears(key) !== null,
  target_start_date: null, target_end_date: null, effective_start_date: null, effective_end_date: null,
  start_price: null, end_price: null, start_fx: null, end_fx: null, start_uf: null, end_uf: null,
  applied_distributions: [], applied_exchanges: [], distribution_multiplier: null, exchange_multiplier: null,
})

interface Context {
  readonly series: QuotaSeries
  readonly cutoff: number
  readonly asOfIndex: number
  readonly conversion: Conversion | null
  readonly basis: ReturnBasis
  readonly tolerance: number
  readonly fxTolerance: number
  readonly options: ReturnOptions
}

const fail = (p: ReturnPeriod, reason: ReturnReason): ReturnPeriod => ({ ...p, reason })

const computeWindow = (ctx: Context, key: WindowKey): ReturnPeriod => {
  const { series, conversion } = ctx
  const p = emptyPeriod(key, conversion?.currency ?? null)
  if (ctx.asOfIndex < 0) return fail(p, "missing_end_quote")
  const target = windowTargets(key, series.dates[ctx.asOfIndex] as number, ctx.cutoff)
  p.target_start_date = toIsoDate(target.start)
  p.target_end_date = toIsoDate(target.end)
  if (conversion === null) return fail(p, "unknown_currency")

  const iEnd = key === "last_closed_month" ? lastIndexOnOrBefore(series.dates, target.end) : ctx.asOfIndex
  if (iEnd < 0) return fail(p, "no_closed_month")
  const endDate = series.dates[iEnd] as number
  const endPrice = series.prices[iEnd] as number
  p.effective_end_date = toIsoDate(endDate)
  p.end_price = endPrice
  // No partial windows: a series whose first quota is after the target start has no base.
  const iStart = lastIndexOnOrBefore(series.dates, target.start)
  if (iStart < 0) return fail(p, "missing_start_quote")
  const startDate = series.dates[iStart] as number
  const startPrice = series.prices[iStart] as number
  p.effective_start_date = toIsoDate(startDate)
  p.start_price = startPrice
  if (!isPositive(endPrice)) return fail(p, "invalid_end_quote")
  if (!isPositive(startPrice)) return fail(p, "invalid_start_quote")
  if (daysBetween(endDate, target.end) > ctx.tolerance) return fail(p, "stale_end_quote")
  if (daysBetween(startDate, target.start) > ctx.tolerance) return fail(p, "stale_start_quote")

  let growth = endPrice / startPrice
  if (ctx.basis === "total") {
    const total = totalGrowth(series, iStart, iEnd, ctx.options.verified ?? (() => true), ctx.options.coverageGapDays)
    if (!total.ok) return fail(p, total.reason)
    growth = total.growth
    p.applied_distributions = total.distributions
    p.applied_exchanges = total.exchanges
    p.distribution_multiplier = total.distributionMultiplier
    p.exchange_multiplier = total.exchangeMultiplier
  }
  if (conversion.fx) {
    // Each end's quota times that date's rate; the rates between cancel out of the index.
    const start = fxOnOrBefore(ctx.options.usdClp, startDate, ctx.fxTolerance)
    if (!start.ok) return fail(p, `${start.problem}_start_fx`)
    const end = fxOnOrBefore(ctx.options.usdClp, endDate, ctx.fxTolerance)
    if (!end.ok) return fail(p, `${end.problem}_end_fx`)
    p.start_fx = start.input
    p.end_fx = end.input
    growth *= end.input.value / start.input.value
  }
  if (conversion.uf) {
    // The CMF's real return: (1 + nominal in CLP) / (1 + ΔUF) − 1, UF on the quota dates.
    const start = ufOn(ctx.options.uf, startDate)
    if (!start.ok) return fail(p, start.problem === "invalid" ? "invalid_start_uf" : "missing_start_uf")
    const end = ufOn(ctx.options.uf, endDate)
    if (!end.ok) return fail(p, end.problem === "invalid" ? "invalid_end_uf" : "missing_end_uf")
    p.start_uf = start.input
    p.end_uf = end.input
    growth /= end.input.value / start.input.value
  }
  const years = annualizationYears(key)
  const value = years === null ? growth - 1 : growth ** (1 / years) - 1
  if (!Number.isFinite(value)) return fail(p, "non_finite_return")
  return { ...p, value, status: "available" }
}

/**
 * Every window at `cutoff` (YYYYMMDD). The as-of date D is the last quota on or before the
 * cutoff; with none, every window is `missing_end_quote`.
 */
export const computeReturns = (series: QuotaSeries, cutoff: number, options: ReturnOptions): ReturnsResult => {
  const basis = options.basis ?? "price"
  const valuation = options.valuation ?? "accounting"
  const tolerance = options.toleranceDays ?? 7
  const asOfIndex = lastIndexOnOrBefore(series.dates, cutoff)
  const conversion = conversionFor(options.currency, valuation)
  const ctx: Context = {
    series, cutoff, asOfIndex, conversion, basis, tolerance, fxTolerance: options.fxToleranceDays ?? 7, options,
  }
  const periods = Object.fromEntries(WINDOWS.map((key) => [key, computeWindow(ctx, key)])) as Record<WindowKey, ReturnPeriod>
  return {
    requested_as_of_date: toIsoDate(cutoff),
    as_of_date: asOfIndex < 0 ? null : toIsoDate(series.dates[asOfIndex] as number),
    currency: conversion?.currency ?? null,
    return_basis: basis,
    valuation,
    method_version: methodVersion(basis, valuation),
    tolerance_days: tolerance,
    periods,
  }
}
