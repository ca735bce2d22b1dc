/**
 * The query of each FI route, one Schema each and the only type for it: an invalid value is a 422
 * naming it (limits are never clamped); absent values decode to their defaults. `month` on the
 * portfolio routes is the exception: the spec answers a malformed month with 400, so the handler
 * checks it (FiCartera.ts checkMonth).
 */
import { Schema } from "effect"
import { PortfolioMarket } from "../../schemas/MarketParams.ts"
import { dateRangeCheck, dateRangeFields, QueryInt, QueryText, withDefault } from "../../schemas/QueryParams.ts"

const offset = QueryInt(0, Number.MAX_SAFE_INTEGER, "Rows skipped, default 0").pipe(withDefault(0))

export const InstrumentsQuery = Schema.Struct({
  provider_id: Schema.optionalKey(QueryInt(0, 0xffffffff, "Administrator id (CRC32)")),
  is_etf: Schema.optionalKey(Schema.Boolean.annotate({ description: "true: ETFs only; false: investment funds only" })),
  regulatory_type: Schema.optionalKey(
    Schema.Literals(["FIRES", "FINRE"]).annotate({ description: "FIRES (rescatable) or FINRE (no rescatable)" }),
  ),
  status: Schema.Literals(["active", "inactive", "unknown", "all"])
    .annotate({ description: "CMF status; default active" })
    .pipe(withDefault("active")),
  q: Schema.optionalKey(QueryText(100, "Substring of the name, ticker or RUN; case and accents ignored")),
  limit: QueryInt(1, 500, "Rows per page, 1–500, default 100").pipe(withDefault(100)),
  offset,
})
export type InstrumentsQuery = typeof InstrumentsQuery.Type

export const PricesQuery = Schema.Struct({
  ...dateRangeFields,
  limit: QueryInt(1, 5000, "Rows per page, 1–5000, default 1000").pipe(withDefault(1000)),
  offset,
}).check(dateRangeCheck)
export type PricesQuery = typeof PricesQuery.Type

export const CarteraQuery = Schema.Struct({
  month: Schema.optionalKey(
    Schema.String.annotate({ description: "YYYY-MM (default: the latest period with positions); malformed → 400" }),
  ),
  market: PortfolioMarket.pipe(withDefault("all")),
})
export type CarteraQuery = typeof CarteraQuery.Type
