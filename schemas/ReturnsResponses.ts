/**
 * The three answers of `/returns` (the reference's FundReturnResponse, AdjustedReturnResponse,
 * TotalReturnResponse): price returns in the accounting currency, price returns converted (CLP or
 * real UF), and total returns. JSON:API style: { data: { id, type, attributes } }. FI/ETF ids (price
 * basis only) answer the first two, with the optional fields of FiRealAssets.ts.
 */
import { Schema } from "effect"
import { FiReturnFields } from "./FiRealAssets.ts"
import { CmfSpheres } from "./ReturnsContext.ts"
import { AdjustedReturnPeriods, NoAdjustments, ReturnAdjustment, ReturnPeriods, TotalReturnPeriods } from "./ReturnsPeriods.ts"
import { SeriesContinuity } from "./SeriesContinuity.ts"

const NullableDay = Schema.NullOr(Schema.String.annotate({ description: "YYYY-MM-DD" }))

/** Price answers: FM quotas (CMF) or, for FI/ETF ids, CMF book values. Total answers: CMF only. */
const priceQuotaSource = Schema.Literals(["CMF", "market_close", "cmf_valor_libro"]).annotate({
  description:
    "CMF: the CMF's daily quota values (FM series); cmf_valor_libro: CMF book values (FI/ETF ids); " +
    "market_close: market closing prices (in the contract's enum; no series answers with it yet)",
})

/** The fields every answer has, in the order they are written. */
const common = <Q extends Schema.Top>(quotaSource: Q) => ({
  run: Schema.String.annotate({ description: "Fund RUN with check digit" }),
  serie: Schema.String.annotate({ description: "Series label current at the requested cutoff (renamed series)" }),
  requested_as_of_date: Schema.String.annotate({
    description: "The cutoff asked for (when none was given: the batch date; for FI/ETF ids the FI cutoff)",
  }),
  as_of_date: NullableDay.annotate({ description: "D: the last quota date on or before the cutoff" }),
  tolerance_days: Schema.Int.annotate({ description: "Max calendar days a base or end quote may lie before its target" }),
  unit: Schema.Literal("decimal"),
  source: Schema.Literal("own"),
  quota_source: quotaSource,
  calculation_mode: Schema.Literals(["snapshot", "direct"]).annotate({
    description: "snapshot: precomputed in the batch (latest cutoff); direct: computed for this request from the batch's history",
  }),
  calculation_date: Schema.String.annotate({ description: "Date of the published batch the answer comes from" }),
  batch_id: Schema.String.annotate({ description: "The snapshot that answered (<batch date>-<content hash prefix>)" }),
  input_fingerprint: Schema.String.annotate({ description: "SHA-256 content hash of that snapshot" }),
  latest_complete_date: Schema.String.annotate({
    description: "The latest cutoff this batch can answer: its batch date (for FI/ETF ids, the FI cutoff)",
  }),
  cutoff_age_days: Schema.NullOr(Schema.Int).annotate({ description: "Calendar days from as_of_date to the requested cutoff" }),
  cmf_spheres: CmfSpheres,
  series_continuity: Schema.NullOr(SeriesContinuity),
})

const resource = <A extends Schema.Top>(attributes: A, identifier: string, description: string) =>
  Schema.Struct({
    data: Schema.Struct({
      id: Schema.String.annotate({ description: "The requested asset_id, as given" }),
      type: Schema.Literal("real_asset_returns"),
      attributes,
    }),
  }).annotate({ identifier, description })

export const FundReturnAttributes = Schema.Struct({
  ...common(priceQuotaSource),
  ...FiReturnFields,
  currency: Schema.NullOr(Schema.Literals(["PESOS", "DOLAR"])),
  periods: ReturnPeriods,
  valuation: Schema.Literal("accounting"),
  return_basis: Schema.Literal("price"),
  method_version: Schema.Literal("price_return_v1"),
  adjustments: NoAdjustments,
  event_verification: Schema.Literal("unavailable"),
}).annotate({ identifier: "FundReturnAttributes" })

export const AdjustedReturnAttributes = Schema.Struct({
  ...common(priceQuotaSource),
  ...FiReturnFields,
  currency: Schema.NullOr(Schema.Literals(["PESOS", "UF"])),
  periods: AdjustedReturnPeriods,
  valuation: Schema.Literals(["clp", "real_uf"]),
  return_basis: Schema.Literal("price"),
  method_version: Schema.Literals(["price_return_clp_v1", "price_return_real_uf_v1"]),
  fx_tolerance_days: Schema.Int,
  uf_date_policy: Schema.Literal("exact"),
  adjustments: Schema.Array(Schema.Literals(["fx_to_clp", "uf_deflation"])),
  event_verification: Schema.Literal("unavailable"),
}).annotate({ identifier: "AdjustedReturnAttributes" })

export const TotalReturnAttributes = Schema.Struct({
  ...common(Schema.Literal("CMF")),
  currency: Schema.NullOr(Schema.Literals(["PESOS", "DOLAR", "UF"])),
  periods: TotalReturnPeriods,
  valuation: Schema.Literals(["accounting", "clp", "real_uf"]),
  return_basis: Schema.Literal("total"),
  method_version: Schema.Literals(["total_return_v1", "total_return_clp_v1", "total_return_real_uf_v1"]),
  factor_source: Schema.Literal("CMF"),
  event_verification: Schema.Literal("per_period"),
  reinvestment_policy: Schema.Literal("published_distribution_factors"),
  continuation_policy: Schema.Literal("verified_forward_only"),
  fx_date_policy: Schema.Literal("on_or_before_quota_date"),
  fx_tolerance_days: Schema.Int,
  uf_date_policy: Schema.Literal("exact"),
  adjustments: Schema.Array(ReturnAdjustment),
}).annotate({ identifier: "TotalReturnAttributes" })

export const FundReturnResponse = resource(
  FundReturnAttributes,
  "FundReturnResponse",
  "Price returns in the accounting currency (valuation=accounting, return_basis=price)",
)
export const AdjustedReturnResponse = resource(
  AdjustedReturnAttributes,
  "AdjustedReturnResponse",
  "Price returns converted to CLP or deflated by the UF (valuation=clp or real_uf)",
)
export const TotalReturnResponse = resource(
  TotalReturnAttributes,
  "TotalReturnResponse",
  "Total returns: distributions reinvested and adjustments applied, in windows with verified coverage",
)

export type FundReturnBody = typeof FundReturnResponse.Encoded
export type AdjustedReturnBody = typeof AdjustedReturnResponse.Encoded
export type TotalReturnBody = typeof TotalReturnResponse.Encoded
