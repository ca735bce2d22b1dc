/** Query parameters of the FI routes, validated at the edge (an invalid value is a 422 naming it; limits are never clamped). */
import { Schema } from "effect"
import { IsoDate } from "../../schemas/Dates.ts"
import { QueryInt } from "../../schemas/QueryParams.ts"

const bounded = (minimum: number, maximum: number, description: string) =>
  Schema.optionalKey(QueryInt(minimum, maximum, description))

export const InstrumentsQuery = {
  provider_id: bounded(0, 0xffffffff, "Administrator id (CRC32)"),
  is_etf: Schema.optionalKey(Schema.Boolean).annotateKey({ description: "true: ETFs only; false: investment funds only" }),
  regulatory_type: Schema.optionalKey(Schema.Literals(["FIRES", "FINRE"])).annotateKey({
    description: "FIRES (rescatable) or FINRE (no rescatable)",
  }),
  status: Schema.optionalKey(Schema.Literals(["active", "inactive", "unknown", "all"])).annotateKey({
    description: "CMF status; default active",
  }),
  q: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100))).annotateKey({
    description: "Substring of the name, ticker or RUN; case and accents ignored",
  }),
  limit: bounded(1, 500, "Rows per page, 1–500, default 100"),
  offset: bounded(0, Number.MAX_SAFE_INTEGER, "Rows skipped, default 0"),
}

export const PricesQuery = {
  from_date: Schema.optionalKey(IsoDate).annotateKey({ description: "First date, inclusive (YYYY-MM-DD)" }),
  to_date: Schema.optionalKey(IsoDate).annotateKey({ description: "Last date, inclusive (YYYY-MM-DD); not before from_date" }),
  limit: bounded(1, 5000, "Rows per page, 1–5000, default 1000"),
  offset: bounded(0, Number.MAX_SAFE_INTEGER, "Rows skipped, default 0"),
}
