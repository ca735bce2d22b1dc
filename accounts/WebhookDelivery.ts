/**
 * Sends what is due: claims each due delivery (WebhookStore.ts) just before its attempt, opens the endpoint's secret,
 * signs and sends (WebhookSender.ts) a few at a time, and records each attempt (delivered, due
 * again later, or given up after a day: WebhookRetry.ts). Used by the daemon after a publish and
 * on its timer, and by the API for a test event. The clock is the caller's (`now`), so that the
 * retry schedule can be tested without waiting; the HTTP is real.
 */
import type { Redacted } from "effect"
import type { Kysely } from "kysely"
import type { AccountsDatabase } from "./AccountsTables.ts"
import { openSecret } from "./WebhookSecret.ts"
import { type SendSettings, sendSigned } from "./WebhookSender.ts"
import { type AttemptResult, claimNext, type DueDelivery, giveUpStopped, recordAttempt } from "./WebhookStore.ts"

export interface DeliveryContext {
  readonly db: Kysely<AccountsDatabase>
  readonly serviceSecret: Redacted.Redacted<Uint8Array>
  readonly send: SendSettings
  /** The time that claims and schedules attempts (Date.now outside tests); the signature's timestamp is always the real time. */
  readonly now: () => number
}

/** What a round of sending did. */
export interface DeliveryReport {
  readonly delivered: number
  /** Failed this time, tried again later. */
  readonly retrying: number
  /** Failed for the last time. */
  readonly failed: number
}

/** Attempts sent at once. */
const CONCURRENCY = 8

/** How long a claim holds a delivery: longer than its one attempt can last (the timeout) and its recording. */
const leaseMs = (send: SendSettings) => send.timeoutMs * 3 + 10_000

/** One claimed delivery sent and recorded; its result. */
const attempt = async (ctx: DeliveryContext, d: DueDelivery): Promise<{ readonly state: string; readonly result: AttemptResult }> => {
  let result: AttemptResult
  try {
    const secret = openSecret(ctx.serviceSecret, d.endpointId, d.sealed)
    // signed at the real time of sending (receivers check it against their clocks); `now` only schedules
    result = await sendSigned(d.url, secret, d.eventId, d.body, ctx.send, Date.now())
  } catch (e) {
    // the service secret changed since the endpoint was made: nothing can sign for it
    result = { delivered: false, status: null, error: `the endpoint's secret cannot be opened (${(e as Error).message}): create the endpoint again` }
  }
  const state = await recordAttempt(ctx.db, d, result, ctx.now())
  return { state, result }
}

/**
 * Sends the deliveries due now (at most `limit` attempts), a few at a time, each claimed just
 * before its attempt. One attempt at a time to an endpoint; an endpoint that did not answer at
 * all (timed out, refused the connection) gets no further attempt this round: its other
 * deliveries stay due, unattempted, for the next. So endpoints that hang hold at most one sender
 * each, for one timeout a round, and the others' deliveries go out meanwhile.
 */
export const deliverDue = async (ctx: DeliveryContext, limit = 200): Promise<DeliveryReport> => {
  const counts = { delivered: 0, retrying: 0, failed: 0 }
  // the pending deliveries of endpoints that get nothing more (disabled): given up, not sent
  await giveUpStopped(ctx.db, ctx.now())
  const avoid = new Set<string>()
  // claims one after the other, each endpoint marked before the next claim is made
  let claiming: Promise<unknown> = Promise.resolve()
  const claim = (): Promise<DueDelivery | null> => {
    const next = claiming.then(async () => {
      const d = await claimNext(ctx.db, ctx.now(), leaseMs(ctx.send), undefined, avoid)
      if (d !== null) avoid.add(d.endpointId)
      return d
    })
    claiming = next.catch(() => {})
    return next
  }
  let started = 0
  const worker = async () => {
    while (started < limit) {
      started++
      const d = await claim()
      if (d === null) return
      const { state, result } = await attempt(ctx, d)
      if (result.delivered || result.status !== null) avoid.delete(d.endpointId)
      if (state === "delivered") counts.delivered++
      else if (state === "failed") counts.failed++
      else counts.retrying++
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return counts
}

/** Sends one delivery now if it is due and unclaimed (the test route); null when it was not there to send. */
export const deliverOne = async (ctx: DeliveryContext, eventId: string, endpointId: string) => {
  const d = await claimNext(ctx.db, ctx.now(), leaseMs(ctx.send), { eventId, endpointId })
  return d === null ? null : attempt(ctx, d)
}
