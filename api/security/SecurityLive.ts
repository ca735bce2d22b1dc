/**
 * How a request's key is read, checked and counted, and how decoding failures become 422.
 * The key is checked and the quota decided and counted in one step (KeyStore.verifyAndConsume:
 * the key's row and the one counting statement at the end of the turn); the quota headers are set
 * on whatever response the route then gives (errors included) through a pre-response handler.
 */
import { Effect, Layer, Option, Redacted, type Schema, SchemaAST, SchemaIssue } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { KEY_PREFIX } from "../../accounts/ApiKey.ts"
import { KeyStore, type QuotaState } from "../../accounts/KeyStore.ts"
import { InvalidParameter, QuotaExceeded, ServiceUnavailable, Unauthorized } from "../../schemas/ApiErrors.ts"
import { beforeQuery, requestUrl } from "../http/Recent.ts"
import { bearerToken, decodedLoosely } from "../http/Secrets.ts"
import { refuseUnknownQuery } from "../http/StrictQuery.ts"
import { ApiKeyAuth, CurrentKey, RequestValidation } from "./Security.ts"

/**
 * Routes that verify a key without consuming quota: the key's own info, and the snapshot download,
 * whose handler counts one request per download rather than per range (api/batches/DownloadsQuota.ts).
 */
const UNCOUNTED = new Set(["keyInfo", "batchSnapshot"])
const QUERY_KEY_NAMES = ["api_key", "apikey", "key", "x-api-key", "token", "access_token"]


/**
 * A key's prefix, plainly or percent-encoded, before the target's `?`: in the path, or after a
 * `;`, where the router reads a query the URL's search parameters do not show.
 */
const keyInPath = (target: string): boolean => decodedLoosely(beforeQuery(target)).includes(KEY_PREFIX)

/** A key's prefix in the authority of an absolute-form target (`GET http://<key>@host/…`), whose `url` shows only the path. */
export const keyInAuthority = (originalUrl: string): boolean => {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(originalUrl)?.[1]
  return authority !== undefined && decodedLoosely(authority).includes(KEY_PREFIX)
}

/**
 * Node requests whose key check failed (the store did not answer) on the hit path
 * (api/http/HitPath.ts), which then hands them to the router: answered 503 without asking again.
 */
export const keyCheckFailed = new WeakSet<object>()

/**
 * The key check of every keyed request, the routes' (ApiKeyAuthLive) and /mcp's: the key from
 * `headerKey` (X-Api-Key) or `Authorization: Bearer`, never from the URL; verified, and when
 * `counted`, one request of its quota decided and counted. Fails with the API's 401, 429 or 503.
 */
export const checkKey = Effect.fnUntraced(function* (
  keys: KeyStore["Service"],
  request: HttpServerRequest.HttpServerRequest,
  headerKey: string,
  counted: boolean,
) {
  const query = requestUrl(request.url).searchParams
  if (
    [...query].some(([name, value]) => name.includes(KEY_PREFIX) || value.includes(KEY_PREFIX)) ||
    keyInPath(request.url) ||
    keyInAuthority(request.originalUrl)
  ) {
    // Refused even with a valid header: URLs end up in logs and browser history.
    return yield* new Unauthorized({
      message: "keys in the query string are not accepted (this one may have leaked: rotate it); send the X-Api-Key header",
    })
  }
  let key = headerKey
  if (key === "") {
    const bearer = bearerToken(request.headers.authorization)
    if (bearer !== undefined) {
      if (!bearer.startsWith(KEY_PREFIX)) {
        return yield* new Unauthorized({ message: "the Bearer token is not a key of this service" })
      }
      key = bearer
    }
  }
  if (key === "") {
    const inQuery = QUERY_KEY_NAMES.some((name) => query.has(name))
    return yield* new Unauthorized({
      message: inQuery
        ? "keys in the query string are not accepted; send the X-Api-Key header"
        : "missing API key: send the X-Api-Key header",
    })
  }
  // the hit path (api/http/HitPath.ts) asked the store already and it did not answer: not asked twice
  if (keyCheckFailed.has(request.source)) return yield* keyCheckUnavailable()
  const checked = yield* (
    counted
      ? keys.verifyAndConsume(key)
      : Effect.flatMap(keys.verify(key), (record) =>
          record === null ? Effect.succeed(null) : Effect.map(keys.peek(record), (quota) => ({ record, quota })),
        )
  ).pipe(Effect.mapError(keyCheckUnavailable))
  if (checked === null) return yield* new Unauthorized({ message: "invalid or revoked API key" })
  const { quota } = checked
  if (counted && !quota.allowed) {
    const limit = quota.limit ?? 0
    return yield* new QuotaExceeded({
      message: `daily quota of ${limit} requests used up; it resets at midnight America/Santiago (X-RateLimit-Reset)`,
      limit,
      reset: quota.resetAt,
      retryAfter: Math.max(1, quota.resetAt - quota.now),
    })
  }
  return checked
})

