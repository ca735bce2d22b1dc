/** Public and key routes. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { dataErrors, RateLimitedResponse, ServiceUnavailableResponse } from "../../schemas/ApiErrors.ts"
import { Health, KeyInfo } from "../../schemas/System.ts"
import { ApiKeyAuth } from "../security/Security.ts"

export class PublicApi extends HttpApiGroup.make("public")
  .add(
    // the per-IP limit and the 503 of a server still starting (port bound, snapshot being checked) are answered before routing
    HttpApiEndpoint.get("health", "/health", { success: Health, error: [RateLimitedResponse, ServiceUnavailableResponse] }).annotate(
      OpenApi.Summary,
      "Service state, batch date and record count (public)",
    ),
  )
  .annotateMerge(OpenApi.annotations({ title: "System", description: "Public service state" })) {}

export class KeyApi extends HttpApiGroup.make("key")
  .add(
    HttpApiEndpoint.get("keyInfo", "/api/key/info", {
      success: HttpApiSchema.WithHeaders(KeyInfo, { "cache-control": Schema.Literal("no-store") }),
      error: dataErrors(),
    }).annotate(OpenApi.Summary, "Verify a key: tier, quota and today's use (consumes no quota)"),
  )
  .middleware(ApiKeyAuth)
  .annotateMerge(OpenApi.annotations({ title: "Key", description: "Check your API key" })) {}
