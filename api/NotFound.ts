/** Unknown paths answer 404 in the one JSON error shape instead of an empty body. */
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

export const JsonNotFound = HttpRouter.use((router) =>
  router.add("*", "*", (request) =>
    Effect.succeed(
      HttpServerResponse.jsonUnsafe(
        { error: "not_found", status: 404, message: `no route ${request.method} ${new URL(request.url, "http://x").pathname}` },
        { status: 404 },
      ),
    ),
  ),
)

