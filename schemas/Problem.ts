/**
 * Every 4xx/5xx answer of the API is an RFC 9457 problem document (`application/problem+json`):
 *   { "type": "/docs#error-<code>", "title": "<fixed per code>", "status": <http status>,
 *     "detail": "<for people>", "instance": "urn:fds:request:<X-Request-Id>",
 *     "error": "<code>", "message": "<= detail>", "parameter"?, "issues"?, "request_id"? (5xx) }
 * `error`, `message`, `parameter`, `issues` and `request_id` are the members of the API's error
 * shape before RFC 9457, kept so that clients reading them keep working.
 *
 * `type` is an absolute-path reference (RFC 9457 §3.1.1 allows it when it holds the full path):
 * the service is served at its origin's root (FDS_PUBLIC_URL is an origin), so it resolves against
 * the URL called to the code's entry on /docs, whose anchor is `error-<code>`. `instance` is the
 * answer's X-Request-Id as a URN: it names this occurrence, the one the server's log knows, and is
 * not meant to be dereferenced.
 */

export const PROBLEM_CONTENT_TYPE = "application/problem+json"

/** One code of the catalogue: its fixed title, the statuses it comes with, and what to do. */
export interface ProblemKind {
  readonly title: string
  readonly status: number
  readonly about: string
}

const kind = (status: number, title: string, about: string): ProblemKind => ({ status, title, about })

/** Retry after Retry-After: the server side cannot answer now (503). */
const unavailable = (title: string, about: string) => kind(503, title, `${about} Retry after \`Retry-After\`.`)

/** Every `error` code the API answers, with its title: the catalogue /docs lists (anchor `error-<code>`). */
export const PROBLEM_KINDS = {
  bad_request: kind(400, "Bad request", "A parameter that is malformed rather than out of range (`month` not YYYY-MM), a request path with an invalid percent-encoding, a body that cannot be read, or malformed HTTP. Do not retry unchanged."),
  unauthorized: kind(401, "API key missing, invalid or revoked", "Send a valid key in `X-Api-Key` or `Authorization: Bearer` (never in the query string). Do not retry until fixed."),
  not_signed_in: kind(401, "Not signed in", "An account route without a valid session cookie: sign in first."),
  untrusted_origin: kind(403, "Untrusted origin", "An account or MCP request sent by a browser from another site. Not a quota signal; do not retry."),
  forbidden: kind(403, "Forbidden", "`/metrics` with a key that is not of the internal tier."),
  not_found: kind(404, "Not found", "An id outside the published universe, a batch never published, or a path no route takes. Do not retry."),
  method_not_allowed: kind(405, "Method not allowed", "The path exists but not with this method; `Allow` lists the methods it takes."),
  request_timeout: kind(408, "Request timeout", "The request did not arrive in time; the connection is closed."),
  batch_not_retained: kind(410, "Batch no longer retained", "A published batch whose snapshot file retention removed; the detail names its content hash and how to rebuild it."),
  payload_too_large: kind(413, "Request body too large", "The request body is over 16 KiB."),
  unsupported_media_type: kind(415, "Unsupported media type", "The request body is of a type the route does not take (the account routes take JSON)."),
  range_not_satisfiable: kind(416, "Range not satisfiable", "A snapshot download's `Range` starts past the end of the file; `Content-Range` gives its size."),
  invalid_parameter: kind(422, "Invalid parameter", "A parameter with an invalid value, or one the route does not take; `parameter` names it, `issues` say what is wrong. Do not retry unchanged."),
  quota_exceeded: kind(429, "Daily quota exhausted", "The key's daily quota is used up (`X-RateLimit-Remaining: 0`). Do not retry before `X-RateLimit-Reset`; this answer is not counted."),
  rate_limited: kind(429, "Too many requests", "Too many requests from this address (or mails asked for one address). Retry after `Retry-After`; no quota was used."),
  headers_too_large: kind(431, "Request headers too large", "The request line and headers exceed 16 KiB; the connection is closed."),
  internal_error: kind(500, "Internal error", "The server failed to answer; quote `request_id` (also `instance`) when reporting it. Retry with backoff."),
  service_unavailable: unavailable("Service unavailable", "The service cannot answer right now."),
  starting: unavailable("Server starting", "The server is starting (its stores are being opened)."),
  snapshot_unavailable: unavailable("No batch available", "No published batch is served yet, or the server is stopping."),
  snapshot_changed: unavailable("Batch changed during the request", "A new batch was published while the request was read."),
  snapshot_damaged: unavailable("Batch file damaged", "The batch's file failed its check; another copy or batch is being brought in."),
  batch_unreadable: unavailable("Batch unreadable", "The named batch's file cannot be read now."),
  batch_fetching: unavailable("Batch being fetched", "The named batch's file is being brought from the fleet's storage."),
  batch_unavailable: unavailable("Batch unavailable", "The batch the comparison needs cannot be read now."),
  past_batches_busy: unavailable("Past batches busy", "Too many past batches are open for other requests."),
  ledger_unavailable: unavailable("Ledger unavailable", "The list of published batches cannot be read now."),
  not_in_step: unavailable("Replica not in step", "This replica is not on the fleet's current batch; another replica answers."),
  fi_unavailable: unavailable("Investment fund data unavailable", "The published batch has no investment fund and ETF part; it comes back with another batch (Retry-After: an hour). Mutual fund routes still answer."),
  basis_not_enabled: unavailable("Return basis not enabled", "The return basis asked for is not enabled on this server yet; use the default basis or retry later."),
  key_check_unavailable: unavailable("API key cannot be checked", "The key store cannot be read now; a key that cannot be checked is never let through."),
  accounts_unavailable: unavailable("Accounts unavailable", "The accounts store cannot be reached now."),
  mail_unavailable: unavailable("Mail unavailable", "A mail cannot be sent now."),
  login_unavailable: unavailable("Sign-in unavailable", "The identity provider cannot be reached now."),
  exports_busy: unavailable("Exports busy", "Too many bulk exports are being prepared."),
  render_busy: unavailable("Too many answers being prepared", "Answers for other dates or filters are being prepared."),
} as const satisfies Readonly<Record<string, ProblemKind>>

