/**
 * The part of the HTTP contract the MCP tools read: the data groups and /health (no account or key
 * routes). Named like the API so the groups' handlers (built for Api) implement it unchanged.
 */
import { HttpApi } from "effect/http-api"
import { CatalogApi } from "../groups/CatalogApi.ts"
import { FiApi } from "../groups/FiApi.ts"
import { MarketApi } from "../groups/MarketApi.ts"
import { ReturnsApi } from "../groups/ReturnsApi.ts"
import { PublicApi } from "../groups/SystemApi.ts"
import { RequestValidation } from "../Security.ts"

export class McpApi extends HttpApi.make("fund-data-service")
  .add(PublicApi)
  .add(CatalogApi)
  .add(ReturnsApi)
  .add(MarketApi)
  .add(FiApi)
  .middleware(RequestValidation) {}
