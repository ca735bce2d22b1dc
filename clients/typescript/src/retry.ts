/**
 * The service's retry rules (docs/clients.md, "Retry policy") as a `fetch`: a per-address 429
 * (`rate_limited`, no X-RateLimit-* headers) and 500, 502, 503 and 504 are sent again after
 * Retry-After when the answer has one, else after an exponential backoff, either with jitter
 * added; a network failure is retried the same way. A quota 429 (X-RateLimit-Remaining: 0) is
 * never retried: its Retry-After is hours. Neither is an answer whose Retry-After is longer than
 * `maxRetryAfter`: the caller gets it at once rather than a client asleep for an hour.
 */
import { isQuota429, retryAfterSeconds } from "./errors.ts"

export interface RetryOptions {
  /** Requests sent at most for one call, the first included (default 5). */
  readonly attempts?: number
  /** The first backoff, doubled at each retry (default 500 ms). */
  readonly baseDelayMs?: number
  /** The longest backoff (default 30 s). */
  readonly maxDelayMs?: number
  /** The longest Retry-After waited for, in seconds (default 30); a longer one is returned as it is. */
  readonly maxRetryAfter?: number
}

/** One retry about to wait: what was answered (a status, or 0 for a network failure) and how long it waits. */
export interface RetryEvent {
  readonly attempt: number
  readonly status: number
  readonly waitMs: number
  readonly retryAfter: number | undefined
  readonly url: string
}

const RETRIED = new Set([429, 500, 502, 503, 504])

const sleep = (ms: number, signal: AbortSignal | null): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    signal?.addEventListener("abort", onAbort, { once: true })
  })

/** `fetch` with the retry rules; `onRetry` hears of each wait before it starts. */
export const retryingFetch = (
  fetchOnce: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
  onRetry?: (event: RetryEvent) => void | Promise<void>,
): ((request: Request) => Promise<Response>) => {
  const attempts = Math.max(1, options.attempts ?? 5)
  const base = options.baseDelayMs ?? 500
  const maxDelay = options.maxDelayMs ?? 30_000
  const maxRetryAfter = options.maxRetryAfter ?? 30
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts
      let response: Response | undefined
      try {
        // a clone per attempt: a request's body (none on GET) can be read once
        response = await fetchOnce(last ? request : request.clone())
      } catch (error) {
        if (last || request.signal.aborted) throw error
      }
      let retryAfter: number | undefined
      if (response !== undefined) {
        if (last || !RETRIED.has(response.status) || isQuota429(response.status, response.headers)) return response
        retryAfter = retryAfterSeconds(response.headers)
        if (retryAfter !== undefined && retryAfter > maxRetryAfter) return response
        await response.body?.cancel()
      }
      const backoff = Math.min(maxDelay, base * 2 ** (attempt - 1))
      const wait = retryAfter === undefined ? backoff : retryAfter * 1000
      // jitter on top: never sooner than Retry-After, and clients told the same wait spread out
      const waitMs = Math.round(wait + Math.random() * Math.min(wait, 4000) * 0.25)
      await onRetry?.({ attempt, status: response?.status ?? 0, waitMs, retryAfter, url: request.url })
      await sleep(waitMs, request.signal)
    }
  }
}
