/** Query words and the response model of /api/market/flows (fund flows: net subscriptions). */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"
import { caseInsensitive, QueryWord } from "./QueryParams.ts"

export const FLOW_LEVELS = ["series", "fund", "administrator", "family"] as const
export type FlowLevel = (typeof FLOW_LEVELS)[number]

/** What the flows are summed over, case-insensitive. */
export const FlowLevelParam = QueryWord(
  FLOW_LEVELS,
  caseInsensitive(FLOW_LEVELS),
  "series, fund, administrator or family (case-insensitive)",
  "series (id: asset_id), fund (id: concept_id), administrator (id: provider_id) or family (id: AFM RAR family name or slug)",
)

export const FlowPeriod = Schema.Literals(["day", "month"]).annotate({ description: "day (default) or month (calendar months)" })
export type FlowPeriod = typeof FlowPeriod.Type

/** native: the series' accounting currency, one row per currency; CLP: every currency converted and summed. */
export const FlowCurrencyParam = QueryWord(
  ["native", "CLP"],
  caseInsensitive(["native", "CLP"]),
  "native or CLP (case-insensitive)",
  "native (default): amounts in the series' accounting currency, one row per date and currency; CLP: one row per date, USD × the observed dollar of each day, EUR left out (counted in unconverted_days)",
)

const Amount = Schema.NullOr(Schema.Finite)

export const FlowRow = Schema.Struct({
  date: Schema.String.annotate({ description: "YYYY-MM-DD (period=day) or YYYY-MM (period=month)" }),
  currency: Schema.String.annotate({ description: "CLP, USD or EUR (another CMF currency code as given); CLP with currency=CLP" }),
  subscribed: Amount.annotate({ description: "Σ CUOTAS_APORTADAS × VALOR_CUOTA; null (currency=CLP) when no series-day had a rate" }),
  redeemed: Amount.annotate({ description: "Σ CUOTAS_RESCATADAS × VALOR_CUOTA" }),
  net: Amount.annotate({ description: "Σ (CUOTAS_APORTADAS − CUOTAS_RESCATADAS) × VALOR_CUOTA: net subscriptions, negative for net redemptions" }),
  series_count: Schema.Int.annotate({ description: "Distinct series summed" }),
  series_days: Schema.Int.annotate({ description: "Series-days summed (one cartola row each)" }),
  unreported_days: Schema.Int.annotate({ description: "Series-days with a quota value but no units reported (provisional BPR values): left out" }),
  unconverted_days: Schema.Int.annotate({
    description: "Series-days without a CLP value (EUR, or USD without an observed dollar within 7 days): left out of the amounts when currency=CLP",
  }),
})

export const FlowsResponse = Schema.Struct({
  data: Schema.Array(FlowRow),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    level: Schema.String,
    id: Schema.String,
    name: Schema.String.annotate({ description: "The series (RUN-serie), fund, administrator or family named by id" }),
    period: FlowPeriod,
    currency: Schema.String.annotate({ description: "native or CLP, as asked" }),
    from: Schema.NullOr(Schema.String),
    to: Schema.NullOr(Schema.String),
    through_date: Schema.String.annotate({ description: "The batch date: the last day or month may be partial" }),
    total: Schema.Int,
    limit: Schema.Int,
    offset: Schema.Int,
    methodology: Schema.String,
  }),
}).annotate({ identifier: "FlowsResponse" })
export type FlowsResponse = typeof FlowsResponse.Type
