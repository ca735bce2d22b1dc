/** The API-key middleware as the contract declares it (X-Api-Key); implemented in handlers/Security.ts. */
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { InvalidParameterResponse, ServiceUnavailableResponse, UnauthorizedResponse } from "../schemas/ApiErrors.ts"
import type { KeyRecord } from "./accounts/KeyStore.ts"

/** The verified key of the request. */
export class CurrentKey extends Context.Service<CurrentKey, KeyRecord>()("fds/api/CurrentKey") {}

export class ApiKeyAuth extends HttpApiMiddleware.Service<ApiKeyAuth, { provides: CurrentKey }>()("fds/api/ApiKeyAuth", {
  security: {
    apiKey: HttpApiSecurity.apiKey({ key: "X-Api-Key", in: "header" }).pipe(
      HttpApiSecurity.annotate(
        OpenApi.Description,
        "API key from /register. `Authorization: Bearer <key>` is accepted too. Never in the query string.",
      ),
    ),
  },
  error: [UnauthorizedResponse, ServiceUnavailableResponse],
}) {}

/** Turns request decoding failures into 422 with the one error shape, naming the parameter. */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("fds/api/RequestValidation", {
  error: InvalidParameterResponse,
}) {}
