/**
 * The answer of `/risk_metrics`: the series' latest risk snapshot (the reference's fields); for an
 * FI/ETF id computed on its CMF book values up to the FI cutoff, with the field of FiRealAssets.ts.
 */
import { Schema } from "effect"
import { FiRiskFields } from "./FiRealAssets.ts"

const Volatility = Schema.NullOr(Schema.Finite)

export const RiskMetricsAttributes = Schema.Struct({
  run: Schema.String,
  serie: Schema.String.annotate({ description: "Series label current at as_of_date" }),
  as_of_date: Schema.NullOr(Schema.String).annotate({
    description: "D: the last quota date on or before the batch date (for FI/ETF ids, the FI cutoff)",
  }),
  volatility_monthly_12m: Volatility.annotate({ description: "σ of daily simple returns over 12 months × √21" }),
  volatility_monthly_36m: Volatility.annotate({ description: "σ of daily simple returns over 36 months × √21" }),
  volatility_annualized_12m: Volatility.annotate({ description: "σ over 12 months × √252" }),
  volatility_annualized_36m: Volatility.annotate({ description: "σ over 36 months × √252" }),
  max_drawdown_36m: Volatility.annotate({ description: "Worst fall from a running peak of the quota over 36 months (≤ 0)" }),
  risk_level: Schema.NullOr(
    Schema.Literals(["very_low", "low", "medium_low", "medium", "medium_high", "high", "very_high"]),
  ),
  risk_score: Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 }))).annotate({
    description: "1–7 from volatility_annualized_12m: <0.5 %, 0.5–2 %, 2–5 %, 5–10 %, 10–15 %, 15–25 %, ≥25 %",
  }),
  method_version: Schema.String,
  unavailable_reason: Schema.NullOr(
    Schema.Literals(["no_quota_at_cutoff", "insufficient_history", "unknown_currency"]),
  ).annotate({ description: "Why no figure could be computed; null when at least one is" }),
  ...FiRiskFields,
}).annotate({ identifier: "RiskMetricsAttributes" })

export const RiskMetricsResponse = Schema.Struct({
  data: Schema.Struct({
    id: Schema.String.annotate({ description: "The requested asset_id, as given" }),
    type: Schema.Literal("risk_metrics"),
    attributes: RiskMetricsAttributes,
  }),
}).annotate({ identifier: "RiskMetricsResponse", description: "The latest risk snapshot of a series (decimal fractions)" })

export type RiskMetricsBody = typeof RiskMetricsResponse.Encoded
