/**
 * The webhooks in the accounts store (SQLite or PostgreSQL, through kysely): endpoints per key,
 * events, and deliveries. An event and its deliveries are written in one transaction before
 * anything is sent; an event id already there is not written again (INSERT … ON CONFLICT DO
 * NOTHING), and a delivery is keyed by (event, endpoint), so no endpoint gets an event twice. Each
 * attempt first claims its delivery (a conditional UPDATE that one sender alone wins) for a lease
 * longer than an attempt can last, so two daemons on one store never send the same one at once.
 * The endpoints of a revoked key get nothing more (no new deliveries, no retries of pending ones:
 * they are given up, and the endpoints disabled, by the next round of sends). An endpoint that answers 410 Gone is disabled (Standard Webhooks: "stop sending"): its pending
 * deliveries are given up (`failed`) and new events make none for it.
 */
import type { Kysely } from "kysely"
import type { AccountsDatabase, WebhookDeliveriesTable } from "./AccountsTables.ts"
import { eventBody, isEventType, type WebhookEvent, type WebhookEventType } from "./WebhookEvents.ts"
import { nextAttemptMs } from "./WebhookRetry.ts"

export interface EndpointRow {
  readonly id: string
  readonly keyId: number
  readonly url: string
  readonly events: ReadonlyArray<WebhookEventType>
  readonly createdMs: number
  /** When it was disabled (it answered 410 Gone); null: enabled. */
  readonly disabledMs: number | null
}

const endpointOf = (r: { id: string; key_id: number; url: string; events: string; created_ms: number; disabled_ms?: number | null }): EndpointRow => ({
  id: r.id,
  keyId: r.key_id,
  url: r.url,
  events: r.events.split(",").filter(isEventType),
  createdMs: Number(r.created_ms),
  disabledMs: r.disabled_ms === null || r.disabled_ms === undefined ? null : Number(r.disabled_ms),
})

export const insertEndpoint = async (
  db: Kysely<AccountsDatabase>,
  row: { readonly id: string; readonly keyId: number; readonly url: string; readonly events: ReadonlyArray<string>; readonly sealed: string },
  nowMs: number,
): Promise<EndpointRow> => {
  const values = { id: row.id, key_id: row.keyId, url: row.url, events: row.events.join(","), secret_sealed: row.sealed, created_ms: nowMs }
  await db.insertInto("webhook_endpoints").values(values).execute()
  return endpointOf(values)
}

export const countEndpoints = async (db: Kysely<AccountsDatabase>, keyId: number): Promise<number> => {
  const r = await db.selectFrom("webhook_endpoints").select((eb) => eb.fn.countAll<number>().as("n")).where("key_id", "=", keyId).executeTakeFirst()
  return Number(r?.n ?? 0)
}

export const listEndpoints = async (db: Kysely<AccountsDatabase>, keyId: number): Promise<EndpointRow[]> =>
  (
    await db
      .selectFrom("webhook_endpoints")
      .select(["id", "key_id", "url", "events", "created_ms", "disabled_ms"])
      .where("key_id", "=", keyId)
      .orderBy("created_ms")
      .orderBy("id")
      .execute()
  ).map(endpointOf)

/** The key's endpoint with its sealed secret; undefined for an unknown id or another key's. */
export const findEndpoint = async (db: Kysely<AccountsDatabase>, keyId: number, id: string) => {
  const r = await db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).where("key_id", "=", keyId).executeTakeFirst()
  return r === undefined ? undefined : { ...endpointOf(r), sealed: r.secret_sealed }
}

/** Removes the key's endpoint and its deliveries; false when it has no such endpoint. */
export const deleteEndpoint = async (db: Kysely<AccountsDatabase>, keyId: number, id: string): Promise<boolean> =>
  db.transaction().execute(async (tx) => {
    const r = await tx.deleteFrom("webhook_endpoints").where("id", "=", id).where("key_id", "=", keyId).executeTakeFirst()
    if (Number(r.numDeletedRows) === 0) return false
    await tx.deleteFrom("webhook_deliveries").where("endpoint_id", "=", id).execute()
    return true
  })

/**
 * Writes the event and a pending delivery to each endpoint that subscribed to its type (a test
 * event: its one endpoint) in one transaction; an event already written is left as it is and
 * gets no new deliveries. True when it was new.
 */
