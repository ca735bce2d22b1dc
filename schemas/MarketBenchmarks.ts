/** Response models of /api/benchmarks and /api/benchmarks/{family_rar}/prices (raw closes, native currency). */
import { Schema } from "effect"
import { MetaBatchId } from "./Batches.ts"

export const Benchmark = Schema.Struct({
  id: Schema.String.annotate({ description: "The family's slug" }),
  type: Schema.Literal("benchmark"),
  attributes: Schema.Struct({
    family_rar: Schema.String,
    family_slug: Schema.String,
    symbol: Schema.String,
    index_name: Schema.String,
    instrument_name: Schema.String,
    native_currency: Schema.String.annotate({ description: "USD or CLP" }),
    asset_class: Schema.String,
    first_price_date: Schema.NullOr(Schema.String),
    last_price_date: Schema.NullOr(Schema.String),
  }),
}).annotate({ identifier: "Benchmark" })

export const BenchmarkCatalog = Schema.Struct({ data: Schema.Array(Benchmark) }).annotate({
  identifier: "BenchmarkCatalog",
  description: "Active benchmarks: RAR family → symbol, index, currency",
})

export const BenchmarkPrices = Schema.Struct({
  data: Schema.Array(Schema.Struct({ date: Schema.String, close: Schema.Finite, currency: Schema.String })),
  meta: Schema.Struct({
    batch_id: MetaBatchId,
    family_rar: Schema.String,
    family_slug: Schema.NullOr(Schema.String),
    symbol: Schema.NullOr(Schema.String),
    index_name: Schema.NullOr(Schema.String),
    instrument_name: Schema.NullOr(Schema.String),
    native_currency: Schema.NullOr(Schema.String),
    has_benchmark: Schema.Boolean.annotate({ description: "False (and data empty) when the family has no benchmark" }),
  }),
}).annotate({ identifier: "BenchmarkPrices", description: "Raw closes in the native currency; returns and conversion are left to the client" })