export const ApiKeyAuthLive = Layer.effect(
  ApiKeyAuth,
  Effect.gen(function* () {
    const keys = yield* KeyStore
    return ApiKeyAuth.of({
      // untraced: a named Effect.fn captures a call-site stack on every call (~10 % of a small request)
      apiKey: Effect.fnUntraced(function* (httpEffect, { credential, endpoint }) {
        const request = yield* HttpServerRequest.HttpServerRequest
        const { record, quota } = yield* checkKey(keys, request, Redacted.value(credential), !UNCOUNTED.has(endpoint.identifier))
        const headers = quotaHeaders(quota)
        yield* HttpEffect.appendPreResponseHandler((_request, response) =>
          Effect.succeed(HttpServerResponse.setHeaders(response, headers)),
        )
        // after the key and its count: an undeclared query parameter is a 422 like an invalid one
        yield* refuseUnknownQuery(endpoint)
        return yield* Effect.provideService(httpEffect, CurrentKey, record)
      }),
    })
  }),
)

/** X-RateLimit-Limit and -Remaining only for keys with a daily limit; -Reset always. */
export const quotaHeaders = (quota: QuotaState): Record<string, string> =>
  quota.limit === null
    ? { "x-ratelimit-reset": String(quota.resetAt) }
    : {
        "x-ratelimit-limit": String(quota.limit),
        "x-ratelimit-remaining": String(quota.remaining ?? 0),
        "x-ratelimit-reset": String(quota.resetAt),
      }

const keyCheckUnavailable = () =>
  new ServiceUnavailable({
    reason: "key_check_unavailable",
    message: "the API key could not be checked; retry later",
    retryAfter: 5,
  })

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/**
 * A query value arrives as text, or as a list when the parameter is repeated (`?limit=10&limit=20`):
 * an issue about a one-value parameter whose value is a list says that, whatever the schema's own
 * words ("Expected string", or the allowed values of an enum).
 */
const REPEATED = "given more than once; send it once"

/** The query parameters an endpoint takes as a list (repeated on purpose, e.g. `administrator`). */
const listParameters = (query: Schema.Top | undefined): ReadonlySet<string> => {
  const ast = query === undefined ? undefined : SchemaAST.toEncoded(query.ast)
  if (ast === undefined || !SchemaAST.isObjects(ast)) return new Set()
  return new Set(ast.propertySignatures.filter((p) => SchemaAST.isArrays(SchemaAST.toEncoded(p.type))).map((p) => String(p.name)))
}

export const RequestValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error, { endpoint }) =>
  Effect.gen(function* () {
    const query = error.kind === "Query" ? yield* Effect.serviceOption(HttpServerRequest.ParsedSearchParams) : Option.none()
    const lists = error.kind === "Query" ? listParameters(endpoint.query) : new Set<string>()
    const repeated = (path: ReadonlyArray<string | number>) =>
      path.length === 1 && !lists.has(String(path[0])) && Option.isSome(query) && Array.isArray(query.value[String(path[0])])
    const issues = formatIssues(error.cause.issue).issues.map((i) => {
      const path = (i.path ?? []).map((p) => (typeof p === "object" && p !== null && "key" in p ? p.key : p)) as Array<string | number>
      return { path, message: repeated(path) ? REPEATED : i.message }
    })
    const first = issues[0]
    const name = first !== undefined && first.path.length > 0 ? String(first.path[0]) : error.kind.toLowerCase()
    const where = { Params: "path parameter", Query: "query parameter", Headers: "header", Body: "body field", Payload: "body field", ResponseHeaders: "response header" }[error.kind]
    return yield* Effect.fail(
      new InvalidParameter({
        parameter: name,
        message: `invalid ${where} ${name}: ${first?.message ?? "invalid value"}`,
        issues,
      }),
    )
  }),
)
