/** Market views: all funds, the market summary, family indices, benchmarks (contract only). */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { BadRequestResponse, dataErrors } from "../../schemas/ApiErrors.ts"
import { IsoDate } from "../../schemas/Dates.ts"
import { BenchmarkCatalog, BenchmarkPrices } from "../../schemas/MarketBenchmarks.ts"
import { Category, Currency, FundFamily, Vehicle } from "../../schemas/MarketParams.ts"
import { FamilyIndexResponse, MarketSummaryResponse } from "../../schemas/MarketSummary.ts"
import { UniverseParam } from "../../schemas/MarketUniverse.ts"
import { AllFundsResponse } from "../../schemas/MarketViews.ts"
import { withDefault } from "../../schemas/QueryParams.ts"
import { Article107Status } from "../../schemas/Article107Status.ts"

const dateParam = (description: string) => Schema.optionalKey(IsoDate.annotate({ description }))

export const AllFundsQuery = Schema.Struct({
  category: Schema.optionalKey(Category()),
  fund_family: Schema.optionalKey(FundFamily()),
  date: dateParam("Cutoff date YYYY-MM-DD (latest when absent): values at the last quote date on or before it"),
  article107_regulation_status: Schema.optionalKey(Article107Status),
  vehicle: Vehicle.pipe(withDefault("mutual_fund")),
  universe: Schema.optionalKey(UniverseParam),
})
export type AllFundsQuery = typeof AllFundsQuery.Type

export const allFunds = HttpApiEndpoint.get("allFunds", "/api/all-funds", {
  query: AllFundsQuery,
  success: AllFundsResponse,
  error: dataErrors(BadRequestResponse),
}).annotate(OpenApi.Summary, "All active funds with price, daily and monthly change (decimal fractions) and TAC")

export const marketSummary = HttpApiEndpoint.get("marketSummary", "/api/market-summary", {
  query: {
    date: dateParam(
      "YYYY-MM-DD (latest when absent). A historical date is a backtest over today's funds (survivorship bias) unless universe=as_of",
    ),
    universe: Schema.optionalKey(UniverseParam),
  },
  success: MarketSummaryResponse,
  error: dataErrors(BadRequestResponse),
}).annotate(OpenApi.Summary, "AFM families as indices (per currency, weighted by opening patrimony) and top movers")

export const FamilyIndexQuery = Schema.Struct({
  currency: Schema.optionalKey(
    Currency("Index currency: PESOS or DOLAR (CLP, USD accepted), case-insensitive; default: the family's currency with the largest patrimony"),
  ),
  from_date: dateParam("First date, inclusive (YYYY-MM-DD)"),
})
export type FamilyIndexQuery = typeof FamilyIndexQuery.Type

export const familyIndex = HttpApiEndpoint.get("familyIndex", "/api/families/:family_rar/index", {
  params: { family_rar: Schema.String.annotate({ description: "RAR family: display name or slug" }) },
  query: FamilyIndexQuery,
  success: FamilyIndexResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "A family's precomputed index, base 100, per currency (empty with available=false when none)")

export const benchmarks = HttpApiEndpoint.get("benchmarks", "/api/benchmarks", {
  success: BenchmarkCatalog,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Catalog of active benchmarks (family → symbol, index, currency)")

export const benchmarkPrices = HttpApiEndpoint.get("benchmarkPrices", "/api/benchmarks/:family_rar/prices", {
  params: { family_rar: Schema.String.annotate({ description: "RAR family: display name or slug" }) },
  query: { from_date: dateParam("First date, inclusive (YYYY-MM-DD)") },
  success: BenchmarkPrices,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Raw benchmark closes of a family in native currency (has_benchmark=false when none)")
