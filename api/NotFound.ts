/**
 * Unknown paths answer 404 in the one error shape (made an RFC 9457 problem document on its way
 * out, api/http/ServerErrors.ts) instead of an empty body (405 with `Allow`
 * when only the method is wrong): a catch-all route for requests no route matches, and a global
 * middleware for the requests the router cannot match at all (an invalid percent-encoding in the
 * path: 400; a path parameter longer than the router's limit: 404), which effect answers with an
 * empty 404 otherwise.
 */
import { ByteSize, type Cause, Effect, Layer } from "effect"
import { FindMyWay, HttpIncomingMessage, HttpRouter, HttpServerError, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi } from "effect/http-api"
import { Api } from "./Api.ts"
import { beforeQuery } from "./http/Recent.ts"
import { routePath } from "./http/RoutePath.ts"
import { isAccountPath } from "./web/Cors.ts"
import { DOCS_ROUTES } from "./web/DocsRoutes.ts"
import { LANDING_ROUTES } from "./web/LandingRoutes.ts"
import { REGISTER_ROUTES } from "./web/RegisterRoutes.ts"
import { FEED_ROUTES } from "./webhooks/EventsFeed.ts"

const notFound = (method: string, path: string, why = "") =>
  HttpServerResponse.jsonUnsafe({ error: "not_found", status: 404, message: `no route ${method} ${path}${why}` }, { status: 404 })

/** Where the contract is served (HttpApiBuilder's `openapiPath`, api/Server.ts). */
export const OPENAPI_PATH = "/openapi.json"

/**
 * Routes besides the API's endpoints (which HttpApi.reflect lists), as their modules declare them:
 * the contract, the landing page, the docs and the registration pages. Only used to tell a wrong
 * method (405) from an unknown path (404).
 */
export const PAGE_ROUTES: ReadonlyArray<readonly [string, FindMyWay.PathInput]> = [
  ["GET", OPENAPI_PATH],
  ...LANDING_ROUTES,
  ...DOCS_ROUTES,
  ...REGISTER_ROUTES,
  ...FEED_ROUTES,
]

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

let table: FindMyWay.Router<true> | undefined
/** The methods some route takes at `path` (the router's own matching rules), in METHODS order. */
export const allowedMethods = (path: string): ReadonlyArray<string> => {
  if (table === undefined) {
    const routes = FindMyWay.make<true>()
    HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => routes.on(endpoint.method, endpoint.path as FindMyWay.PathInput, true) })
    for (const [method, route] of PAGE_ROUTES) routes.on(method, route, true)
    table = routes
  }
  const routes = table
  return METHODS.filter((method) => routes.find(method, path) !== undefined)
}

/**
 * A path no route of the request's method takes: 405 with `Allow` when routes of other methods
 * take it (an `OPTIONS` there: 204 with `Allow`), else 404.
 */
const unrouted = (request: HttpServerRequest.HttpServerRequest): HttpServerResponse.HttpServerResponse => {
  // the path as the router read it (`new URL` would take `//api/me` for host `api`, path `/me`)
  const path = routePath(request.url) ?? beforeQuery(request.url)
  const allowed = allowedMethods(path)
  // the table is coarser than the router (`/docs/*` for the listed assets): its own method there is no route
  if (allowed.length === 0 || allowed.includes(request.method)) return notFound(request.method, path)
  // HEAD is the GET except on account paths (api/http/RequestLog.ts headAsGet)
  const head = allowed.includes("GET") && !isAccountPath(path)
  const allow = [...allowed, ...(head ? ["HEAD"] : []), "OPTIONS"].join(", ")
  if (request.method === "OPTIONS") return HttpServerResponse.empty({ status: 204, headers: { allow } })
  return HttpServerResponse.jsonUnsafe(
    { error: "method_not_allowed", status: 405, message: `${request.method} is not allowed on ${path}; allowed: ${allow}` },
    { status: 405, headers: { allow } },
  )
}

export const JsonNotFound = HttpRouter.use((router) => router.add("*", "*", (request) => Effect.sync(() => unrouted(request))))

/**
 * No request body is read past 16 KiB (the account routes take small JSON; `/register`'s form has
 * its own 4 KiB): a larger one is 413 instead of being parsed in memory.
 */
export const MAX_BODY = ByteSize.kibibytes(16)
export const BodyLimit = Layer.succeed(HttpIncomingMessage.MaxBodySize, MAX_BODY)

/** The router's "no route" for a request it could not match at all. */
const routeNotFound = (error: unknown): HttpServerError.RouteNotFound | undefined =>
  HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound" ? error.reason : undefined

/** A body effect could not read (over the size limit, or unreadable), as a failure or a defect of the request. */
const unreadableBody = (cause: Cause.Cause<unknown>): "BodyTooLarge" | "Parse" | undefined => {
  for (const reason of cause.reasons) {
    const error = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    if (HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError") {
      return error.reason.reason === "BodyTooLarge" ? "BodyTooLarge" : "Parse"
    }
  }
  return undefined
}

const jsonError = (status: number, error: string, message: string) =>
  HttpServerResponse.jsonUnsafe({ error, status, message }, { status })

const answerUnmatched = (error: unknown): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
  const reason = routeNotFound(error)
  if (reason === undefined) return Effect.fail(error)
  if (routePath(reason.request.url) === null) {
    return Effect.succeed(jsonError(400, "bad_request", "the request path has an invalid percent-encoding"))
  }
  const why = reason.description === undefined ? "" : `: ${reason.description}`
  return Effect.succeed(notFound(reason.request.method, beforeQuery(reason.request.url), why))
}

const answerUnreadable = (cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
  const unreadable = unreadableBody(cause)
  if (unreadable === "BodyTooLarge") {
    return Effect.succeed(jsonError(413, "payload_too_large", `the request body is over ${ByteSize.format(MAX_BODY)}`))
  }
  if (unreadable === "Parse") return Effect.succeed(jsonError(400, "bad_request", "the request body could not be read"))
  return Effect.failCause(cause)
}

/** effect's plain-text 415 for a body of a type the route does not take, in the error shape. */
const jsonUnsupported = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse =>
  response.status === 415 && response.body._tag === "Uint8Array" && response.body.contentType.startsWith("text/plain")
    ? jsonError(415, "unsupported_media_type", new TextDecoder().decode(response.body.body))
    : response

/**
 * What effect answers with an empty or plain-text body, in the error shape: the router's own
 * "no route" (a request it could not match at all), a body over the limit (413) or unreadable
 * (400), and a body of a type the route does not take (415).
 */
export const JsonUnmatched = HttpRouter.middleware(
  Effect.succeed((app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) =>
    app.pipe(Effect.catch(answerUnmatched), Effect.catchCause(answerUnreadable), Effect.map(jsonUnsupported)),
  ),
  { global: true },
)
