/** Fund flows (contract only; handler in MarketFlows.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { BadRequestResponse, dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { FlowCurrencyParam, FlowLevelParam, FlowPeriod, FlowsResponse } from "../../schemas/MarketFlows.ts"
import { QueryInt, QueryText, withDefault } from "../../schemas/QueryParams.ts"

// Checked in the handler, not here: their format depends on `period`, and a malformed one answers
// 400 (as a malformed month does on the portfolio routes); one after the other is 422.
const bound = (which: string) =>
  Schema.optionalKey(Schema.String.annotate({ description: `${which}, inclusive: YYYY-MM-DD with period=day, YYYY-MM with period=month` }))

export const FlowsQuery = Schema.Struct({
  level: FlowLevelParam,
  id: QueryText(100, "The entity of the level: asset_id, concept_id, provider_id, or an AFM RAR family name or slug"),
  period: FlowPeriod.pipe(withDefault("day")),
  from: bound("First date or month"),
  to: bound("Last date or month (default: the batch date)"),
  currency: FlowCurrencyParam.pipe(withDefault("native")),
  limit: QueryInt(1, 5000, "Rows per page, 1 to 5000 (default 1000)").pipe(withDefault(1000)),
  offset: QueryInt(0, 10_000_000, "Rows skipped, oldest first (default 0)").pipe(withDefault(0)),
})
export type FlowsQuery = typeof FlowsQuery.Type

export const flows = HttpApiEndpoint.get("flows", "/api/market/flows", {
  query: FlowsQuery,
  success: FlowsResponse,
  error: dataErrors(BadRequestResponse, NotFoundResponse),
}).annotate(OpenApi.Summary, "Net subscriptions of a series, fund, administrator or AFM family by day or month, native or in CLP")
