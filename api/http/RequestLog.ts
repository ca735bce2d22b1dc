/**
 * The request id and the access log, at the Node level (it sees every answer: routed, 404,
 * the edge's 429, errors, and requests whose client went away).
 *   - `X-Request-Id`: an incoming one of 1–64 chars of [A-Za-z0-9._-] that is not shaped like a
 *     key is echoed, else a new UUID; the request carries the id it is known by from then on.
 *   - One JSON line per request on stdout: time, method, path (path segments, query names and
 *     values shaped like a key, with or without its prefix, plainly or percent-encoded, and values
 *     under secret names, after `?` or `;`, replaced by "[redacted]"), status, duration_ms,
 *     request_id and the key's lookup token (the clear 8 characters that find its row), never the
 *     key, never headers.
 */
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { parseKey } from "../../accounts/ApiKey.ts"
import { PROBLEM_CONTENT_TYPE, problemOf } from "../../schemas/Problem.ts"
import { type ConnectionLimits, guardConnections, timeoutOptions } from "../ratelimit/ConnectionGuard.ts"
import { isAccountPath } from "../web/Cors.ts"
import type { HitPath } from "./HitPath.ts"
import { recent, requestUrl } from "./Recent.ts"
import { routePath } from "./RoutePath.ts"
import { bearerToken, decodedLoosely, holdsKey, SECRET_QUERY_NAMES } from "./Secrets.ts"
import { logLine } from "../../snapshots/Log.ts"

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/
const KEY_NAMES = new Set(SECRET_QUERY_NAMES)

/** The header holding the request id: on the response, and on the request once the listener has run. */
export const REQUEST_ID_HEADER = "x-request-id"

/** The incoming X-Request-Id when it is short, of safe characters and not shaped like a key; else a fresh UUID. */
export const requestIdOf = (incoming: string | undefined): string =>
  incoming !== undefined && SAFE_ID.test(incoming) && !holdsKey(incoming) ? incoming : randomUUID()

