/**
 * A computed returns answer as one of the three contract bodies: FundReturnResponse (accounting,
 * price), AdjustedReturnResponse (clp / real_uf, price) or TotalReturnResponse (total). It keeps
 * the requested id, reports the label current at the cutoff and which snapshot answered.
 */
import { currencyOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { AdjustedReturnBody, FundReturnBody, TotalReturnBody } from "../../schemas/ReturnsResponses.ts"
import { daysBetween, fromIsoDate, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { FX_TOLERANCE_DAYS } from "../../snapshots/compute/Policy.ts"
import type { ReturnPeriod, ReturnsResult } from "../../snapshots/compute/Returns.ts"
import { conversionFor } from "../../snapshots/compute/Valuation.ts"
import { WINDOWS, type WindowKey } from "../../snapshots/compute/Windows.ts"
import { labelAt, type ResolvedSeries } from "../../snapshots/readers/ReturnsSeries.ts"
import type { CmfSpheresTable } from "../../snapshots/tables/Market.ts"
import { adjustedPeriod, pricePeriod, type QuotaCurrency, totalPeriod } from "./ReturnsPeriodBody.ts"

/** Everything besides the numbers that goes into the answer. */
export interface ReturnsContext {
  readonly requestedId: string
  readonly resolved: ResolvedSeries
  readonly spheres: CmfSpheresTable | undefined
  readonly batchDate: number
  /** The snapshot's file name and content hash. */
  readonly file: string
  readonly contentHash: string
  /** snapshot: the batch's precomputed answer; direct: computed for this request. */
  readonly mode: "snapshot" | "direct"
}

const QUOTA_CURRENCY: Record<string, QuotaCurrency> = { CLP: "PESOS", USD: "DOLAR", EUR: "EURO" }

const cmfSpheres = (row: CmfSpheresTable | undefined, cutoff: string) => {
  const base = { source: "CMF" as const, indicator: "ind_rar_pond" as const, scale_min: 1 as const, scale_max: 5 as const }
  if (row === undefined) {
    return { ...base, value: null, status: "unavailable" as const, reason: "not_in_source" as const, as_of_date: null, family: null, investor_type: null }
  }
  const known = { as_of_date: row.as_of, family: row.family, investor_type: row.investor_type }
  if (row.as_of > cutoff) return { ...base, ...known, value: null, status: "unavailable" as const, reason: "source_after_requested_date" as const }
  if (row.spheres === null) return { ...base, ...known, value: null, status: "unavailable" as const, reason: "not_rated_by_cmf" as const }
  return { ...base, ...known, value: row.spheres, status: "available" as const, reason: null }
}

/** The rename that joins the history, for a renamed series (the latest one when several). */
export const seriesContinuity = (s: ResolvedSeries) => {
  const last = s.renames[s.renames.length - 1]
  if (last === undefined) return null
  return {
    type: "rename" as const,
    previousSerie: last.previous_serie,
    currentSerie: last.current_serie,
    firstCurrentDate: toIsoDate(last.first_current_date),
    aliasIds: [String(s.series.asset_id), ...[...s.renames].reverse().map((r) => String(r.alias_id))],
  }
}

const mapPeriods = <P>(r: ReturnsResult, f: (p: ReturnPeriod) => P): Record<WindowKey, P> =>
  Object.fromEntries(WINDOWS.map((key) => [key, f(r.periods[key])])) as Record<WindowKey, P>

export const returnsBody = (ctx: ReturnsContext, r: ReturnsResult): FundReturnBody | AdjustedReturnBody | TotalReturnBody => {
  const s = ctx.resolved
  const cutoff = fromIsoDate(r.requested_as_of_date) as number
  const quotaCurrency = QUOTA_CURRENCY[currencyOf(s.series.currency) ?? ""] ?? null
  const conversion = conversionFor(s.series.currency, r.valuation)
  const conversions = [...(conversion?.fx ? ["fx_to_clp" as const] : []), ...(conversion?.uf ? ["uf_deflation" as const] : [])]
  const common = {
    run: formatRun(s.series.run),
    serie: labelAt(s, cutoff),
    requested_as_of_date: r.requested_as_of_date,
    as_of_date: r.as_of_date,
    tolerance_days: r.tolerance_days,
    unit: "decimal" as const,
    source: "own" as const,
    quota_source: "CMF" as const,
    calculation_mode: ctx.mode,
    calculation_date: toIsoDate(ctx.batchDate),
    batch_id: ctx.file.replace(/\.sqlite$/, ""),
    input_fingerprint: ctx.contentHash,
    latest_complete_date: toIsoDate(ctx.batchDate),
    cutoff_age_days: r.as_of_date === null ? null : daysBetween(fromIsoDate(r.as_of_date) as number, cutoff),
    cmf_spheres: cmfSpheres(ctx.spheres, r.requested_as_of_date),
    series_continuity: seriesContinuity(s),
  }
  const resource = <A>(attributes: A) => ({ data: { id: ctx.requestedId, type: "real_asset_returns" as const, attributes } })
  if (r.return_basis === "total") {
    return resource({
      ...common,
      currency: r.currency,
      periods: mapPeriods(r, (p) => totalPeriod(p, quotaCurrency, s)),
      valuation: r.valuation,
      return_basis: "total" as const,
      method_version: r.method_version as TotalReturnBody["data"]["attributes"]["method_version"],
      factor_source: "CMF" as const,
      event_verification: "per_period" as const,
      reinvestment_policy: "published_distribution_factors" as const,
      continuation_policy: "verified_forward_only" as const,
      fx_date_policy: "on_or_before_quota_date" as const,
      fx_tolerance_days: FX_TOLERANCE_DAYS,
      uf_date_policy: "exact" as const,
      adjustments: ["distributions" as const, "exchanges" as const, ...conversions],
    })
  }
  if (r.valuation !== "accounting") {
    return resource({
      ...common,
      currency: r.currency as AdjustedReturnBody["data"]["attributes"]["currency"],
      periods: mapPeriods(r, (p) => adjustedPeriod(p, quotaCurrency)),
      valuation: r.valuation,
      return_basis: "price" as const,
      method_version: r.method_version as AdjustedReturnBody["data"]["attributes"]["method_version"],
      fx_tolerance_days: FX_TOLERANCE_DAYS,
      uf_date_policy: "exact" as const,
      adjustments: conversions,
      event_verification: "unavailable" as const,
    })
  }
  return resource({
    ...common,
    currency: r.currency as FundReturnBody["data"]["attributes"]["currency"],
    periods: mapPeriods(r, (p) => pricePeriod(p, quotaCurrency)),
    valuation: "accounting" as const,
    return_basis: "price" as const,
    method_version: "price_return_v1" as const,
    adjustments: [] as [],
    event_verification: "unavailable" as const,
  })
}
