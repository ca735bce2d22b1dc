/**
 * The API's errors (schemas/ApiErrors.ts, made by schemas/ApiError.ts): each encodes to its one
 * body (an RFC 9457 problem document but for `instance`, which the server adds) and headers, a client decodes that answer back into the same class, and /openapi.json
 * names each body once by its public component name.
 */
import { Schema } from "effect"
import { OpenApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { Api } from "../../api/Api.ts"
import * as E from "../../schemas/ApiErrors.ts"

const CASES: ReadonlyArray<readonly [string, Schema.Codec<unknown, unknown>, object, object, object]> = [
  [
    "Unauthorized",
    E.UnauthorizedResponse,
    new E.Unauthorized({ message: "no key" }),
    { type: "/docs#error-unauthorized", title: "API key missing, invalid or revoked", status: 401, detail: "no key", error: "unauthorized", message: "no key" },
    { "www-authenticate": 'Bearer realm="fds"' },
  ],
  [
    "BadRequest",
    E.BadRequestResponse,
    new E.BadRequest({ message: "not YYYY-MM", parameter: "month" }),
    { type: "/docs#error-bad_request", title: "Bad request", status: 400, detail: "not YYYY-MM", error: "bad_request", message: "not YYYY-MM", parameter: "month" },
    {},
  ],
  ["NotFound", E.NotFoundResponse, new E.NotFound({ message: "no such fund" }), { type: "/docs#error-not_found", title: "Not found", status: 404, detail: "no such fund", error: "not_found", message: "no such fund" }, {}],
  [
    "NotFound with its parameter",
    E.NotFoundResponse,
    new E.NotFound({ message: "no such fund", parameter: "run" }),
    { type: "/docs#error-not_found", title: "Not found", status: 404, detail: "no such fund", error: "not_found", message: "no such fund", parameter: "run" },
    {},
  ],
  [
    "InvalidParameter",
    E.InvalidParameterResponse,
    new E.InvalidParameter({ message: "too big", parameter: "limit", issues: [{ path: ["limit"], message: "at most 500" }] }),
    { type: "/docs#error-invalid_parameter", title: "Invalid parameter", status: 422, detail: "too big", error: "invalid_parameter", message: "too big", parameter: "limit", issues: [{ path: ["limit"], message: "at most 500" }] },
    {},
  ],
  [
    "ServiceUnavailable",
    E.ServiceUnavailableResponse,
    new E.ServiceUnavailable({ message: "nothing published", reason: "no_snapshot", retryAfter: 30 }),
    { type: "about:blank", title: "Service Unavailable", status: 503, detail: "nothing published", error: "no_snapshot", message: "nothing published" },
    { "retry-after": "30" },
  ],
  [
    "QuotaExceeded",
    E.QuotaExceededResponse,
    new E.QuotaExceeded({ message: "spent", limit: 1000, reset: 1767236400, retryAfter: 3600 }),
    { type: "/docs#error-quota_exceeded", title: "Daily quota exhausted", status: 429, detail: "spent", error: "quota_exceeded", message: "spent" },
    { "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1767236400", "retry-after": "3600" },
  ],
  [
    "RateLimited",
    E.RateLimitedResponse,
    new E.RateLimited({ message: "slow down", retryAfter: 7 }),
    { type: "/docs#error-rate_limited", title: "Too many requests", status: 429, detail: "slow down", error: "rate_limited", message: "slow down" },
    { "retry-after": "7" },
  ],
  [
    "UntrustedOrigin",
    E.UntrustedOriginResponse,
    new E.UntrustedOrigin({ message: "origin" }),
    { type: "/docs#error-untrusted_origin", title: "Untrusted origin", status: 403, detail: "origin", error: "untrusted_origin", message: "origin" },
    {},
  ],
  ["NotSignedIn", E.NotSignedInResponse, new E.NotSignedIn({ message: "no session" }), { type: "/docs#error-not_signed_in", title: "Not signed in", status: 401, detail: "no session", error: "not_signed_in", message: "no session" }, {}],
]

/** An error's message (not enumerable) and fields. */
const fieldsOf = (error: unknown) => ({ message: (error as Error).message, ...(error as object) })

describe("the API's errors", () => {
  it.each(CASES)("%s: encodes to its body and headers, and decodes back into its class", (_, schema, error, body, headers) => {
    const answer = Schema.encodeUnknownSync(schema)(error)
    expect(answer).toStrictEqual({ body, headers })
    const decoded = Schema.decodeUnknownSync(schema)(answer)
    expect(decoded).toBeInstanceOf(error.constructor)
    expect(fieldsOf(decoded)).toStrictEqual(fieldsOf(error))
  })

  it("decodes a 503 body with its request_id, and a body without the parameter its class requires", () => {
    const unavailable = Schema.decodeUnknownSync(E.ServiceUnavailableResponse)({
      body: {
        type: "about:blank",
        title: "Service Unavailable",
        status: 503,
        detail: "retry",
        instance: "urn:fds:request:r-1",
        error: "swap_in_progress",
        message: "retry",
        request_id: "r-1",
      },
      headers: { "retry-after": "2" },
    })
    expect(fieldsOf(unavailable)).toStrictEqual(
      fieldsOf(new E.ServiceUnavailable({ message: "retry", reason: "swap_in_progress", retryAfter: 2 })),
    )
    const bad = Schema.decodeUnknownSync(E.BadRequestResponse)({
      body: { type: "/docs#error-bad_request", title: "Bad request", status: 400, detail: "m", error: "bad_request", message: "m" },
      headers: {},
    })
    expect(fieldsOf(bad)).toStrictEqual(fieldsOf(new E.BadRequest({ message: "m", parameter: "" })))
  })

  it("/openapi.json names each error body once, an RFC 9457 problem document with request_id on the 5xx body only", () => {
    expect(E.NotFound.Response).toBe(E.NotFoundResponse)
    const schemas = OpenApi.fromApi(Api).components.schemas
    const names = Object.keys(schemas).filter((name) => name.endsWith("Error") || /Error_\d+$/.test(name))
    expect(names.sort()).toEqual(
      [
        "BadRequestError",
        "BatchNotRetainedError",
        "ForbiddenError",
        "NotFoundError",
        "NotSignedInError",
        "QuotaExceededError",
        "RangeNotSatisfiableError",
        "RateLimitedError",
        "ServiceUnavailableError",
        "UnauthorizedError",
        "ValidationError",
      ].sort(),
    )
    for (const name of names) {
      const properties = Object.keys((schemas[name] as { properties: object }).properties)
      const expected = ["type", "title", "status", "detail", "instance", "error", "message", "parameter", "issues"]
      expect(properties, name).toEqual(name === "ServiceUnavailableError" ? [...expected, "request_id"] : expected)
    }
  })
})
