
import { formatRun } from "../../schemas/Ids.ts"
import type { AdjustedReturnBody, FundReturnBody, TotalReturnBody } from "../../schemas/ReturnsResponses.ts"
import { daysBetween, fromIsoDate, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { FX_TOLERANCE_DAYS } from "../../snapshots/compute/Policy.ts"
import type { ReturnPeriod, ReturnsResult } from "../../snapshots/compute/Returns.ts"
import { conversionFor } from "../../snapshots/compute/Valuation.ts"
import { WINDOWS, type WindowKey } from "../../snapshots/compute/Windows.ts"
import { labelAt, type ResolvedSeries } from "../../snapshots/readers/ReturnsSeries.ts"
import type { CmfSpheresTable } from "../../snapshots/tables/Market.ts"
import { cmfSpheresBody, quotaCurrencyOf } from "./ReturnsLabels.ts"
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

/** The conversions a valuation applies to a series' quotas (the `adjustments` of its answer). */
export const conversionsOf = (currency: string | null, valuation: ReturnsResult["valuation"]) => {
  const conversion = conversionFor(currency, valuation)
  return [...(conversion?.fx ? ["fx_to_clp" as const] : []), ...(conversion?.uf ? ["uf_deflation" as const] : [])]
}

/**
 * The attributes of a price-basis answer after the common ones (FM and FI alike). The computation
 * only yields the currencies and method versions each model allows for its valuation; the casts
 * state that.
 */
export const adjustedAttributes = (r: ReturnsResult, quotaCurrency: QuotaCurrency, seriesCurrency: string | null) => ({
  currency: r.currency as AdjustedReturnBody["data"]["attributes"]["currency"],
  periods: mapPeriods(r, (p) => adjustedPeriod(p, quotaCurrency)),
  valuation: r.valuation as AdjustedReturnBody["data"]["attributes"]["valuation"],
  return_basis: "price" as const,
  method_version: r.method_version as AdjustedReturnBody["data"]["attributes"]["method_version"],
  fx_tolerance_days: FX_TOLERANCE_DAYS,
  uf_date_policy: "exact" as const,
  adjustments: conversionsOf(seriesCurrency, r.valuation),
  event_verification: "unavailable" as const,
})

export const accountingAttributes = (
  r: ReturnsResult,
  quotaCurrency: QuotaCurrency,
  methodVersion: FundReturnBody["data"]["attributes"]["method_version"],
) => ({
  currency: r.currency as FundReturnBody["data"]["attributes"]["currency"],
  periods: mapPeriods(r, (p) => pricePeriod(p, quotaCurrency)),
  valuation: "accounting" as const,
  return_basis: "price" as const,
  method_version: methodVersion,
  adjustments: [] as [],
  event_verification: "unavailable" as const,
})

export const returnsBody = (ctx: ReturnsContext, r: ReturnsResult): FundReturnBody | AdjustedReturnBody | TotalReturnBody => {
  const s = ctx.resolved
  const cutoff = fromIsoDate(r.requested_as_of_date) as number
  const quotaCurrency = quotaCurrencyOf(s.series.currency)
  const conversions = conversionsOf(s.series.currency, r.valuation)
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
    cmf_spheres: cmfSpheresBody(ctx.spheres, r.requested_as_of_date),
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
  if (r.valuation !== "accounting") return resource({ ...common, ...adjustedAttributes(r, quotaCurrency, s.series.currency) })
  return resource({ ...common, ...accountingAttributes(r, quotaCurrency, "price_return_v1") })
}
