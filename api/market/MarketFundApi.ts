/** A mutual fund's portfolio and article 107 declaration (contract only). */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { BadRequestResponse, dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { Article107DetailResponse, HoldingsResponse, ResumenResponse } from "../../schemas/MarketFund.ts"
import { PortfolioMarket, RunParam } from "../../schemas/MarketParams.ts"
import { withDefault } from "../../schemas/QueryParams.ts"

const run = { run: RunParam }
// Checked in the handler, not here: a malformed month answers 400 (as on the FI portfolio routes), not 422.
const month = Schema.optionalKey(Schema.String.annotate({ description: "YYYY-MM (default: the latest month with positions)" }))

export const CarteraResumenQuery = Schema.Struct({ month })
export type CarteraResumenQuery = typeof CarteraResumenQuery.Type
export const CarteraHoldingsQuery = Schema.Struct({ month, market: PortfolioMarket.pipe(withDefault("all")) })
export type CarteraHoldingsQuery = typeof CarteraHoldingsQuery.Type

export const carteraResumen = HttpApiEndpoint.get("carteraResumen", "/api/funds/:run/cartera/resumen", {
  params: run,
  query: CarteraResumenQuery,
  success: ResumenResponse,
  error: dataErrors(BadRequestResponse, NotFoundResponse),
}).annotate(OpenApi.Summary, "A mutual fund's portfolio grouped by instrument type (ETF/FI: /api/fi/instruments/{id}/cartera/resumen)")

export const carteraHoldings = HttpApiEndpoint.get("carteraHoldings", "/api/funds/:run/cartera/holdings", {
  params: run,
  query: CarteraHoldingsQuery,
  success: HoldingsResponse,
  error: dataErrors(BadRequestResponse, NotFoundResponse),
}).annotate(OpenApi.Summary, "A mutual fund's portfolio positions, largest weight first (ETF/FI: /api/fi/instruments/{id}/cartera/holdings)")

export const article107 = HttpApiEndpoint.get("article107", "/api/funds/:run/article107", {
  params: run,
  success: Article107DetailResponse,
  error: dataErrors(NotFoundResponse),
}).annotate(OpenApi.Summary, "What the fund's internal regulation declares about article 107, with its evidence")
