/** Response models of /api/agf_stats/ranking, /api/agf_stats/evolution and /api/reports/tac-changes. */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"

const Num = Schema.NullOr(Schema.Finite)

export const AgfRankingResponse = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({
      id: Schema.String.annotate({ description: "provider_id" }),
      type: Schema.Literal("agf_ranking"),
      attributes: Schema.Struct({
        administrator: Schema.String,
        total_patrimony: Schema.Finite.annotate({ description: "CLP (USD series converted with the observed dollar of the date; EUR left out)" }),
        total_shareholders: Schema.Int,
        fund_count: Schema.Int,
        rank: Schema.Int,
      }),
    }),
  ),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    date: Schema.NullOr(Schema.String),
    metric: Schema.String,
    currency: Schema.Literal("CLP"),
    usdClp: Num,
    unconvertedSeries: Schema.Int.annotate({ description: "Series whose patrimony could not be converted to CLP (EUR, or USD without a rate)" }),
    methodology: Schema.String,
  }),
}).annotate({ identifier: "AgfRankingResponse" })

export const AgfEvolutionResponse = Schema.Struct({
  data: Schema.Array(Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite, Schema.Null]))).annotate({
    description: "One row per month: { month, <administrator name>: value | null, … }",
  }),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    metric: Schema.String,
    administrators: Schema.Array(Schema.String),
    from_month: Schema.NullOr(Schema.String),
    to_month: Schema.NullOr(Schema.String),
    currency: Schema.NullOr(Schema.String),
    through_date: Schema.String.annotate({ description: "The batch date: the last month's values are its quotes up to this date (a partial month)" }),
    methodology: Schema.String,
  }),
}).annotate({ identifier: "AgfEvolutionResponse" })

export const TacChange = Schema.Struct({
  fundId: Schema.String,
  fundName: Schema.String,
  agf: Schema.String,
  run: Schema.String,
  serie: Schema.String,
  serieId: Schema.String,
  category: Schema.NullOr(Schema.String),
  investorClass: Schema.String,
  currency: Schema.NullOr(Schema.String),
  patrimony: Num,
  tac: Schema.Finite,
  tacPrevious: Schema.Finite,
  tacDelta: Schema.Finite.annotate({ description: "tac − tacPrevious, decimal fraction" }),
  tacDeltaPct: Num.annotate({ description: "tacDelta / tacPrevious, decimal fraction (0.1 = 10 %)" }),
}).annotate({ identifier: "TacChange" })

export const TacChangesResponse = Schema.Struct({
  data: Schema.Array(TacChange),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    date: Schema.String.annotate({ description: "Last day of the month compared" }),
    previousDate: Schema.String,
    currentMonthKey: Schema.String,
    previousMonthKey: Schema.String,
    direction: Schema.String,
    limit: Schema.Int,
    category: Schema.NullOr(Schema.String),
    total: Schema.Int.annotate({ description: "Funds with a change in the direction, before the limit" }),
  }),
}).annotate({ identifier: "TacChangesResponse" })