/** Where the router's query begins: the first `?`, `;` or `#` after the path's first character. */
const QUERY_START = /[?;#]/u

/**
 * What a piece of a cut key looks like: 8 or more of a key's characters (base62 and `_`) with
 * letters of both cases, as random base62 has (route words like `real_assets` are in one case).
 */
const mayBeKeyPiece = (text: string): boolean => {
  const plain = decodedLoosely(text)
  return /^[0-9A-Za-z_]{8,}$/u.test(plain) && /[A-Z]/u.test(plain) && /[a-z]/u.test(plain)
}

/** A path segment that holds a key, plainly or percent-encoded, is not written out. */
const loggableSegment = (segment: string): string => (holdsKey(segment) ? "[redacted]" : segment)

/**
 * The target as logged: the path with any segment holding a key replaced, and the query (what
 * follows the first `?`, `;` or `#`, as the router reads it) with values under secret names or
 * holding a key replaced by "[redacted]".
 */
export const loggablePath: (url: string) => string = recent(256, (url) => {
  const parsed = url.startsWith("/") ? undefined : requestUrl(url)
  const target = parsed === undefined ? url : `${parsed.pathname}${parsed.search}`
  const end = target.slice(1).search(QUERY_START)
  const segments = (end < 0 ? target : target.slice(0, end + 1)).split("/")
  // A key cut into several segments: each piece may be too short to look like one, the whole does.
  const splitInPath = holdsKey(segments.map(decodedLoosely).join(""))
  const path = segments.map((segment) => (splitInPath && mayBeKeyPiece(segment) ? "[redacted]" : loggableSegment(segment))).join("/")
  if (end < 0) return path
  const pairs = [...new URLSearchParams(target.slice(end + 2))]
  // …or into several query names and values.
  const splitInQuery = holdsKey(pairs.map(([name, value]) => `${name}${value}`).join(""))
  const parts: Array<string> = []
  for (const [name, value] of pairs) {
    const secret = KEY_NAMES.has(name.toLowerCase()) || holdsKey(value) || (splitInQuery && mayBeKeyPiece(value))
    // a key sent as a name (`?fds_…`) is redacted too
    const shownName = holdsKey(name) || (splitInQuery && mayBeKeyPiece(name)) ? "[redacted]" : encodeURIComponent(name)
    parts.push(`${shownName}=${secret ? "[redacted]" : encodeURIComponent(value)}`)
  }
  return parts.length === 0 ? path : `${path}${target[end + 1]}${parts.join("&")}`
})

/** The lookup token of the key the request carries (X-Api-Key or Bearer), when well formed. */
export const keyLookupOf = (headers: Readonly<Record<string, string | undefined>>): string | null => {
  const bearer = bearerToken(headers.authorization)
  const key = headers["x-api-key"] ?? bearer
  return key === undefined ? null : (parseKey(key.trim())?.lookup ?? null)
}

export interface AccessLogLine {
  readonly time: string
  readonly level: "info"
  readonly msg: "request"
  readonly method: string
  readonly path: string
  readonly status: number
  readonly duration_ms: number
  readonly request_id: string
  readonly key_lookup: string | null
}

export type AccessLogSink = (line: AccessLogLine) => void

/**
 * Lines of one turn of the event loop go out in one write (a write per request cost ~5 % of a
 * small request's CPU); what is pending when the process exits is written then.
 */
let pending: string[] = []
const flush = (): void => {
  if (pending.length === 0) return
  const text = pending.join("")
  pending = []
  process.stdout.write(text)
}
let exitHook = false
/**
 * The line as JSON.stringify writes it, the fields in their order; only the path is escaped (the
 * method is an HTTP token, the id of safe characters or a UUID, the lookup token base62): half
 * the cost of stringifying the object, on every request.
 */
export const accessLogText = (line: AccessLogLine): string =>
  `{"time":"${line.time}","level":"info","msg":"request","method":"${line.method}","path":${JSON.stringify(line.path)},"status":${line.status},"duration_ms":${line.duration_ms},"request_id":"${line.request_id}","key_lookup":${line.key_lookup === null ? "null" : `"${line.key_lookup}"`}}\n`
const stdoutSink: AccessLogSink = (line) => {
  if (pending.length === 0) setImmediate(flush)
  pending.push(accessLogText(line))
  if (!exitHook) {
    exitHook = true
    process.once("exit", flush)
  }
}

/**
 * Status logged for a request whose client went away before its answer was sent (nginx's
 * "client closed request").
 */
export const CLIENT_CLOSED = 499

/**
 * The request id and the access line, at the Node level: a `request` listener that runs before
 * the application's (it is added when the server is created). It sets `X-Request-Id` on the
 * response (Node merges it with the headers the application writes) and on the request (where
 * the application reads the id it quotes in a 5xx body, api/http/ServerErrors.ts), and logs once
 * the response is closed: the status sent (all of the answer or part of it), or 499 when nothing
 * was sent.
 *
 * It used to be an effect middleware around the whole application; that took every request off
 * effect's one-frame path and kept each request's objects alive past a young-generation
 * collection (≈3 MB copied per scavenge under load): `make bench` measured ~25–40 % more
 * requests per second without it.
 */
/** Paths answered but not logged per request: the probes and the metrics, asked every few seconds. */
export const UNLOGGED_PATHS: ReadonlySet<string> = new Set(["/livez", "/readyz", "/metrics"])

/** Told of every answer (the metrics): method as asked, target, status sent (499: none), seconds. */
export type AnswerObserver = (method: string, url: string, status: number, seconds: number) => void

/** The time as ISO 8601, made once per millisecond (many requests end in the same one under load). */
let lastMillis = Number.NaN
let lastIso = ""
const isoNow = (): string => {
  const now = Date.now()
  if (now !== lastMillis) {
    lastMillis = now
    lastIso = new Date(now).toISOString()
  }
  return lastIso
}

export const accessLogListener =
  (sink: AccessLogSink = stdoutSink, observe?: AnswerObserver) =>
  (request: IncomingMessage, response: ServerResponse): void => {
    const started = performance.now()
    const method = request.method ?? "" // as asked (headAsGet changes a HEAD to GET for the application)
    const incoming = request.headers[REQUEST_ID_HEADER]
    const id = requestIdOf(typeof incoming === "string" ? incoming : undefined)
    request.headers[REQUEST_ID_HEADER] = id
    response.setHeader(REQUEST_ID_HEADER, id)
    response.once("close", () => {
      const status = response.headersSent ? response.statusCode : CLIENT_CLOSED
      const url = request.url ?? "/"
      observe?.(method, url, status, (performance.now() - started) / 1000)
      if (UNLOGGED_PATHS.has(routePath(url) ?? "")) return
      sink({
        time: isoNow(),
        level: "info",
        msg: "request",
        method,
        path: loggablePath(url),
        // the status the client was sent (all of the answer or part of it); 499 when nothing was
        status,
        duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
        request_id: id,
        key_lookup: keyLookupOf(request.headers as Readonly<Record<string, string | undefined>>),
      })
    })
  }

/**
 * A Node HTTP server whose every request is logged (`accessLogListener`) before it is served:
 * ordinary requests and those with `Expect: 100-continue` (Node's `checkContinue`). The API has
 * no upgrade routes, so the server accepts no upgrade (`shouldUpgradeCallback`, Node ≥ 24.9): a
 * request asking to upgrade (`Upgrade: websocket`, `h2c`) is an ordinary request to Node, answered
 * and logged as one, whatever `upgrade` listener effect's Node server adds. Slow and greedy
 * clients meet the limits of api/ratelimit/ConnectionGuard.ts.
 */
export const loggedServer = (sink?: AccessLogSink, limits?: ConnectionLimits, observe?: AnswerObserver, hits?: HitPath) => (): Server => {
  const server = createServer({ shouldUpgradeCallback: () => false, ...timeoutOptions(limits) })
  guardConnections(server, limits)
  const listener = accessLogListener(sink, observe)
  if (hits !== undefined) answerHitsFirst(server, hits)
  for (const event of ["request", "checkContinue"] as const) {
    server.on(event, listener)
    server.on(event, headAsGet)
    // the port is bound before the application attaches its listener (the accounts services need
    // the bound address): a request in between would get no answer at all, and a start-up probe
    // would hang; it is 503 with Retry-After instead
    const ours = server.listenerCount(event) + 1
    server.on(event, (request: IncomingMessage, response: ServerResponse) => {
      if (server.listenerCount(event) > ours) return
      if (routePath(request.url ?? "/") === "/livez") {
        // alive while it starts (the accounts store may be awaited for a long time): only not ready
        response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" })
        response.end(JSON.stringify({ status: "alive" }))
        return
      }
      const id = String(request.headers[REQUEST_ID_HEADER])
      const body = JSON.stringify(problemOf({ error: "starting", status: 503, message: "the server is starting; retry in a second", request_id: id }, id))
      response.writeHead(503, { "content-type": PROBLEM_CONTENT_TYPE, "retry-after": "1", "content-length": Buffer.byteLength(body) })
      response.end(body)
    })
  }
  server.on("clientError", answerClientError)
  // the address is known before the routes attach (effect's "Listening on" comes once they have):
  // a start that waits for the accounts store is reachable (/livez) and says where
  server.once("listening", () => {
    const address = server.address()
    if (typeof address !== "object" || address === null) return
    const host = address.family === "IPv6" ? `[${address.address}]` : address.address
    logLine("info", "port bound; routes attach once the stores are open", { url: `http://${host}:${address.port}` })
  })
  return server
}

/**
 * The hit path (HitPath.ts) between the server's own listeners and the application's: a request
 * is logged and its HEAD made a GET, then a kept answer may be sent at once; when it is not (or
 * later, when the hit path hands it over), the listeners after them (the application, or the
 * answer while it starts) run as they would have.
 */
const answerHitsFirst = (server: Server, hits: HitPath): void => {
  type Listener = (request: IncomingMessage, response: ServerResponse) => void
  // the listeners split in two, worked out again only when a "request" listener comes or goes
  let split: { readonly own: ReadonlyArray<Listener>; readonly others: ReadonlyArray<Listener> } | null = null
  const changed = (event: string | symbol) => {
    if (event === "request") split = null
  }
  server.on("newListener", changed)
  server.on("removeListener", changed)
  const emit = server.emit
  server.emit = function (this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
    const answer = hits.answer
    if (event !== "request" || answer === null) return Reflect.apply(emit, this, [event, ...args]) as boolean
    const [request, response] = args as [IncomingMessage, ServerResponse]
    if (split === null) {
      const listeners = this.listeners("request") as Array<Listener>
      // the server's own come first, up to HEAD as GET
      const own = listeners.indexOf(headAsGet) + 1
      split = { own: listeners.slice(0, own), others: listeners.slice(own) }
    }
    const { own, others } = split
    for (const first of own) first.call(this, request, response)
    const rest = () => {
      for (const other of others) other.call(this, request, response)
    }
    if (!answer(request, response, rest)) rest()
    return own.length + others.length > 0
  } as Server["emit"]
}

/**
 * A request Node cannot parse (headers over its 16 KiB limit, malformed HTTP, a request that
 * took too long to arrive) never reaches the application: answered here in the one error shape
 * (an RFC 9457 problem document, schemas/Problem.ts, with an X-Request-Id of its own), with the status Node would send (431, 408 or 400), and the connection closed. A socket
 * that already sent part of an answer, or cannot be written, is closed as Node would.
 */
const answerClientError = (error: Error & { readonly code?: string }, socket: Duplex): void => {
  if (!socket.writable || (socket as Duplex & { bytesWritten?: number }).bytesWritten) {
    socket.destroy()
    return
  }
  const [status, reason, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "headers_too_large", "the request line and headers exceed 16 KiB"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "request_timeout", "the request did not arrive in time"]
        : [400, "Bad Request", "bad_request", "the request is malformed HTTP"]
  // the request never reached the listener that gives ids: this answer gets one of its own
  const id = randomUUID()
  const body = JSON.stringify(problemOf({ error: code, status, message }, id))
  // written, then closed both ways as Node does (`end` alone leaves a half-open socket to a client that keeps its side open)
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nX-Request-Id: ${id}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  )
}

/**
 * HEAD is GET without the body (RFC 9110 §9.3.2), on the data routes, the contract and the docs:
 * the application (whose router has GET routes only) sees a GET, and Node, which made the
 * response for a HEAD, sends its status and headers (Content-Length, ETag, quota headers) but drops
 * the body. Counted like the GET. Not on the account and registration paths, whose GETs can act (a
 * sign-in callback redeems its code): a link checker's HEAD must not use them up, so HEAD there is
 * 405.
 */
const headAsGet = (request: IncomingMessage): void => {
  if (request.method === "HEAD" && !isAccountPath(request.url ?? "/")) {
    request.method = "GET"
    heads.add(request)
  }
}

const heads = new WeakSet<object>()

/**
 * Whether the application's GET came as a HEAD (`request` is the effect request's `source`):
 * Node will drop the body, so a route whose body is costly to make (a file download, an export)
 * can answer the headers alone.
 */
export const cameAsHead = (request: object): boolean => heads.has(request)
