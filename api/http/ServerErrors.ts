/**
 * Failures on our side, answered and logged, and every error answer in the one error shape, as a
 * global router middleware around every route (the API, the pages, the catch-all) and every other
 * middleware (api/Server.ts installs it first):
 *   - a defect or an error no route declares (effect's empty 500 without a content type) is a 500
 *     in the one error shape, with the request id, and an error line with its cause;
 *   - every 4xx and 5xx in the API's error shape becomes an RFC 9457 problem document whose
 *     `instance` is the request id; a 5xx's body gets `request_id` too, so a client reporting one
 *     quotes the id the log knows it by.
 * Interruptions (the client left, the server stops) stay effect's own.
 */
import { Cause, Effect } from "effect"
import { HttpBody, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type ErrorFields, PROBLEM_CONTENT_TYPE, problemOf } from "../../schemas/Problem.ts"
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
  body._tag === "Uint8Array" && (body.contentType.startsWith("application/json") || body.contentType.startsWith(PROBLEM_CONTENT_TYPE))

/** The members a problem document's own producer may have set: made again from `error`, `status` and `message`. */
const PROBLEM_MEMBERS = ["type", "title", "detail", "instance"] as const

/** A body in the API's error shape: a JSON object with a string `error`, a numeric `status` and a string `message`. */
const errorFieldsOf = (parsed: unknown): ErrorFields | undefined => {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined
  const { error, status, message } = parsed as Record<string, unknown>
  return typeof error === "string" && typeof status === "number" && typeof message === "string" ? (parsed as ErrorFields) : undefined
}

/**
 * A 4xx or 5xx as sent: every body in the API's error shape, whoever made it (a route's declared
 * error, the catch-all 404, the edge's 429, the MCP route's refusals), becomes its RFC 9457
 * problem document (schemas/Problem.ts) with the request id as `instance`, sent as
 * `application/problem+json`; a 5xx's also gets `request_id`. An empty 5xx becomes the problem of
 * its status. Any other body (the probes' status documents, the /register pages' HTML: not ours to
 * rewrite) and the headers are kept.
 */
export const asProblem = (response: HttpServerResponse.HttpServerResponse, id: string | undefined): HttpServerResponse.HttpServerResponse => {
  if (response.status < 400) return response
  const body = response.body
  const tagged = id !== undefined && response.status >= 500 ? { request_id: id } : {}
  if (body._tag === "Empty") {
    if (response.status < 500) return response
    const [error, message] = MESSAGES[response.status] ?? MESSAGES[500]!
    return problemResponse(response, problemOf({ error, status: response.status, message, ...tagged }, id))
  }
  if (!isJson(body)) return response
  let parsed: unknown
  try {
    parsed = JSON.parse(body.text ?? new TextDecoder().decode(body.body))
  } catch {
    return response
  }
  const fields = errorFieldsOf(parsed)
  if (fields === undefined) return response
  const own = Object.fromEntries(Object.entries(fields).filter(([key]) => !(PROBLEM_MEMBERS as ReadonlyArray<string>).includes(key)))
  return problemResponse(response, problemOf({ ...(own as ErrorFields), ...("request_id" in own ? {} : tagged) }, id))
}

const problemResponse = (response: HttpServerResponse.HttpServerResponse, problem: unknown) =>
  HttpServerResponse.setBody(response, HttpBody.jsonUnsafe(problem, PROBLEM_CONTENT_TYPE))

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
          Effect.map((response) => asProblem(response, id)),
          Effect.catchCause((cause) => {
            if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
            return Effect.flatMap(HttpServerError.causeResponse(cause), ([response]) => {
              // a client error effect makes of a failure (a respondable one) stays as effect answers it
              if (response.status < 500) return Effect.failCause(cause)
              sink(errorLine(request, id, response.status, cause))
              return Effect.succeed(asProblem(response, id))
            })
          }),
        )
      }),
    ),
    { global: true },
  )
