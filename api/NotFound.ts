/**
 * Unknown paths answer 404 in the one JSON error shape instead of an empty body (405 with `Allow`
 * when only the method is wrong): a catch-all route for requests no route matches, and a global
 * middleware for the requests the router cannot match at all (an invalid percent-encoding in the
 * path: 400; a path parameter longer than the router's limit: 404), which effect answers with an
 * empty 404 otherwise.
 */
import { Effect } from "effect"
import { FindMyWay, HttpRouter, HttpServerError, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApi } from "effect/http-api"
import { Api } from "./Api.ts"
import { beforeQuery } from "./http/Recent.ts"
import { routePath } from "./http/RoutePath.ts"
import { isAccountPath } from "./web/Cors.ts"
import { DOCS_ROUTES } from "./web/DocsRoutes.ts"
import { REGISTER_ROUTES } from "./web/RegisterRoutes.ts"

const notFound = (method: string, path: string, why = "") =>
  HttpServerResponse.jsonUnsafe({ error: "not_found", status: 404, message: `no route ${method} ${path}${why}` }, { status: 404 })

/** Where the contract is served (HttpApiBuilder's `openapiPath`, api/Server.ts). */
export const OPENAPI_PATH = "/openapi.json"

/**
 * Routes besides the API's endpoints (which HttpApi.reflect lists), as their modules declare them:
 * the contract, the docs and the registration pages. Only used to tell a wrong method (405) from
 * an unknown path (404).
 */
export const PAGE_ROUTES: ReadonlyArray<readonly [string, FindMyWay.PathInput]> = [
  ["GET", OPENAPI_PATH],
  ...DOCS_ROUTES,
  ...REGISTER_ROUTES,
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

/** The router's "no route" for a request it could not match at all. */
const routeNotFound = (error: unknown): HttpServerError.RouteNotFound | undefined =>
  HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound" ? error.reason : undefined

const answerUnmatched = (error: unknown): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => {
  const reason = routeNotFound(error)
  if (reason === undefined) return Effect.fail(error)
  if (routePath(reason.request.url) === null) {
    return Effect.succeed(
      HttpServerResponse.jsonUnsafe(
        { error: "bad_request", status: 400, message: "the request path has an invalid percent-encoding" },
        { status: 400 },
      ),
    )
  }
  const why = reason.description === undefined ? "" : `: ${reason.description}`
  return Effect.succeed(notFound(reason.request.method, beforeQuery(reason.request.url), why))
}

/** The router's own "no route" (a request it could not match at all) in the JSON error shape. */
export const JsonUnmatched = HttpRouter.middleware(
  Effect.succeed((app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) => Effect.catch(app, answerUnmatched)),
  { global: true },
)