export const recordEvent = async (db: Kysely<AccountsDatabase>, event: WebhookEvent): Promise<boolean> =>
  db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto("webhook_events")
      .values({ id: event.id, type: event.type, created_ms: event.createdMs, body: eventBody(event), endpoint_id: event.endpointId ?? null })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false
    const endpoints = await tx
      .selectFrom("webhook_endpoints")
      .select(["id", "events"])
      // a revoked key's endpoints get no more events
      .where((eb) => eb.not(eb.exists(eb.selectFrom("api_keys as k").select("k.id").whereRef("k.id", "=", "webhook_endpoints.key_id").where("k.revoked_at", "is not", null))))
      // nor a disabled one (it answered 410 Gone), except a test event its key holder asked for
      .$if(event.endpointId !== undefined, (q) => q.where("id", "=", event.endpointId!))
      .$if(event.endpointId === undefined, (q) => q.where("disabled_ms", "is", null))
      .execute()
    const to = event.endpointId !== undefined ? endpoints : endpoints.filter((e) => e.events.split(",").includes(event.type))
    if (to.length > 0) {
      await tx
        .insertInto("webhook_deliveries")
        .values(
          to.map((e) => ({
            event_id: event.id,
            endpoint_id: e.id,
            state: "pending" as const,
            attempts: 0,
            next_attempt_ms: event.createdMs,
            claimed_until_ms: null,
            last_status: null,
            last_error: null,
            created_ms: event.createdMs,
            last_attempt_ms: null,
          })),
        )
        .onConflict((oc) => oc.columns(["event_id", "endpoint_id"]).doNothing())
        .execute()
    }
    return true
  })

/**
 * Whether a delivery is pending and due at `nowMs` (claimed or not), one row looked up through
 * the due index: when none is (no endpoint, or everything sent), a round of claims has nothing to
 * send.
 */
export const hasDueDelivery = async (db: Kysely<AccountsDatabase>, nowMs: number): Promise<boolean> =>
  (await db
    .selectFrom("webhook_deliveries")
    .select("event_id")
    .where("state", "=", "pending")
    .where("next_attempt_ms", "<=", nowMs)
    .limit(1)
    .executeTakeFirst()) !== undefined

/** The last_error of the deliveries given up because their endpoint's API key was revoked. */
export const REVOKED_ERROR = "not sent: the endpoint's API key was revoked"

/** The last_error of the deliveries given up because their endpoint was disabled. */
export const DISABLED_ERROR = "not sent: the endpoint is disabled"

/**
 * Gives up (`failed`) the pending deliveries, not claimed now, of the endpoints that get nothing
 * more, and disables those endpoints: a revoked key's (their deliveries written before it was
 * revoked), and disabled ones (a delivery written as its endpoint answered 410, or a test sent to
 * it that failed). Claims pass them over; this takes them out of the due ones, so that they are
 * neither attempted nor left pending for ever (a due one would make every poll run a round of
 * sends). In one transaction; how many it gave up.
 */
export const giveUpStopped = async (db: Kysely<AccountsDatabase>, nowMs: number): Promise<number> =>
  db.transaction().execute(async (tx) => {
    const revokedEndpoints = tx
      .selectFrom("webhook_endpoints as e")
      .select("e.id")
      .where((eb) => eb.exists(eb.selectFrom("api_keys as k").select("k.id").whereRef("k.id", "=", "e.key_id").where("k.revoked_at", "is not", null)))
    // the endpoints first, then the deliveries: the order a 410's transaction takes them in (recordAttempt)
    await tx.updateTable("webhook_endpoints").set({ disabled_ms: nowMs }).where("disabled_ms", "is", null).where("id", "in", revokedEndpoints).execute()
    /** The pending deliveries, not claimed now, of `endpoints`, given up with `error`; how many. */
    const giveUp = async (endpoints: typeof revokedEndpoints, error: string) =>
      Number(
        (
          await tx
            .updateTable("webhook_deliveries")
            .set({ state: "failed", claimed_until_ms: null, last_error: error })
            .where("state", "=", "pending")
            .where((eb) => eb.or([eb("claimed_until_ms", "is", null), eb("claimed_until_ms", "<", nowMs)]))
            .where("endpoint_id", "in", endpoints)
            .executeTakeFirst()
        ).numUpdatedRows,
      )
    const revoked = await giveUp(revokedEndpoints, REVOKED_ERROR)
    const disabled = await giveUp(tx.selectFrom("webhook_endpoints as e").select("e.id").where("e.disabled_ms", "is not", null), DISABLED_ERROR)
    return revoked + disabled
  })

/** A claimed delivery, with what sending it needs. */
export interface DueDelivery {
  readonly eventId: string
  readonly endpointId: string
  readonly attempts: number
  readonly createdMs: number
  readonly url: string
  readonly sealed: string
  readonly body: string
}

/**
 * Claims the next due delivery (pending, due, not claimed by another sender) until
 * `nowMs + leaseMs`, the oldest first; null when none is left. One at a time: a claim is taken
 * just before its attempt, so the lease covers that attempt only. `only` restricts it to one
 * delivery (the test route sends its own at once).
 */
