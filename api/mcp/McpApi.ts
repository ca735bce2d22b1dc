/**
 * The part of the HTTP contract the MCP tools read: the data groups, the batches and the changes
 * between them, and /health (no account, key or download routes). Named like the API so the groups' handlers (built for Api) implement it unchanged.
 */
import { HttpApi } from "effect/http-api"
import { BatchesApi } from "../batches/BatchesApi.ts"
import { ChangesApi } from "../batches/ChangesApi.ts"
import { CatalogApi } from "../catalog/CatalogApi.ts"
import { FiApi } from "../fi/FiApi.ts"
import { HoldersApi } from "../holders/HoldersApi.ts"
import { MarketApi } from "../market/MarketApi.ts"
import { ReturnsApi } from "../returns/ReturnsApi.ts"
import { RequestValidation } from "../security/Security.ts"
import { PublicApi } from "../system/SystemApi.ts"

export class McpApi extends HttpApi.make("fund-data-service")
  .add(PublicApi)
  .add(CatalogApi)
  .add(ReturnsApi)
  .add(MarketApi)
  .add(FiApi)
  .add(HoldersApi)
  .add(BatchesApi)
  .add(ChangesApi)
  .middleware(RequestValidation) {}
