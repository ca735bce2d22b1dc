/**
 * Response models of /api/all-funds (field names of the reference contract; every change a
 * decimal fraction). The route serves ready JSON text of exactly this shape (tests check it).
 */
import { Schema } from "effect"
import { SeriesContinuity } from "./SeriesContinuity.ts"

const Num = Schema.NullOr(Schema.Finite)

export const AllFundsRow = Schema.Struct({
  vehicle: Schema.Literals(["mutual_fund", "etf", "investment_fund"]),
  agf: Schema.String,
  fundName: Schema.String,
  fundId: Schema.String.annotate({ description: "FM: concept id; ETF/FI: fi:{run}" }),
  run: Schema.String,
  category: Schema.NullOr(Schema.String),
  fundFamily: Schema.NullOr(Schema.String).annotate({ description: "AFM RAR family; null when unclassified" }),
  serie: Schema.String,
  serieId: Schema.String.annotate({ description: "FM: decimal id (the current id of a renamed series); ETF/FI: UUID" }),
  currency: Schema.NullOr(Schema.String).annotate({ description: "CLP, USD or EUR" }),
  tac: Num.annotate({ description: "Latest TAC on or before the date's month, decimal fraction" }),
  investorClass: Schema.NullOr(Schema.String),
  price: Schema.Finite,
  price_as_of_date: Schema.String.annotate({ description: "Date of the quote behind `price`" }),
  dailyChange: Num.annotate({ description: "Decimal fraction vs the previous market date" }),
  monthlyChange: Num.annotate({ description: "Decimal fraction vs the last quote on or before date − 1 month" }),
  patrimony: Num,
  previousPatrimony: Num,
  monthlyPatrimony: Num,
  shareholders: Schema.NullOr(Schema.Int),
  volatility_monthly_12m: Num.annotate({ description: "σ of daily simple quota returns over 12 months × √21 (as /risk_metrics)" }),
  volatility_monthly_36m: Num.annotate({ description: "σ of daily simple quota returns over 36 months × √21" }),
  volatility_annualized_12m: Num.annotate({ description: "σ over 12 months × √252" }),
  volatility_annualized_36m: Num.annotate({ description: "σ over 36 months × √252" }),
  max_drawdown_36m: Num.annotate({ description: "Worst fall from a running peak of the quota over 36 months (≤ 0)" }),
  risk_level: Schema.NullOr(Schema.String).annotate({ description: "very_low … very_high, from volatility_annualized_12m" }),
  risk_score: Schema.NullOr(Schema.Int).annotate({ description: "1–7 from volatility_annualized_12m (SRRI-like bands)" }),
  risk_as_of_date: Schema.NullOr(Schema.String).annotate({ description: "D of the risk figures: the last quote on or before the row's date" }),
  risk_method_version: Schema.NullOr(Schema.String),
  article107RegulationStatus: Schema.NullOr(Schema.String),
  seriesContinuity: Schema.NullOr(SeriesContinuity),
}).annotate({ identifier: "AllFundsRow" })

const Dates = Schema.Struct({ date: Schema.NullOr(Schema.String), previousDate: Schema.NullOr(Schema.String) })

export const AllFundsMeta = Schema.Struct({
  vehicle: Schema.String,
  date: Schema.NullOr(Schema.String),
  previousDate: Schema.NullOr(Schema.String),
  agfCount: Schema.Int,
  etfAgfCount: Schema.optionalKey(Schema.Int),
  investmentFundAgfCount: Schema.optionalKey(Schema.Int),
  datesByVehicle: Schema.optionalKey(Schema.Struct({ mutual_fund: Dates, etf: Dates, investment_fund: Dates })),
  count: Schema.Int,
}).annotate({ identifier: "AllFundsMeta" })

export const AllFundsResponse = Schema.Struct({ data: Schema.Array(AllFundsRow), meta: AllFundsMeta }).annotate({
  identifier: "AllFundsResponse",
  description: "Every active instrument of the vehicle with its price, daily and monthly change and TAC",
})
