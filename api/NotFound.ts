/**
 * Unknown paths answer 404 in the one JSON error shape instead of an empty body: a catch-all route
 * for paths no route matches, and a global middleware for the requests the router cannot match at
 * all (an invalid percent-encoding in the path: 400; a path parameter longer than the router's
 * limit: 404), which effect answers with an empty 404 otherwise.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerError, HttpServerResponse } from "effect/http"
import { routePath } from "./http/RoutePath.ts"

const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query < 0 ? url : url.slice(0, query)
}

const notFound = (method: string, path: string, why = "") =>
  HttpServerResponse.jsonUnsafe({ error: "not_found", status: 404, message: `no route ${method} ${path}${why}` }, { status: 404 })

export const JsonNotFound = HttpRouter.use((router) =>
  router.add("*", "*", (request) => Effect.succeed(notFound(request.method, new URL(request.url, "http://x").pathname))),
)

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
  return Effect.succeed(notFound(reason.request.method, pathOf(reason.request.url), why))
}

/** The router's own "no route" (a request it could not match at all) in the JSON error shape. */
export const JsonUnmatched = HttpRouter.middleware(
  Effect.succeed((app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) => Effect.catch(app, answerUnmatched)),
  { global: true },
)
