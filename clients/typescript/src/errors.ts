/**
 * What the service answers when it does not answer data: every 4xx and 5xx is an RFC 9457
 * problem document (`application/problem+json`), thrown here as a typed error carrying its
 * members. Branch on the class (or `code`), never on the text of `detail`. No error holds the
 * API key: the key is only ever in the X-Api-Key request header.
 */

/** An RFC 9457 problem document as the service sends it (docs/clients.md, "Errors"). */
export interface Problem {
  readonly type?: string
  readonly title?: string
  readonly status?: number
  readonly detail?: string
  readonly instance?: string
  /** The error code: `unauthorized`, `not_found`, `invalid_parameter`, `quota_exceeded`, … */
  readonly error?: string
  readonly message?: string
  /** 422: the parameter that is wrong. */
  readonly parameter?: string
  /** 422: what is wrong with it. */
  readonly issues?: ReadonlyArray<{ readonly path: ReadonlyArray<string | number>; readonly message: string }>
  /** 5xx: the answer's X-Request-Id. */
  readonly request_id?: string
}

/** Any answer the service gave that is not data. */
export class ApiError extends Error {
  override readonly name: string = "ApiError"
  /** The HTTP status. */
  readonly status: number
  /** The error code (`error` of the problem), or `http_<status>` for an answer without one. */
  readonly code: string
  readonly type: string | undefined
  readonly title: string | undefined
  readonly detail: string | undefined
  /** `urn:fds:request:<X-Request-Id>`: quote it when reporting a problem. */
  readonly instance: string | undefined
  readonly parameter: string | undefined
  readonly issues: Problem["issues"]
  /** The X-Request-Id the answer came with. */
  readonly requestId: string | undefined
  /** Retry-After of the answer, in seconds, when it had one. */
  readonly retryAfter: number | undefined
  /** The method and path called (never the key, which is only ever in a header). */
  readonly request: string

  constructor(status: number, problem: Problem, request: string, headers: Headers) {
    const code = problem.error ?? `http_${status}`
    super(`${request}: ${status} ${code}${problem.detail === undefined ? "" : `: ${problem.detail}`}`)
    this.status = status
    this.code = code
    this.type = problem.type
    this.title = problem.title
    this.detail = problem.detail ?? problem.message
    this.instance = problem.instance
    this.parameter = problem.parameter
    this.issues = problem.issues
    this.requestId = headers.get("x-request-id") ?? problem.request_id
    this.retryAfter = retryAfterSeconds(headers)
    this.request = request
  }
}

/** 401: the key is missing, malformed, unknown or revoked. Do not retry until it is fixed. */
export class Unauthorized extends ApiError {
  override readonly name = "Unauthorized"
}

/** 403: an account route called from another site, or a route the key's tier may not use. */
export class Forbidden extends ApiError {
  override readonly name = "Forbidden"
}

/** 404: an id outside the published batch, or a batch never published. */
export class NotFound extends ApiError {
  override readonly name = "NotFound"
}

/** 422: a parameter with an invalid value, or one the route does not take (`parameter` names it). */
export class InvalidParameter extends ApiError {
  override readonly name = "InvalidParameter"
}

/**
 * 429 `quota_exceeded`: the key's daily quota is used up. Never retried: the quota comes back at
 * `reset` (midnight in America/Santiago), hours away.
 */
export class QuotaExceeded extends ApiError {
  override readonly name = "QuotaExceeded"
  /** When the quota comes back (X-RateLimit-Reset). */
  readonly reset: Date | undefined
  /** The key's daily quota (X-RateLimit-Limit). */
  readonly limit: number | undefined

  constructor(status: number, problem: Problem, request: string, headers: Headers) {
    super(status, problem, request, headers)
    const reset = Number(headers.get("x-ratelimit-reset") ?? Number.NaN)
    this.reset = Number.isFinite(reset) ? new Date(reset * 1000) : undefined
    const limit = Number(headers.get("x-ratelimit-limit") ?? Number.NaN)
    this.limit = Number.isFinite(limit) ? limit : undefined
  }
}

/** 429 `rate_limited` still answered after the client's retries: too many requests from this address. */
export class RateLimited extends ApiError {
  override readonly name = "RateLimited"
}

/** 5xx still answered after the client's retries, or one whose Retry-After is longer than the client waits. */
export class ServiceUnavailable extends ApiError {
  override readonly name = "ServiceUnavailable"
}

/** A downloaded file whose SHA-256 is not the one the service announced (Repr-Digest); nothing was kept. */
export class DigestMismatch extends Error {
  override readonly name = "DigestMismatch"
  readonly path: string
  /** The announced and the computed SHA-256, base64. */
  readonly expected: string
  readonly actual: string
  constructor(path: string, expected: string, actual: string) {
    super(`${path}: SHA-256 ${actual}, the service announced ${expected}; the partial file was removed`)
    this.path = path
    this.expected = expected
    this.actual = actual
  }
}

/** A later page answered from another batch than the first page (the pages would not fit together). */
export class BatchChanged extends Error {
  override readonly name = "BatchChanged"
  readonly first: string
  readonly got: string
  constructor(first: string, got: string) {
    super(`a page was read from batch ${got}, the first page from ${first}`)
    this.first = first
    this.got = got
  }
}

/** Retry-After in seconds (delta-seconds or an HTTP date), when the answer has one. */
export const retryAfterSeconds = (headers: Headers): number | undefined => {
  const value = headers.get("retry-after")
  if (value === null) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000))
}

/** The quota 429 (its X-RateLimit-Remaining is 0), told from the per-address one (no X-RateLimit-* at all). */
export const isQuota429 = (status: number, headers: Headers): boolean => status === 429 && headers.get("x-ratelimit-remaining") === "0"

/** The typed error of an answer that is not data; `body` is its text. */
export const errorOf = (response: Response, body: string, request: string): ApiError => {
  let problem: Problem = {}
  try {
    const parsed: unknown = JSON.parse(body)
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) problem = parsed as Problem
  } catch {
    // not JSON (a proxy's page): the status alone says what it is
  }
  const { status, headers } = response
  const args = [status, problem, request, headers] as const
  if (status === 401) return new Unauthorized(...args)
  if (status === 403) return new Forbidden(...args)
  if (status === 404) return new NotFound(...args)
  if (status === 422) return new InvalidParameter(...args)
  if (status === 429) return problem.error === "quota_exceeded" || isQuota429(status, headers) ? new QuotaExceeded(...args) : new RateLimited(...args)
  if (status >= 500) return new ServiceUnavailable(...args)
  return new ApiError(...args)
}
