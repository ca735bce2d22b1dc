/** Fi routes (contract only; handlers in api/handlers/Fi.ts). */
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { ApiKeyAuth } from "../Security.ts"

export class FiApi extends HttpApiGroup.make("fi")
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Fi" })) {}
