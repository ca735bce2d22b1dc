/**
 * When a failed delivery is tried again: the Standard Webhooks schedule (the first attempt at
 * once, then 5 s, 5 min, 30 min, 2 h, 5 h and 10 h after each failure), for a day from the event:
 * an attempt that would fall later than 24 h after the delivery was written is not made, and the
 * delivery is given up (state `failed`).
 */

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** The wait after the n-th failed attempt (index n - 1). */
export const RETRY_DELAYS_MS: ReadonlyArray<number> = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]

/** How long a delivery is tried for. */
export const RETRY_WINDOW_MS = 24 * HOUR

/** When the next attempt is due after `failedAttempts` failures, the last ending at `nowMs`; null: give up. */
export const nextAttemptMs = (failedAttempts: number, nowMs: number, createdMs: number): number | null => {
  const delay = RETRY_DELAYS_MS[failedAttempts - 1]
  if (delay === undefined) return null
  const next = nowMs + delay
  return next > createdMs + RETRY_WINDOW_MS ? null : next
}
