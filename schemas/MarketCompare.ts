/**
 * Response models of /api/compare and /api/screener (field names of the reference contract):
 * one MarketResource per series (catalog data, price returns in the accounting currency as
 * decimal fractions, risk, CMF spheres), the batch that answered, and for compare the per-period
 * and spheres comparability with explicit reasons. CmfSpheres (schemas/ReturnsContext.ts) and
 * SeriesContinuity (schemas/SeriesContinuity.ts) are the returns' models, reused so each OpenAPI
 * name has one definition.
 */
import { Schema } from "effect"
import { PageLinks } from "./Paging.ts"
import { CmfSpheres } from "./ReturnsContext.ts"
import { NoAdjustments, ReturnPeriods } from "./ReturnsPeriods.ts"
import { SeriesContinuity } from "./SeriesContinuity.ts"
import { UniverseMeta } from "./MarketUniverse.ts"

const Num = Schema.NullOr(Schema.Finite)
const Str = Schema.NullOr(Schema.String)
const Day = Schema.String.annotate({ description: "YYYY-MM-DD" })
const NullableDay = Schema.NullOr(Day)
const Currency = Schema.NullOr(Schema.Literals(["PESOS", "DOLAR"]))

export const ReturnAttributes = Schema.Struct({
  run: Schema.String,
  serie: Schema.String,
  currency: Currency.annotate({ description: "Accounting currency; null when it is neither PESOS nor DOLAR" }),
  requested_as_of_date: NullableDay,
  as_of_date: NullableDay.annotate({ description: "The last quota date on or before the batch date" }),
  periods: ReturnPeriods,
  tolerance_days: Schema.Int,
  unit: Schema.Literal("decimal"),
  return_basis: Schema.Literal("price"),
  source: Schema.Literal("own"),
  quota_source: Schema.Literal("CMF"),
  method_version: Schema.Literal("price_return_v1"),
  adjustments: NoAdjustments,
  event_verification: Schema.Literal("unavailable"),
  calculation_mode: Schema.Literals(["direct", "snapshot"]),
  calculated_at: Str,
  calculation_date: NullableDay,
  batch_id: Str,
  input_fingerprint: Str,
  latest_complete_date: NullableDay,
  cutoff_age_days: Schema.NullOr(Schema.Int),
  snapshot_lag_days: Schema.NullOr(Schema.Int),
  refresh_required: Schema.Boolean,
}).annotate({ identifier: "ReturnAttributes", description: "Price returns in the accounting currency, decimal scale" })

export const MarketAttributes = Schema.Struct({
  agf: Str,
  fundName: Schema.String,
  fundId: Schema.String,
  run: Schema.String,
  category: Str,
  fundFamily: Str.annotate({ description: "AFM RAR family" }),
  fundFamilyDisplay: Str,
  fundFamilyStudies: Str,
  serie: Schema.String,
  serieId: Schema.String.annotate({ description: "Decimal id (the current id of a renamed series)" }),
  seriesContinuity: Schema.optionalKey(Schema.NullOr(SeriesContinuity)).annotate({
    description: "The rename joining the series' history; null when the series has none",
  }),
  currency: Currency,
  tac: Num.annotate({ description: "Latest TAC, decimal fraction" }),
  investorClass: Str,
  classificationInvestorClass: Str,
  classificationDate: NullableDay,
  price: Num,
  dailyChange: Num,
  monthlyChange: Num,
  patrimony: Num,
  previousPatrimony: Num,
  monthlyPatrimony: Num,
  shareholders: Schema.NullOr(Schema.Int),
  volatility_monthly_12m: Num,
  volatility_monthly_36m: Num,
  volatility_annualized_12m: Num,
  volatility_annualized_36m: Num,
  max_drawdown_36m: Num,
  risk_level: Str,
  risk_score: Num,
  risk_as_of_date: NullableDay,
  risk_method_version: Str,
  tac_as_of_date: NullableDay,
  price_as_of_date: NullableDay,
  cmf_spheres: CmfSpheres,
  returns: ReturnAttributes,
}).annotate({ identifier: "MarketAttributes", description: "Catalog at the published cutoff; each indicator keeps its own date" })

export const MarketResource = Schema.Struct({
  id: Schema.String.annotate({ description: "Decimal series id (the current id of a renamed series)" }),
  type: Schema.Literal("fund_comparison"),
  attributes: MarketAttributes,
}).annotate({ identifier: "MarketResource" })

export const ReturnComparability = Schema.Struct({
  comparable: Schema.Boolean,
  reasons: Schema.Array(
    Schema.Literals(["unavailable_return", "currency_mismatch", "effective_dates_mismatch", "return_basis_mismatch"]),
  ),
}).annotate({ identifier: "ReturnComparability" })

export const PeriodComparability = Schema.Struct({
  "1m": ReturnComparability,
  "3m": ReturnComparability,
  "6m": ReturnComparability,
  "1y": ReturnComparability,
  ytd: ReturnComparability,
  "3y_ann": ReturnComparability,
  "5y_ann": ReturnComparability,
  last_closed_month: ReturnComparability,
}).annotate({ identifier: "PeriodComparability" })

export const SpheresComparability = Schema.Struct({
  comparable: Schema.Boolean,
  reasons: Schema.Array(
    Schema.Literals(["unavailable_indicator", "comparison_group_mismatch", "as_of_date_mismatch", "methodology_mismatch"]),
  ),
}).annotate({ identifier: "SpheresComparability" })

const batchFields = {
  batch_id: Schema.String,
  as_of_date: Day,
  calculation_date: Day,
  calculated_at: Schema.String,
  input_fingerprint: Schema.String,
  tolerance_days: Schema.Int,
  series_count: Schema.Int.annotate({ description: "Series of the whole batch, before filtering" }),
  method_version: Schema.Literal("price_return_v1"),
  unit: Schema.Literal("decimal"),
  return_basis: Schema.Literal("price"),
  latest_complete_date: NullableDay,
  cutoff_age_days: Schema.Int,
  snapshot_lag_days: Schema.NullOr(Schema.Int),
  refresh_required: Schema.Boolean,
}

export const CompareMeta = Schema.Struct({
  ...batchFields,
  comparability: PeriodComparability,
  cmf_spheres_comparability: SpheresComparability,
}).annotate({ identifier: "CompareMeta" })

export const CompareResponse = Schema.Struct({
  data: Schema.Array(MarketResource).annotate({ description: "Series in the requested order" }),
  meta: CompareMeta,
}).annotate({ identifier: "CompareResponse" })

export const ScreenerMeta = Schema.Struct({
  ...batchFields,
  total: Schema.Int.annotate({ description: "Series after filtering, before paging" }),
  limit: Schema.Int,
  offset: Schema.Int,
  universe: Schema.optionalKey(UniverseMeta.annotate({ description: "Present when the request gave `universe`: current_vigente or as_of" })),
}).annotate({ identifier: "ScreenerMeta" })

export const ScreenerResponse = Schema.Struct({
  data: Schema.Array(MarketResource).annotate({ description: "One page; empty when nothing matches" }),
  meta: ScreenerMeta,
  total: Schema.Int.annotate({ description: "Series after filtering, before paging (the same as meta.total)" }),
  limit: Schema.Int.annotate({ description: "The same as meta.limit" }),
  offset: Schema.Int.annotate({ description: "The same as meta.offset" }),
  links: PageLinks,
}).annotate({ identifier: "ScreenerResponse" })

export type MarketAttributesBody = typeof MarketAttributes.Encoded
export type CompareBody = typeof CompareResponse.Encoded
export type ScreenerBody = typeof ScreenerResponse.Encoded
