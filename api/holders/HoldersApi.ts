/** "Who holds this" (contract only; handler in api/holders/Holders.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { dataErrors, InvalidParameterResponse } from "../../schemas/ApiErrors.ts"
import { HoldersResponse } from "../../schemas/Holders.ts"
import { YearMonth } from "../../schemas/MarketParams.ts"
import { ruleCheck } from "../../schemas/QueryParams.ts"
import { ApiKeyAuth } from "../security/Security.ts"
import { PinSnapshot } from "../snapshot/Pinned.ts"

const Code = Schema.String.check(Schema.isPattern(/^(?=.*\S)\P{Cc}{1,48}$/u))

export const HoldersQuery = Schema.Struct({
  instrument: Schema.optionalKey(Code.annotate({ description: "Nemotécnico or instrument code as CMF reports it (matched trimmed and in upper case)" })),
  isin: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^\s*[0-9A-Za-z]{9,12}\s*$/u)).annotate({ description: "ISIN (12 characters) or CUSIP (9)" }),
  ),
  issuer_rut: Schema.optionalKey(
    Schema.String.check(Schema.isPattern(/^\s*\d{1,3}(?:\.?\d{3}){0,2}(?:-[\dkK])?\s*$/u)).annotate({
      description: "The issuer's RUT, with or without dots and check digit (a given check digit must be right)",
      examples: ["97004000-5", "97.004.000-5", "97004000"],
    }),
  ),
  month: Schema.optionalKey(YearMonth.annotate({ description: "YYYY-MM (default: the latest FM portfolio month)" })),
}).check(
  ruleCheck((q) => {
    const given = (["instrument", "isin", "issuer_rut"] as const).filter((k) => q[k] !== undefined)
    return given.length === 1 || { path: [given[1] ?? "instrument"], issue: "give exactly one of instrument, isin and issuer_rut" }
  }),
)
export type HoldersQuery = typeof HoldersQuery.Type

export class HoldersApi extends HttpApiGroup.make("holders")
  .add(
    HttpApiEndpoint.get("holders", "/api/holders", {
      query: HoldersQuery,
      success: HoldersResponse,
      error: dataErrors(InvalidParameterResponse),
    }).annotate(OpenApi.Summary, "Who holds this: every mutual and investment fund portfolio holding an instrument or issuer in a month, largest weight first"),
  )
  .middleware(PinSnapshot)
  .middleware(ApiKeyAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Holders",
      description: "The reverse of a portfolio: which FM and FI portfolios hold an instrument (nemotécnico or ISIN) or an issuer (RUT)",
    }),
  ) {}
