/**
 * The daemon's retry of a whole run. Only a source failure (the CMF unreachable, timing out,
 * answering 5xx or an error page after the fetcher's own per-request retries) is retried, with
 * exponential backoff and a bounded number of times; a batch rejected for its content, or a
 * build that failed (disk), is final for this tick.
 */
import { Effect, Schedule } from "effect"
import type { BatchRejectedError } from "../run/Outcome.ts"

export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  readonly retries: number
  /** Delay before the first retry; each next one doubles. */
  readonly baseMillis: number
}

export const isSourceFailure = (e: unknown): e is BatchRejectedError =>
  typeof e === "object" && e !== null && (e as { _tag?: unknown })._tag === "BatchRejectedError" && (e as BatchRejectedError).kind === "source"

/** Runs `attempt`, again after a source failure, up to `policy.retries` more times. */
export const withSourceRetry = <A, E, R>(
  attempt: Effect.Effect<A, E, R>,
  policy: RetryPolicy,
  onRetry: (info: { readonly retry: number; readonly delayMillis: number; readonly reason: string }) => void = () => {},
): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    let retries = 0 // per run of the returned effect
    return attempt.pipe(
      Effect.retry({
        schedule: Schedule.exponential(policy.baseMillis, 2),
        while: (e: E) => {
          if (!isSourceFailure(e) || retries >= policy.retries) return false
          retries++
          onRetry({ retry: retries, delayMillis: policy.baseMillis * 2 ** (retries - 1), reason: e.reason })
          return true
        },
      }),
    )
  })
