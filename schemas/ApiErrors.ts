/**
 * Every error the API answers has one JSON shape:
 *   { "error": "<code>", "status": <http status>, "message": "<for people>", "parameter"?: "<name>",
 *     "issues"?: [{ "path": [...], "message": "..." }], "request_id"?: "<X-Request-Id>" (5xx) }
 * Each class below is what handlers fail with; its schema encodes it to that body plus the
 * headers the spec requires (WWW-Authenticate on 401, Retry-After on 429 and 503, the quota
 * headers on a quota 429), so OpenAPI lists them.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

export const ValidationIssue = Schema.Struct({
  path: Schema.Array(Schema.Union([Schema.String, Schema.Number])),
  message: Schema.String,
}).annotate({ identifier: "ValidationIssue" })

const fields = (status: number) => ({
  error: Schema.String,
  status: Schema.Literal(status),
  message: Schema.String,
  parameter: Schema.optionalKey(Schema.String),
  issues: Schema.optionalKey(Schema.Array(ValidationIssue)),
})

const body = (status: number, identifier: string) =>
  Schema.Struct(fields(status))
    .annotate({ identifier, description: "The one JSON error shape of this API" })
    .pipe(HttpApiSchema.status(status))

/** A 5xx body: the shape plus the id the answer was sent with (X-Request-Id), the one the server's log knows it by. */
const serverBody = (status: number, identifier: string) =>
  Schema.Struct({
    ...fields(status),
    request_id: Schema.optionalKey(
      Schema.String.annotate({ description: "The X-Request-Id of the answer: quote it when reporting the failure" }),
    ),
  })
    .annotate({ identifier, description: "The one JSON error shape of this API" })
    .pipe(HttpApiSchema.status(status))

/** 401: key missing, invalid or revoked. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  message: Schema.String,
}) {}
export const UnauthorizedResponse = Unauthorized.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(401, "UnauthorizedError"), headers: { "www-authenticate": Schema.String } },
    {
      decode: ({ body }) => new Unauthorized({ message: body.message }),
      encode: (e) => ({
        body: { error: "unauthorized", status: 401 as const, message: e.message },
        headers: { "www-authenticate": 'Bearer realm="fds"' },
      }),
    },
  ),
)

/**
 * 400: a parameter that is malformed rather than out of range (a `month` that is not YYYY-MM on the
 * FM and FI portfolio routes, where the spec asks 400 instead of the 422 of schema validation).
 */
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", {
  message: Schema.String,
  parameter: Schema.String,
}) {}
export const BadRequestResponse = BadRequest.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(400, "BadRequestError"), headers: {} },
    {
      decode: ({ body }) => new BadRequest({ message: body.message, parameter: body.parameter ?? "" }),
      encode: (e) => ({
        body: { error: "bad_request", status: 400 as const, message: e.message, parameter: e.parameter },
        headers: {},
      }),
    },
  ),
)

/** 404: an id or RUN outside the published universe. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  message: Schema.String,
  parameter: Schema.optionalKey(Schema.String),
}) {}
export const NotFoundResponse = NotFound.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(404, "NotFoundError"), headers: {} },
    {
      decode: ({ body }) =>
        new NotFound(body.parameter === undefined ? { message: body.message } : { message: body.message, parameter: body.parameter }),
      encode: (e) => ({
        body: {
          error: "not_found",
          status: 404 as const,
          message: e.message,
          ...(e.parameter === undefined ? {} : { parameter: e.parameter }),
        },
        headers: {},
      }),
    },
  ),
)

/** 422: a parameter with an invalid value; names the parameter. */
export class InvalidParameter extends Schema.TaggedError<InvalidParameter>()("InvalidParameter", {
  message: Schema.String,
  parameter: Schema.String,
  issues: Schema.optionalKey(Schema.Array(ValidationIssue)),
}) {}
export const InvalidParameterResponse = InvalidParameter.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(422, "ValidationError"), headers: {} },
    {
      decode: ({ body }) =>
        new InvalidParameter({
          message: body.message,
          parameter: body.parameter ?? "",
          ...(body.issues === undefined ? {} : { issues: body.issues }),
        }),
      encode: (e) => ({
        body: {
          error: "invalid_parameter",
          status: 422 as const,
          message: e.message,
          parameter: e.parameter,
          ...(e.issues === undefined ? {} : { issues: e.issues }),
        },
        headers: {},
      }),
    },
  ),
)

