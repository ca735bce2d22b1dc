/** The API-key middleware as the contract declares it (X-Api-Key); implemented in handlers/Security.ts. */
import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import type { KeyRecord } from "../../accounts/KeyStore.ts"
import {
  InvalidParameterResponse,
  QuotaExceededResponse,
  RateLimitedResponse,
  ServiceUnavailableResponse,
  UnauthorizedResponse,
} from "../../schemas/ApiErrors.ts"

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
  // RateLimited is raised before routing (per-IP bucket); it is listed here so OpenAPI shows it.
  // InvalidParameter: a query parameter the route does not declare, refused after the key (api/http/StrictQuery.ts).
  error: [UnauthorizedResponse, QuotaExceededResponse, RateLimitedResponse, ServiceUnavailableResponse, InvalidParameterResponse],
}) {}

/** Turns request decoding failures into 422 with the one error shape, naming the parameter. */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("fds/api/RequestValidation", {
  error: InvalidParameterResponse,
}) {}

const QUOTA_HEADERS: Record<string, { description: string; schema: { type: "integer" } }> = {
  "X-RateLimit-Limit": { description: "The key's daily quota (absent for keys without a daily limit)", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left today after this one (absent for keys without a daily limit)", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) of the next midnight in America/Santiago, when the quota resets", schema: { type: "integer" } },
}

/**
 * OpenAPI transform: every keyed operation's responses (401 aside) carry the quota headers. They
 * are set by the key middleware for every route, so they are documented once here rather than on
 * each success schema.
 */
// biome-ignore lint/suspicious/noExplicitAny: the generated OpenAPI document is plain JSON
export const documentQuotaHeaders = (spec: Record<string, any>): Record<string, any> => {
  spec.components ??= {}
  spec.components.headers = { ...spec.components.headers, ...QUOTA_HEADERS }
  const refs = Object.fromEntries(Object.keys(QUOTA_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]))
  for (const item of Object.values(spec.paths ?? {})) {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    for (const operation of Object.values(item as Record<string, any>)) {
      const keyed = Array.isArray(operation?.security) && operation.security.some((s: object) => "apiKey" in s)
      if (!keyed) continue
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        // biome-ignore lint/suspicious/noExplicitAny: see above
        const r = response as Record<string, any>
        if (status === "401") continue
        if (status === "429") {
          // One status, two answers: the quota 429 has the quota headers, the per-IP 429 none.
          for (const [name, header] of Object.entries(r.headers ?? {})) {
            if (!name.toLowerCase().startsWith("x-ratelimit-")) continue
            Object.assign(header as object, { required: false, description: "On the quota 429 only (absent on the per-IP 429)" })
          }
          continue
        }
        r.headers = { ...refs, ...r.headers }
      }
    }
  }
  return spec
}
