/**
 * Every error the API answers, all in the one error shape, an RFC 9457 problem document
 * (schemas/ApiError.ts, schemas/Problem.ts: each code is in the catalogue /docs lists). Each class is
 * what handlers fail with; its `Response` encodes it to that body plus the headers the spec
 * requires (WWW-Authenticate on 401, Retry-After on 429 and 503, the quota headers on a quota 429),
 * so OpenAPI lists them.
 */
import { Schema } from "effect"
import { apiError, from, ValidationIssue } from "./ApiError.ts"

export { ValidationIssue }

/** 401: key missing, invalid or revoked. */
export class Unauthorized extends apiError<Unauthorized>()(
  "Unauthorized",
  {},
  { status: 401, code: "unauthorized", component: "UnauthorizedError", headers: { "www-authenticate": 'Bearer realm="fds"' } },
) {}
export const UnauthorizedResponse = Unauthorized.Response

/**
 * 400: a parameter that is malformed rather than out of range (a `month` that is not YYYY-MM on the
 * FM and FI portfolio routes, where the spec asks 400 instead of the 422 of schema validation).
 */
export class BadRequest extends apiError<BadRequest>()(
  "BadRequest",
  { parameter: Schema.String },
  { status: 400, code: "bad_request", component: "BadRequestError" },
) {}
export const BadRequestResponse = BadRequest.Response

/** 404: an id or RUN outside the published universe. */
export class NotFound extends apiError<NotFound>()(
  "NotFound",
  { parameter: Schema.optionalKey(Schema.String) },
  { status: 404, code: "not_found", component: "NotFoundError" },
) {}
export const NotFoundResponse = NotFound.Response

/** 422: a parameter with an invalid value; names the parameter. */
export class InvalidParameter extends apiError<InvalidParameter>()(
  "InvalidParameter",
  { parameter: Schema.String, issues: Schema.optionalKey(Schema.Array(ValidationIssue)) },
  { status: 422, code: "invalid_parameter", component: "ValidationError" },
) {}
export const InvalidParameterResponse = InvalidParameter.Response

/**
 * 503: the server side cannot answer now (no published batch, a swap crossed the request, key check
 * impossible); the body's `error` is the reason.
 */
export class ServiceUnavailable extends apiError<ServiceUnavailable>()(
  "ServiceUnavailable",
  { reason: Schema.String, retryAfter: Schema.Int },
  { status: 503, code: from("reason"), component: "ServiceUnavailableError", headers: { "retry-after": from("retryAfter") } },
) {}
export const ServiceUnavailableResponse = ServiceUnavailable.Response

/**
 * A route's error list: the errors it names, then the 503 of every route that reads the published
 * batch or the accounts store (none published, a swap crossed the request, the store is down).
 */
export const dataErrors = <const E extends ReadonlyArray<Schema.Top>>(...errors: E): readonly [...E, typeof ServiceUnavailableResponse] => [
  ...errors,
  ServiceUnavailableResponse,
]

/**
 * 429: the key's daily quota is used up; the request was not counted. `reset`: Unix seconds of the
 * next America/Santiago midnight.
 */
export class QuotaExceeded extends apiError<QuotaExceeded>()(
  "QuotaExceeded",
  { limit: Schema.Int, reset: Schema.Int, retryAfter: Schema.Int },
  {
    status: 429,
    code: "quota_exceeded",
    component: "QuotaExceededError",
    headers: {
      "x-ratelimit-limit": from("limit"),
      "x-ratelimit-remaining": 0,
      "x-ratelimit-reset": from("reset"),
      "retry-after": from("retryAfter"),
    },
  },
) {}
export const QuotaExceededResponse = QuotaExceeded.Response

/** 429: too many requests from one address (per-IP rate, or mails asked for one address or e-mail). */
export class RateLimited extends apiError<RateLimited>()(
  "RateLimited",
  { retryAfter: Schema.Int },
  { status: 429, code: "rate_limited", component: "RateLimitedError", headers: { "retry-after": from("retryAfter") } },
) {}
export const RateLimitedResponse = RateLimited.Response

/** 403 on account routes: the request's Origin is not trusted. Not a quota signal. */
export class UntrustedOrigin extends apiError<UntrustedOrigin>()(
  "UntrustedOrigin",
  {},
  { status: 403, code: "untrusted_origin", component: "ForbiddenError" },
) {}
export const UntrustedOriginResponse = UntrustedOrigin.Response

/** 401 on account routes: no valid session cookie. */
export class NotSignedIn extends apiError<NotSignedIn>()(
  "NotSignedIn",
  {},
  { status: 401, code: "not_signed_in", component: "NotSignedInError" },
) {}
export const NotSignedInResponse = NotSignedIn.Response

/**
 * 410: a published batch whose snapshot file retention has removed; the message gives its content
 * hash and the command that rebuilds it. `parameter` names the query parameter or path segment.
 */
export class BatchNotRetained extends apiError<BatchNotRetained>()(
  "BatchNotRetained",
  { parameter: Schema.String },
  { status: 410, code: "batch_not_retained", component: "BatchNotRetainedError" },
) {}
export const BatchNotRetainedResponse = BatchNotRetained.Response