/** 503: the server side cannot answer now (no published batch, a swap crossed the request, key check impossible). */
export class ServiceUnavailable extends Schema.TaggedError<ServiceUnavailable>()("ServiceUnavailable", {
  message: Schema.String,
  reason: Schema.String,
  retryAfter: Schema.Int,
}) {}
export const ServiceUnavailableResponse = ServiceUnavailable.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: serverBody(503, "ServiceUnavailableError"), headers: { "retry-after": Schema.NumberFromString } },
    {
      decode: ({ body, headers }) =>
        new ServiceUnavailable({ message: body.message, reason: body.error, retryAfter: headers["retry-after"] }),
      encode: (e) => ({
        body: { error: e.reason, status: 503 as const, message: e.message },
        headers: { "retry-after": e.retryAfter },
      }),
    },
  ),
)

/**
 * A route's error list: the errors it names, then the 503 of every route that reads the published
 * batch or the accounts store (none published, a swap crossed the request, the store is down).
 */
export const dataErrors = <const E extends ReadonlyArray<Schema.Top>>(...errors: E): readonly [...E, typeof ServiceUnavailableResponse] => [
  ...errors,
  ServiceUnavailableResponse,
]

/** 429: the key's daily quota is used up; the request was not counted. */
export class QuotaExceeded extends Schema.TaggedError<QuotaExceeded>()("QuotaExceeded", {
  message: Schema.String,
  limit: Schema.Int,
  /** Unix seconds of the next America/Santiago midnight. */
  reset: Schema.Int,
  retryAfter: Schema.Int,
}) {}
export const QuotaExceededResponse = QuotaExceeded.pipe(
  HttpApiSchema.encodeToWithHeaders(
    {
      body: body(429, "QuotaExceededError"),
      headers: {
        "x-ratelimit-limit": Schema.NumberFromString,
        "x-ratelimit-remaining": Schema.NumberFromString,
        "x-ratelimit-reset": Schema.NumberFromString,
        "retry-after": Schema.NumberFromString,
      },
    },
    {
      decode: ({ body, headers }) =>
        new QuotaExceeded({
          message: body.message,
          limit: headers["x-ratelimit-limit"],
          reset: headers["x-ratelimit-reset"],
          retryAfter: headers["retry-after"],
        }),
      encode: (e) => ({
        body: { error: "quota_exceeded", status: 429 as const, message: e.message },
        headers: {
          "x-ratelimit-limit": e.limit,
          "x-ratelimit-remaining": 0,
          "x-ratelimit-reset": e.reset,
          "retry-after": e.retryAfter,
        },
      }),
    },
  ),
)

/** 429: too many requests from one address (per-IP rate, or mails asked for one address or e-mail). */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  message: Schema.String,
  retryAfter: Schema.Int,
}) {}
export const RateLimitedResponse = RateLimited.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(429, "RateLimitedError"), headers: { "retry-after": Schema.NumberFromString } },
    {
      decode: ({ body, headers }) => new RateLimited({ message: body.message, retryAfter: headers["retry-after"] }),
      encode: (e) => ({
        body: { error: "rate_limited", status: 429 as const, message: e.message },
        headers: { "retry-after": e.retryAfter },
      }),
    },
  ),
)

/** 403 on account routes: the request's Origin is not trusted. Not a quota signal. */
export class UntrustedOrigin extends Schema.TaggedError<UntrustedOrigin>()("UntrustedOrigin", {
  message: Schema.String,
}) {}
export const UntrustedOriginResponse = UntrustedOrigin.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(403, "ForbiddenError"), headers: {} },
    {
      decode: ({ body }) => new UntrustedOrigin({ message: body.message }),
      encode: (e) => ({ body: { error: "untrusted_origin", status: 403 as const, message: e.message }, headers: {} }),
    },
  ),
)

/** 401 on account routes: no valid session cookie. */
export class NotSignedIn extends Schema.TaggedError<NotSignedIn>()("NotSignedIn", {
  message: Schema.String,
}) {}
export const NotSignedInResponse = NotSignedIn.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(401, "NotSignedInError"), headers: {} },
    {
      decode: ({ body }) => new NotSignedIn({ message: body.message }),
      encode: (e) => ({ body: { error: "not_signed_in", status: 401 as const, message: e.message }, headers: {} }),
    },
  ),
)

/**
 * 410 on `?batch=`: a published batch whose snapshot file retention removed; the message gives its
 * content hash and the command that rebuilds it.
 */
export class BatchNotRetained extends Schema.TaggedError<BatchNotRetained>()("BatchNotRetained", {
  message: Schema.String,
  parameter: Schema.String,
}) {}
export const BatchNotRetainedResponse = BatchNotRetained.pipe(
  HttpApiSchema.encodeToWithHeaders(
    { body: body(410, "BatchNotRetainedError"), headers: {} },
    {
      decode: ({ body }) => new BatchNotRetained({ message: body.message, parameter: body.parameter ?? "" }),
      encode: (e) => ({
        body: { error: "batch_not_retained", status: 410 as const, message: e.message, parameter: e.parameter },
        headers: {},
      }),
    },
  ),
)
