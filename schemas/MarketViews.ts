/**
 * Response models of /api/all-funds (field names of the reference contract; every change a
 * decimal fraction). The route serves ready JSON text of exactly this shape (tests check it).
 * A row is one of three shapes, told apart by `vehicle` and then by `serieId`: a mutual fund
 * series (AllFundsRow), an FI/ETF series (AllFundsFiSeriesRow) or an active FI/ETF instrument
 * without any series (AllFundsFiNoSeriesRow); the FI/ETF rows are rendered by
 * snapshots/readers/FiAllFunds.ts.
 */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"
import { FiUuid } from "./FiInstruments.ts"
import { FiVehicle, PriceStatus } from "./FiStatus.ts"
import { SeriesContinuity } from "./SeriesContinuity.ts"
import { UniverseMeta } from "./MarketUniverse.ts"

const Num = Schema.NullOr(Schema.Finite)

export const AllFundsRow = Schema.Struct({
  vehicle: Schema.Literal("mutual_fund"),
  agf: Schema.String,
  fundName: Schema.String,
  fundId: Schema.String.annotate({ description: "The fund's concept id" }),
  run: Schema.String,
  category: Schema.NullOr(Schema.String),
  fundFamily: Schema.NullOr(Schema.String).annotate({ description: "AFM RAR family; null when unclassified" }),
  serie: Schema.String,
  serieId: Schema.String.annotate({ description: "Decimal id (the current id of a renamed series)" }),
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
}).annotate({ identifier: "AllFundsRow", description: "A mutual fund series (vehicle mutual_fund)" })

const FmOnly = (field: string) => Schema.Null.annotate({ description: `${field}: mutual funds only, null on FI/ETF rows` })

/** The fields of an FI/ETF row that do not depend on its series. */
const fiInstrumentFields = {
  vehicle: FiVehicle,
  agf: Schema.String.annotate({ description: "Administrator name as the CMF list writes it" }),
  fundName: Schema.String,
  fundId: Schema.String.annotate({ description: "fi:{RUN} (RUN without check digit)" }),
  run: Schema.String.annotate({ description: "Fund RUN with check digit" }),
  category: FmOnly("category"),
  fundFamily: FmOnly("fundFamily"),
  investorClass: FmOnly("investorClass"),
  price_basis: Schema.Literal("valor_libro").annotate({ description: "`price` is the CMF book value (valor libro)" }),
  article107RegulationStatus: FmOnly("article107RegulationStatus"),
  seriesContinuity: FmOnly("seriesContinuity"),
  ticker: Schema.NullOr(Schema.String).annotate({ description: "Exchange ticker (ETFs), else null" }),
}

export const AllFundsFiSeriesRow = Schema.Struct({
  vehicle: fiInstrumentFields.vehicle,
  agf: fiInstrumentFields.agf,
  fundName: fiInstrumentFields.fundName,
  fundId: fiInstrumentFields.fundId,
  run: fiInstrumentFields.run,
  category: fiInstrumentFields.category,
  fundFamily: fiInstrumentFields.fundFamily,
  serie: Schema.String.annotate({ description: "Series label, upper case (UNICA, A, I, …)" }),
  serieId: FiUuid,
  currency: Schema.NullOr(Schema.String).annotate({ description: "Currency of the book values as CMF writes it (CLP, USD, COP, …)" }),
  tac: Num.annotate({
    description: "The fact sheet's TAC (decimal fraction) when its status is available at the cutoff and the sheet is not dated after it; else null",
  }),
  investorClass: fiInstrumentFields.investorClass,
  price: Num.annotate({ description: "Last CMF book value on or before the FI/ETF cutoff; null when there is none" }),
  price_as_of_date: Schema.NullOr(Schema.String).annotate({ description: "Date of the book value behind `price`; null when there is none" }),
  price_basis: fiInstrumentFields.price_basis,
  price_status: PriceStatus,
  dailyChange: Num.annotate({ description: "Decimal fraction vs the previous FI/ETF date; null unless price_status is current" }),
  monthlyChange: Num.annotate({ description: "Decimal fraction vs the last value on or before the cutoff − 1 month; null unless price_status is current" }),
  patrimony: Num,
  previousPatrimony: Num,
  monthlyPatrimony: Num,
  shareholders: Schema.NullOr(Schema.Int),
  article107RegulationStatus: fiInstrumentFields.article107RegulationStatus,
  seriesContinuity: fiInstrumentFields.seriesContinuity,
  ticker: fiInstrumentFields.ticker,
}).annotate({ identifier: "AllFundsFiSeriesRow", description: "A series of an active investment fund or ETF" })

export const AllFundsFiNoSeriesRow = Schema.Struct({
  vehicle: fiInstrumentFields.vehicle,
  agf: fiInstrumentFields.agf,
  fundName: fiInstrumentFields.fundName,
  fundId: fiInstrumentFields.fundId,
  run: fiInstrumentFields.run,
  category: fiInstrumentFields.category,
  fundFamily: fiInstrumentFields.fundFamily,
  serie: Schema.Null,
  serieId: Schema.Null,
  currency: Schema.Null,
  tac: Schema.Null,
  investorClass: fiInstrumentFields.investorClass,
  price: Schema.Null,
  price_as_of_date: Schema.Null,
  price_basis: fiInstrumentFields.price_basis,
  price_status: Schema.Literal("unavailable"),
  dailyChange: Schema.Null,
  monthlyChange: Schema.Null,
  patrimony: Schema.Null,
  previousPatrimony: Schema.Null,
  monthlyPatrimony: Schema.Null,
  shareholders: Schema.Null,
  article107RegulationStatus: fiInstrumentFields.article107RegulationStatus,
  seriesContinuity: fiInstrumentFields.seriesContinuity,
  ticker: fiInstrumentFields.ticker,
}).annotate({
  identifier: "AllFundsFiNoSeriesRow",
  description: "An active investment fund or ETF without any series (no book value ever): one row, its series fields null, price_status unavailable",
})

export const AllFundsFiRow = Schema.Union([AllFundsFiSeriesRow, AllFundsFiNoSeriesRow]).annotate({
  identifier: "AllFundsFiRow",
  description: "An investment fund or ETF row (vehicle etf or investment_fund): one per series, or one for an instrument without series (serieId null)",
})

const Dates = Schema.Struct({ date: Schema.NullOr(Schema.String), previousDate: Schema.NullOr(Schema.String) })

export const AllFundsMeta = Schema.Struct({
  batch_id: MetaBatchId,
  vehicle: Schema.String,
  date: Schema.NullOr(Schema.String),
  previousDate: Schema.NullOr(Schema.String),
  agfCount: Schema.Int,
  etfAgfCount: Schema.optionalKey(Schema.Int),
  investmentFundAgfCount: Schema.optionalKey(Schema.Int),
  datesByVehicle: Schema.optionalKey(Schema.Struct({ mutual_fund: Dates, etf: Dates, investment_fund: Dates })),
  count: Schema.Int,
  universe: Schema.optionalKey(UniverseMeta.annotate({ description: "Present when the request gave `universe`: current_vigente or as_of" })),
}).annotate({ identifier: "AllFundsMeta" })

export const AllFundsResponse = Schema.Struct({
  data: Schema.Array(
    Schema.Union([AllFundsRow, AllFundsFiRow]).annotate({
      description: "By vehicle: mutual_fund → AllFundsRow; etf and investment_fund → AllFundsFiRow",
    }),
  ),
  meta: AllFundsMeta,
}).annotate({
  identifier: "AllFundsResponse",
  description: "Every active instrument of the vehicle with its price, daily and monthly change and TAC",
})