export type ProblemCode = keyof typeof PROBLEM_KINDS

export const isProblemCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEM_KINDS, code)

/** The /docs anchor of a code. */
export const problemAnchor = (code: string): string => `error-${code}`

/** `type` of a code: its entry on /docs; `about:blank` (RFC 9457 §4.2.1) for a code not in the catalogue. */
export const problemType = (code: string): string => (isProblemCode(code) ? `/docs#${problemAnchor(code)}` : "about:blank")

/** The reason phrase of a status, the title of `about:blank` (RFC 9457 §4.2.1). */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
}

/** `title` of a code: fixed per code (the status's reason phrase for one not in the catalogue). */
export const problemTitle = (code: string, status: number): string =>
  isProblemCode(code) ? PROBLEM_KINDS[code].title : (STATUS_TEXT[status] ?? "Error")

/** `instance` of an answer: its X-Request-Id as a URN. */
export const problemInstance = (requestId: string): string => `urn:fds:request:${requestId}`

/** The error shape before RFC 9457: what every producer of an error still writes. */
export interface ErrorFields {
  readonly error: string
  readonly status: number
  readonly message: string
  readonly [member: string]: unknown
}

/**
 * The problem document of an error: the RFC 9457 members first, then the error's own (kept as
 * they are). `instance` when the answer has a request id (every HTTP answer has one).
 */
export const problemOf = (fields: ErrorFields, requestId?: string): Readonly<Record<string, unknown>> => {
  const { error, status, message, ...rest } = fields
  return {
    type: problemType(error),
    title: problemTitle(error, status),
    status,
    detail: message,
    ...(requestId === undefined ? {} : { instance: problemInstance(requestId) }),
    error,
    message,
    ...rest,
  }
}
