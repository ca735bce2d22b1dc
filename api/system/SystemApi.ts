/** Public and key routes. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { dataErrors, RateLimitedResponse, ServiceUnavailableResponse } from "../../schemas/ApiErrors.ts"
import { Liveness, NotReady, Ready } from "../../schemas/Probes.ts"
import { Health, KeyInfo } from "../../schemas/System.ts"
import { ApiKeyAuth } from "../security/Security.ts"

/** The request id every 5xx body carries (api/http/ServerErrors.ts). */
const requestId = {
  request_id: Schema.optionalKey(Schema.String.annotate({ description: "The X-Request-Id of the answer" })),
}

/** /health's body with HTTP 503: the service cannot answer keyed data requests now. */
const HealthNotReady = Schema.Struct({ ...Health.fields, ...requestId })
  .annotate({ identifier: "HealthNotReady", description: "The Health body, with HTTP 503: keyed data requests cannot be answered now" })
  .pipe(HttpApiSchema.status(503))
const NotReadyResponse = Schema.Struct({ ...NotReady.fields, ...requestId }).annotate({ identifier: "NotReady" }).pipe(HttpApiSchema.status(503))

export class PublicApi extends HttpApiGroup.make("public")
  .add(
    // the per-IP limit and the 503 of a server still starting (port bound, snapshot being checked) are answered before routing
    // 503 (same body, Retry-After) when it cannot answer keyed data requests (api/system/Readiness.ts)
    HttpApiEndpoint.get("health", "/health", {
      success: [Health, HealthNotReady],
      error: [RateLimitedResponse, ServiceUnavailableResponse],
    }).annotate(OpenApi.Summary, "Service state, batch date and record count (public); 503 when it cannot serve keyed data requests"),
  )
  // The probes: public, not rate-limited, not counted, not logged per request.
  .add(
    HttpApiEndpoint.get("livez", "/livez", { success: Liveness }).annotate(
      OpenApi.Summary,
      "Liveness: the process answers (restart it when this fails)",
    ),
  )
  .add(
    HttpApiEndpoint.get("readyz", "/readyz", { success: [Ready, NotReadyResponse] }).annotate(
      OpenApi.Summary,
      "Readiness: 200 when it can serve the fleet's current batch now, 503 with the reasons when not (take it out of rotation)",
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
