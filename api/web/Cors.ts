/**
 * CORS. Data routes are readable from any origin (the key, not the origin, authorises them) and
 * expose the quota headers, Retry-After, ETag (for If-None-Match), X-Request-Id, Batch-Id (the batch that answered), Link (a paged list's pages) and, for a download a
 * browser resumes and checks, Accept-Ranges, Content-Range, Content-Disposition and Repr-Digest to
 * scripts (Range and If-Range are allowed request headers). Account routes and /register get no CORS
 * headers: they are same-origin pages and calls on the public origin.
 */
import { Effect } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { routePath } from "../http/RoutePath.ts"

const ACCOUNT_PATH = /^\/(?:api\/(?:auth|me|alerts)|register)(?:\/|$)/

/** Account routes and the registration pages (the target's path as the router reads it): same-origin only. */
export const isAccountPath = (url: string): boolean => {
  const path = routePath(url)
  return path !== null && ACCOUNT_PATH.test(path)
}

const EXPOSED =
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, X-Request-Id, Batch-Id, Link, " +
  "Accept-Ranges, Content-Range, Content-Disposition, Repr-Digest"

const DATA_CORS: Readonly<Record<string, string>> = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED }

/** The CORS headers of a response to a request for `url` with `origin` (none for account paths or without Origin). */
export const corsHeadersFor = (origin: string | undefined, url: string): Readonly<Record<string, string>> | undefined =>
  origin === undefined || isAccountPath(url) ? undefined : DATA_CORS

/** The CORS headers of a response to `request` (none for account paths or without Origin). */
export const corsHeaders = (request: HttpServerRequest.HttpServerRequest): Readonly<Record<string, string>> | undefined =>
  corsHeadersFor(request.headers.origin, request.url)

const preflight = HttpServerResponse.empty({
  status: 204,
  headers: {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, HEAD, OPTIONS",
    "access-control-allow-headers": "X-Api-Key, Authorization, If-None-Match, Range, If-Range",
    "access-control-max-age": "600",
  },
})

/** Answers preflights of data routes and adds the CORS headers to every data response. */
export const cors = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const headers = corsHeaders(request)
    if (headers === undefined) return app
    if (request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined) {
      return Effect.succeed(preflight)
    }
    return Effect.andThen(
      HttpEffect.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, headers)),
      ),
      app,
    )
  })
