/**
 * The API's errors (schemas/ApiErrors.ts, made by schemas/ApiError.ts): each encodes to its one
 * JSON body and headers, a client decodes that answer back into the same class, and /openapi.json
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
    { error: "unauthorized", status: 401, message: "no key" },
    { "www-authenticate": 'Bearer realm="fds"' },
  ],
  [
    "BadRequest",
    E.BadRequestResponse,
    new E.BadRequest({ message: "not YYYY-MM", parameter: "month" }),
    { error: "bad_request", status: 400, message: "not YYYY-MM", parameter: "month" },
    {},
  ],
  ["NotFound", E.NotFoundResponse, new E.NotFound({ message: "no such fund" }), { error: "not_found", status: 404, message: "no such fund" }, {}],
  [
    "NotFound with its parameter",
    E.NotFoundResponse,
    new E.NotFound({ message: "no such fund", parameter: "run" }),
    { error: "not_found", status: 404, message: "no such fund", parameter: "run" },
    {},
  ],
  [
    "InvalidParameter",
    E.InvalidParameterResponse,
    new E.InvalidParameter({ message: "too big", parameter: "limit", issues: [{ path: ["limit"], message: "at most 500" }] }),
    { error: "invalid_parameter", status: 422, message: "too big", parameter: "limit", issues: [{ path: ["limit"], message: "at most 500" }] },
    {},
  ],
  [
    "ServiceUnavailable",
    E.ServiceUnavailableResponse,
    new E.ServiceUnavailable({ message: "nothing published", reason: "no_snapshot", retryAfter: 30 }),
    { error: "no_snapshot", status: 503, message: "nothing published" },
    { "retry-after": "30" },
  ],
  [
    "QuotaExceeded",
    E.QuotaExceededResponse,
    new E.QuotaExceeded({ message: "spent", limit: 1000, reset: 1767236400, retryAfter: 3600 }),
    { error: "quota_exceeded", status: 429, message: "spent" },
    { "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1767236400", "retry-after": "3600" },
  ],
  [
    "RateLimited",
    E.RateLimitedResponse,
    new E.RateLimited({ message: "slow down", retryAfter: 7 }),
    { error: "rate_limited", status: 429, message: "slow down" },
    { "retry-after": "7" },
  ],
  [
    "UntrustedOrigin",
    E.UntrustedOriginResponse,
    new E.UntrustedOrigin({ message: "origin" }),
    { error: "untrusted_origin", status: 403, message: "origin" },
    {},
  ],
  ["NotSignedIn", E.NotSignedInResponse, new E.NotSignedIn({ message: "no session" }), { error: "not_signed_in", status: 401, message: "no session" }, {}],
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
      body: { error: "swap_in_progress", status: 503, message: "retry", request_id: "r-1" },
      headers: { "retry-after": "2" },
    })
    expect(fieldsOf(unavailable)).toStrictEqual(
      fieldsOf(new E.ServiceUnavailable({ message: "retry", reason: "swap_in_progress", retryAfter: 2 })),
    )
    const bad = Schema.decodeUnknownSync(E.BadRequestResponse)({ body: { error: "bad_request", status: 400, message: "m" }, headers: {} })
    expect(fieldsOf(bad)).toStrictEqual(fieldsOf(new E.BadRequest({ message: "m", parameter: "" })))
  })

  it("/openapi.json names each error body once, with request_id on the 5xx body only", () => {
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
      const expected = ["error", "status", "message", "parameter", "issues"]
      // the download's 416 (api/batches/DownloadsErrors.ts) names no parameter
      if (name === "RangeNotSatisfiableError") expect(properties).toEqual(["error", "status", "message"])
      else expect(properties, name).toEqual(name === "ServiceUnavailableError" ? [...expected, "request_id"] : expected)
    }
  })
})
