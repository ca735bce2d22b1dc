/** Returns routes (contract only; handlers in api/handlers/Returns.ts). */
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { ApiKeyAuth } from "../Security.ts"

export class ReturnsApi extends HttpApiGroup.make("returns")
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Returns" })) {}
