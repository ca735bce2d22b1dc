/** Returns, risk and costs of a series (contract only; handlers in api/returns/Returns.ts). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { IsoDate } from "../../schemas/Dates.ts"
import { withDefault } from "../../schemas/QueryParams.ts"
import { CompactDate, ExpenseRatioHistory, ExpenseRatioResponse } from "../../schemas/ReturnsCosts.ts"
import { AdjustedReturnResponse, FundReturnResponse, TotalReturnResponse } from "../../schemas/ReturnsResponses.ts"
import { RiskMetricsResponse } from "../../schemas/ReturnsRisk.ts"
import { ApiKeyAuth } from "../security/Security.ts"
import { PinSnapshot } from "../snapshot/Pinned.ts"

const assetId = {
  asset_id: Schema.String.annotate({
    description: "Series id: decimal CRC32 (FM; a previous id of a renamed series works too) or UUID (FI/ETF)",
  }),
}

/** The query of /returns: the cutoff (the latest batch when absent), the valuation and the basis. */
export const ReturnsQuery = Schema.Struct({
  as_of_date: Schema.optionalKey(
    IsoDate.annotate({ description: "Cutoff YYYY-MM-DD, not after the batch date; without it the latest batch" }),
  ),
  valuation: Schema.Literals(["accounting", "clp", "real_uf"])
    .annotate({
      description: "accounting (default): the quota's currency; clp: each date's observed USD rate; real_uf: CLP deflated by the UF",
    })
    .pipe(withDefault("accounting")),
  return_basis: Schema.Literals(["price", "total"])
    .annotate({
      description: "price (default); total: distributions and adjustments applied in windows with verified coverage",
    })
    .pipe(withDefault("price")),
})
export type ReturnsQuery = typeof ReturnsQuery.Type

export class ReturnsApi extends HttpApiGroup.make("returns")
  .add(
    HttpApiEndpoint.get("returns", "/api/real_assets/:asset_id/returns", {
      params: assetId,
      query: ReturnsQuery,
      success: [FundReturnResponse, AdjustedReturnResponse, TotalReturnResponse],
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Returns of a series over eight windows, as decimal fractions, at any past cutoff"),
    HttpApiEndpoint.get("riskMetrics", "/api/real_assets/:asset_id/risk_metrics", {
      params: assetId,
      success: RiskMetricsResponse,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Latest risk snapshot of a series; unavailable_reason when it cannot be computed"),
    HttpApiEndpoint.get("expenseRatio", "/api/real_assets/:asset_id/expense_ratio", {
      params: assetId,
      success: ExpenseRatioResponse,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "TAC of a series as a decimal fraction; null when none is documented"),
    HttpApiEndpoint.get("expenseRatioHistory", "/api/real_assets/:asset_id/expense_ratio/history", {
      params: assetId,
      query: {
        from_date: Schema.optionalKey(CompactDate.annotate({ description: "First month end to include, YYYYMMDD" })),
      },
      success: ExpenseRatioHistory,
      error: dataErrors(NotFoundResponse),
    }).annotate(OpenApi.Summary, "Monthly TAC history of a series; an empty list when none"),
  )
  // the batch is pinned inside the key check: a request without a valid key never takes a lease
  .middleware(PinSnapshot)
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Returns", description: "Returns, risk and costs of a series" })) {}
