/**
 * Response models of /api/market-summary and /api/families/{family_rar}/index (served as ready
 * JSON text of this shape). Changes are decimal fractions.
 */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"
import { UNIVERSE_META_DESCRIPTION } from "./MarketUniverse.ts"

const Num = Schema.NullOr(Schema.Finite)

const CurrencyPart = Schema.Struct({ dailyChange: Num, monthlyChange: Num, patrimony: Num, seriesCount: Schema.Int })

export const FamilySummary = Schema.Struct({
  family: Schema.String,
  name: Schema.String,
  slug: Schema.NullOr(Schema.String),
  displayGroup: Schema.NullOr(Schema.String),
  indexCurrency: Schema.String.annotate({ description: "PESOS or DOLAR: the currency with the largest patrimony in CLP" }),
  dailyChange: Num,
  monthlyChange: Num,
  patrimonyClp: Num,
  seriesCount: Schema.Int,
  fundCount: Schema.Int,
  byCurrency: Schema.Record(Schema.String, CurrencyPart),
}).annotate({ identifier: "FamilySummary" })

export const Mover = Schema.Struct({
  run: Schema.String,
  serie: Schema.String,
  serieId: Schema.String,
  fundId: Schema.String,
  fundName: Schema.String,
  agf: Schema.String,
  category: Schema.NullOr(Schema.String),
  family: Schema.NullOr(Schema.String),
  currency: Schema.NullOr(Schema.String),
  price: Schema.Finite,
  dailyChange: Num,
  monthlyChange: Num,
  patrimony: Num,
}).annotate({ identifier: "MarketMover" })

export const MarketSummaryResponse = Schema.Struct({
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    date: Schema.String,
    previousDate: Schema.NullOr(Schema.String),
    monthlyBaseDate: Schema.String,
    batchDate: Schema.String,
    methodology: Schema.Record(Schema.String, Schema.String).annotate({ description: "The rules: changes, families, movers (outliers), universe" }),
    // text, not the enum: a batch built before pipeline 0.3.3 keeps its stored `current_funds` (CHANGELOG)
    universe: Schema.String.annotate({ description: UNIVERSE_META_DESCRIPTION }),
    backtest: Schema.Boolean.annotate({
      description: "True for a date before the batch's: a backtest over today's funds (universe current_vigente) or over those alive then (as_of)",
    }),
    survivorshipBias: Schema.NullOr(Schema.String).annotate({
      description: "What a backtest over today's funds leaves out; null at the batch's date and with universe=as_of",
    }),
    usdClp: Num,
    classification: Schema.Struct({
      available: Schema.Boolean,
      reportDate: Schema.NullOr(Schema.String).annotate({ description: "Date of the AFM classification used (YYYY-MM-DD)" }),
      classifiedSeries: Schema.Int,
      unclassifiedSeries: Schema.Int,
      coverageByPatrimonyClp: Num,
    }),
    topN: Schema.Int,
  }),
  families: Schema.Array(FamilySummary),
  topGainersDaily: Schema.Array(Mover),
  topLosersDaily: Schema.Array(Mover),
  topGainersMonthly: Schema.Array(Mover),
  topLosersMonthly: Schema.Array(Mover),
}).annotate({ identifier: "MarketSummaryResponse" })

export const FamilyIndexResponse = Schema.Struct({
  data: Schema.Array(
    Schema.Struct({ date: Schema.String, value: Schema.Finite, change: Schema.optionalKey(Schema.Finite) }).annotate({
      description: "Index value (base 100) and the day's change (decimal fraction; absent on the base point)",
    }),
  ),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    family: Schema.String,
    family_slug: Schema.NullOr(Schema.String),
    currency: Schema.NullOr(Schema.String),
    availableCurrencies: Schema.Array(Schema.String),
    base: Schema.Finite,
    baseDate: Schema.NullOr(Schema.String),
    methodology: Schema.String,
    methodologyDescription: Schema.String,
    available: Schema.Boolean,
  }),
}).annotate({ identifier: "FamilyIndexResponse" })