export const claimNext = async (
  db: Kysely<AccountsDatabase>,
  nowMs: number,
  leaseMs: number,
  only?: { readonly eventId: string; readonly endpointId: string },
  /** Endpoints passed over (the sender's: one attempt at a time each, none after it stalled). */
  avoid: ReadonlySet<string> = new Set(),
): Promise<DueDelivery | null> => {
  const candidates = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .innerJoin("webhook_events as v", "v.id", "d.event_id")
    .select(["d.event_id", "d.endpoint_id", "d.attempts", "d.created_ms", "e.url", "e.secret_sealed", "v.body"])
    .where("d.state", "=", "pending")
    .where("d.next_attempt_ms", "<=", nowMs)
    // nor their retries: a key revoked after the event was written stops its deliveries
    .where((eb) => eb.not(eb.exists(eb.selectFrom("api_keys as k").select("k.id").whereRef("k.id", "=", "e.key_id").where("k.revoked_at", "is not", null))))
    .where((eb) => eb.or([eb("d.claimed_until_ms", "is", null), eb("d.claimed_until_ms", "<", nowMs)]))
    // nor to a disabled endpoint (410 Gone), but for the test its key holder sends at once
    .$if(only === undefined, (q) => q.where("e.disabled_ms", "is", null))
    .$if(only !== undefined, (q) => q.where("d.event_id", "=", only!.eventId).where("d.endpoint_id", "=", only!.endpointId))
    .$if(avoid.size > 0, (q) => q.where("d.endpoint_id", "not in", [...avoid]))
    .orderBy("d.next_attempt_ms")
    // a few: senders working side by side pass over the ones another just claimed
    .limit(16)
    .execute()
  for (const c of candidates) {
    const r = await db
      .updateTable("webhook_deliveries")
      .set({ claimed_until_ms: nowMs + leaseMs })
      .where("event_id", "=", c.event_id)
      .where("endpoint_id", "=", c.endpoint_id)
      .where("state", "=", "pending")
      // as it was read: an attempt another sender ended meanwhile changed its count (and its due time)
      .where("attempts", "=", c.attempts)
      .where("next_attempt_ms", "<=", nowMs)
      .where((eb) => eb.or([eb("claimed_until_ms", "is", null), eb("claimed_until_ms", "<", nowMs)]))
      .executeTakeFirst()
    if (Number(r.numUpdatedRows) !== 1) continue // another sender claimed it first
    return {
      eventId: c.event_id,
      endpointId: c.endpoint_id,
      attempts: c.attempts,
      createdMs: Number(c.created_ms),
      url: c.url,
      sealed: c.secret_sealed,
      body: c.body,
    }
  }
  return null
}

/** What one attempt gave. */
export interface AttemptResult {
  readonly delivered: boolean
  readonly status: number | null
  readonly error: string | null
}

/** The last_error of the deliveries given up when their endpoint answered 410 Gone. */
export const GONE_ERROR = "not sent: the endpoint answered 410 Gone and was disabled"

/**
 * Records an attempt of a claimed delivery: delivered, or pending again with its next attempt, or
 * given up. A 410 Gone disables the endpoint (Standard Webhooks: the receiver asks not to be sent
 * anything more) and gives up this delivery and its other pending ones, in one transaction.
 */
export const recordAttempt = async (
  db: Kysely<AccountsDatabase>,
  delivery: DueDelivery,
  result: AttemptResult,
  nowMs: number,
): Promise<WebhookDeliveriesTable["state"]> => {
  const attempts = delivery.attempts + 1
  /** This attempt on the delivery's row: its state, when the next is due (for a pending one), what it got. */
  const written = (on: Kysely<AccountsDatabase>, state: WebhookDeliveriesTable["state"], nextMs: number) =>
    on
      .updateTable("webhook_deliveries")
      .set({
        state,
        attempts,
        next_attempt_ms: nextMs,
        claimed_until_ms: null,
        last_status: result.status,
        last_error: result.error === null ? null : result.error.slice(0, 500),
        last_attempt_ms: nowMs,
      })
      .where("event_id", "=", delivery.eventId)
      .where("endpoint_id", "=", delivery.endpointId)
      .execute()
  if (result.status === 410) {
    await db.transaction().execute(async (tx) => {
      await tx.updateTable("webhook_endpoints").set({ disabled_ms: nowMs }).where("id", "=", delivery.endpointId).where("disabled_ms", "is", null).execute()
      await tx
        .updateTable("webhook_deliveries")
        .set({ state: "failed", claimed_until_ms: null, last_error: GONE_ERROR })
        .where("endpoint_id", "=", delivery.endpointId)
        .where("state", "=", "pending")
        .execute()
      await written(tx, "failed", nowMs)
    })
    return "failed"
  }
  const next = result.delivered ? null : nextAttemptMs(attempts, nowMs, delivery.createdMs)
  const state = result.delivered ? "delivered" : next === null ? "failed" : "pending"
  await written(db, state, next ?? nowMs)
  return state
}

/** An endpoint's latest deliveries, newest first. */
export const deliveriesOf = async (db: Kysely<AccountsDatabase>, endpointId: string, limit: number) =>
  db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_events as v", "v.id", "d.event_id")
    .select(["d.event_id", "v.type", "d.state", "d.attempts", "d.next_attempt_ms", "d.last_status", "d.last_error", "d.created_ms", "d.last_attempt_ms"])
    .where("d.endpoint_id", "=", endpointId)
    .orderBy("d.created_ms", "desc")
    .orderBy("d.event_id", "desc")
    .limit(limit)
    .execute()

/** The latest events for the public feed (test events left out), newest first. */
export const latestEvents = async (db: Kysely<AccountsDatabase>, limit: number) =>
  db
    .selectFrom("webhook_events")
    .select(["id", "type", "created_ms", "body"])
    .where("endpoint_id", "is", null)
    .orderBy("created_ms", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute()
