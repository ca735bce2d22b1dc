/**
 * /api/compare and /api/screener (contract only; handlers in api/market/MarketCompare.ts).
 * Query values are taken as text and checked in the handler, so that every invalid value answers
 * 422 naming its parameter with the rule it broke (never clamped).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { CompareResponse, ScreenerResponse } from "../../schemas/MarketCompare.ts"

const text = (description: string) => Schema.optionalKey(Schema.String.annotate({ description }))

export const compare = HttpApiEndpoint.get("compare", "/api/compare", {
  query: {
    series: Schema.String.annotate({
      description:
        "1 to 10 decimal series ids, comma separated, unique as unsigned 32-bit integers (leading zeros do not distinguish); order kept",
    }),
  },
  success: CompareResponse,
  error: dataErrors(NotFoundResponse),
}).annotate(OpenApi.Summary, "Compare up to ten series of the latest published batch, with per-period and spheres comparability")

export const screener = HttpApiEndpoint.get("screener", "/api/screener", {
  query: {
    q: text("Substring of the fund name or RUN, case-insensitive (max 200)"),
    fund_family: text("Catalog fundFamily: an AFM RAR family by display name or slug, case-insensitive; unknown → 422"),
    investor_class: text("Investor class: APV, Institutional or Retail, case-insensitive; other → 422"),
    currency: text("PESOS/CLP or DOLAR/USD, case-insensitive; required to sort by a return"),
    category: text("Catalog category word (as on /api/all-funds), case-insensitive; unknown → 422"),
    administrator: text("Substring of the administrator name, case-insensitive (max 200)"),
    cmf_spheres_min: text("Inclusive minimum spheres, integer 1 to 5; excludes unavailable values; not above the maximum"),
    cmf_spheres_max: text("Inclusive maximum spheres, integer 1 to 5; excludes unavailable values"),
    cmf_family: text("Exact non-empty official CMF sphere family; required to sort by cmf_spheres"),
    cmf_investor_type: text("Exact non-empty official CMF investor type; required to sort by cmf_spheres"),
    sort: text("id (default), tac, cmf_spheres, 1m, 3m, 6m, 1y, ytd, 3y_ann, 5y_ann, last_closed_month"),
    order: text("asc (default) or desc; unavailable values last either way, ties by ascending id"),
    limit: text("1 to 200, default 50"),
    offset: text("Rows skipped after filtering and sorting, integer ≥ 0, default 0"),
  },
  success: ScreenerResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Filter and sort the series of the latest published batch, one page at a time")
