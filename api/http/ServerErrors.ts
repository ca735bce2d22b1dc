/**
 * Failures on our side, answered and logged, as a global router middleware around every route
 * (the API, the pages, the catch-all) and every other middleware (api/Server.ts installs it first):
 *   - a defect or an error no route declares (effect's empty 500 without a content type) is a 500
 *     in the one JSON error shape, with the request id, and an error line with its cause;
 *   - every other 5xx in JSON (a route's 503) gets the request id in its body too, so a client
 *     reporting one quotes the id the log knows it by.
 * Interruptions (the client left, the server stops) stay effect's own.
 */
import { Cause, Effect } from "effect"
import { HttpBody, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { loggablePath, REQUEST_ID_HEADER } from "./RequestLog.ts"
import { redactKeys } from "./Secrets.ts"

export interface ErrorLogLine {
  readonly time: string
  readonly level: "error"
  readonly msg: "request failed"
  readonly method: string
  readonly path: string
  readonly status: number
  readonly request_id: string | null
  /** The failure as effect prints it (the defect's stack included), keys redacted. */
  readonly cause: string
}

export type ErrorLogSink = (line: ErrorLogLine) => void

/** Error lines go to stderr, as the other error lines of the server. */
const stderrSink: ErrorLogSink = (line) => {
  process.stderr.write(`${JSON.stringify(line)}\n`)
}

const MESSAGES: Readonly<Record<number, readonly [string, string]>> = {
  500: ["internal_error", "the server failed to answer this request; quote its request_id when reporting it"],
  503: ["service_unavailable", "the service cannot answer right now; retry later"],
}

const isJson = (body: HttpBody.HttpBody): body is HttpBody.Uint8Array =>
  body._tag === "Uint8Array" && body.contentType.startsWith("application/json")

/**
 * A 5xx as sent with the request id in its body: a JSON object body gets `request_id` added; an
 * empty one becomes the JSON error shape for its status (with the id when there is one). Any other body (not ours to rewrite) and
 * the headers are kept.
 */
export const withRequestId = (response: HttpServerResponse.HttpServerResponse, id: string | undefined): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  const tagged = id === undefined ? {} : { request_id: id }
  if (body._tag === "Empty") {
    const [error, message] = MESSAGES[response.status] ?? MESSAGES[500]!
    return HttpServerResponse.setBody(response, HttpBody.jsonUnsafe({ error, status: response.status, message, ...tagged }))
  }
  if (id === undefined || !isJson(body)) return response
  let parsed: unknown
  try {
    parsed = JSON.parse(body.text ?? new TextDecoder().decode(body.body))
  } catch {
    return response
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || "request_id" in parsed) return response
  return HttpServerResponse.setBody(response, HttpBody.jsonUnsafe({ ...parsed, request_id: id }, body.contentType))
}

const errorLine = (request: HttpServerRequest.HttpServerRequest, id: string | undefined, status: number, cause: Cause.Cause<unknown>): ErrorLogLine => ({
  time: new Date().toISOString(),
  level: "error",
  msg: "request failed",
  method: request.method,
  path: loggablePath(request.url),
  status,
  request_id: id ?? null,
  cause: redactKeys(Cause.pretty(cause)),
})

/** The middleware; error lines go to `sink` (default: stderr). */
export const serverErrorsLayer = (sink: ErrorLogSink = stderrSink) =>
  HttpRouter.middleware(
    Effect.succeed(<E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        // the access log listener put the id it gave the request here (api/http/RequestLog.ts)
        const id = request.headers[REQUEST_ID_HEADER]
        return app.pipe(
          Effect.map((response) => (response.status >= 500 ? withRequestId(response, id) : response)),
          Effect.catchCause((cause) => {
            if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
            return Effect.flatMap(HttpServerError.causeResponse(cause), ([response]) => {
              // a client error effect makes of a failure (a respondable one) stays as effect answers it
              if (response.status < 500) return Effect.failCause(cause)
              sink(errorLine(request, id, response.status, cause))
              return Effect.succeed(withRequestId(response, id))
            })
          }),
        )
      }),
    ),
    { global: true },
  )
