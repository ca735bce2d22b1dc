/** Market routes (contract only; handlers in api/handlers/Market.ts). */
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { ApiKeyAuth } from "../Security.ts"

export class MarketApi extends HttpApiGroup.make("market")
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Market" })) {}
