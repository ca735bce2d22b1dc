/**
 * Webhook endpoints as a key holder manages them (the /api/webhooks routes): create (the secret
 * is in that answer only), list, delete, list deliveries, send a test event; and the public feed's
 * events. A key sees and touches its own endpoints only: another key's id is answered as unknown.
 * Settings: FDS_WEBHOOKS_ALLOW_PRIVATE (1: loopback and private addresses and http:// allowed),
 * FDS_WEBHOOKS_TIMEOUT_MS (one attempt, default 10000), FDS_WEBHOOKS_MAX_ENDPOINTS (per key,
 * default 10).
 */
import { randomBytes } from "node:crypto"
import { Clock, Config, Context, Effect, Layer, Schema } from "effect"
import { InvalidParameter, NotFound } from "../schemas/ApiErrors.ts"
import { AccountsConfig } from "./AccountsConfig.ts"
import { AccountsDb, type AccountsUnavailable, attemptDb } from "./AccountsDb.ts"
import { checkResolvedHost, hostOf, urlProblem } from "./WebhookAddress.ts"
import { deliverOne } from "./WebhookDelivery.ts"
import { EVENT_TYPES, isEventType, TEST_EVENT_TYPE, type WebhookEventType } from "./WebhookEvents.ts"
import type { SendSettings } from "./WebhookSender.ts"
import { newWebhookSecret, sealSecret } from "./WebhookSecret.ts"
import { countEndpoints, deleteEndpoint, deliveriesOf, type EndpointRow, findEndpoint, insertEndpoint, latestEvents, listEndpoints, recordEvent } from "./WebhookStore.ts"

export interface WebhookSettings extends SendSettings {
  readonly maxEndpoints: number
}

const positive = (name: string, fallback: number, max: number) =>
  Config.schema(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: max })), name).pipe(Config.withDefault(fallback))

/** The webhook settings from the configuration. */
export const webhookSettings: Config.Config<WebhookSettings> = Config.all({
  // the values `serve` takes (api/system/Settings.ts): another one ("yes", "on") is refused, naming it, not read as 0
  allowPrivate: Config.Literals(["", "0", "1", "true", "false"], "FDS_WEBHOOKS_ALLOW_PRIVATE").pipe(
    Config.withDefault(""),
    Config.map((v) => v === "1" || v === "true"),
  ),
  timeoutMs: positive("FDS_WEBHOOKS_TIMEOUT_MS", 10_000, 60_000),
  maxEndpoints: positive("FDS_WEBHOOKS_MAX_ENDPOINTS", 10, 1000),
})

/** An endpoint as its key holder sees it (never its secret). */
export interface EndpointView {
  readonly id: string
  readonly url: string
  readonly events: ReadonlyArray<WebhookEventType>
  readonly created_at: string
  /** When it was disabled (it answered 410 Gone); null: enabled. */
  readonly disabled_at: string | null
}

const view = (e: EndpointRow): EndpointView => ({
  id: e.id,
  url: e.url,
  events: e.events,
  created_at: new Date(e.createdMs).toISOString(),
  disabled_at: iso(e.disabledMs),
})

export interface DeliveryView {
  readonly event_id: string
  readonly type: string
  readonly state: "pending" | "delivered" | "failed"
  readonly attempts: number
  readonly next_attempt_at: string | null
  readonly last_status: number | null
  readonly last_error: string | null
  readonly last_attempt_at: string | null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

/** Ids an endpoint may have: `whk_` and 16 hex digits. */
const ENDPOINT_ID = /^whk_[0-9a-f]{16}$/

export class Webhooks extends Context.Service<
  Webhooks,
  {
    readonly create: (
      keyId: number,
      url: string,
      events: ReadonlyArray<string>,
    ) => Effect.Effect<EndpointView & { readonly secret: string }, InvalidParameter | AccountsUnavailable>
    readonly list: (keyId: number) => Effect.Effect<ReadonlyArray<EndpointView>, AccountsUnavailable>
    readonly remove: (keyId: number, id: string) => Effect.Effect<void, NotFound | AccountsUnavailable>
    readonly deliveries: (keyId: number, id: string) => Effect.Effect<ReadonlyArray<DeliveryView>, NotFound | AccountsUnavailable>
    /** Writes a `webhook.test` event for the endpoint and sends it now; its delivery as it stands after the attempt. */
    readonly test: (keyId: number, id: string) => Effect.Effect<DeliveryView, NotFound | AccountsUnavailable>
    /** The latest events (not test ones), newest first: id, type, time and body. */
    readonly feed: (limit: number) => Effect.Effect<ReadonlyArray<{ id: string; type: string; createdMs: number; body: string }>, AccountsUnavailable>
  }
>()("fds/accounts/Webhooks") {
  static readonly layer = Layer.effect(
    Webhooks,
    Effect.gen(function* () {
      const db = yield* AccountsDb
      const config = yield* AccountsConfig
      const settings = yield* webhookSettings.pipe(Effect.orDie)

      const unknown = (id: string) => new NotFound({ parameter: "webhook_id", message: `no webhook endpoint ${id} for this key` })
      const owned = (keyId: number, id: string) =>
        ENDPOINT_ID.test(id)
          ? Effect.flatMap(attemptDb(() => findEndpoint(db, keyId, id)), (e) => (e === undefined ? Effect.fail(unknown(id)) : Effect.succeed(e)))
          : Effect.fail(unknown(id))

      const create = Effect.fn("Webhooks.create")(function* (keyId: number, url: string, events: ReadonlyArray<string>) {
        const invalid = (parameter: string, message: string) => new InvalidParameter({ parameter, message: `invalid body field ${parameter}: ${message}` })
        const problem = urlProblem(url, settings.allowPrivate)
        if (problem !== null) return yield* invalid("url", problem)
        const resolved = yield* Effect.promise(() => checkResolvedHost(hostOf(new URL(url)), settings.allowPrivate))
        if (resolved !== null) return yield* invalid("url", resolved)
        const unknownType = events.find((e) => !isEventType(e))
        if (unknownType !== undefined) return yield* invalid("events", `unknown event type ${JSON.stringify(unknownType)}; the types are ${EVENT_TYPES.join(", ")}`)
        if (events.length === 0) return yield* invalid("events", "name at least one event type")
        if ((yield* attemptDb(() => countEndpoints(db, keyId))) >= settings.maxEndpoints) {
          return yield* invalid("url", `this key has ${settings.maxEndpoints} endpoints already, the most it may have: delete one first`)
        }
        const id = `whk_${randomBytes(8).toString("hex")}`
        const secret = newWebhookSecret()
        const now = yield* Clock.currentTimeMillis
        const sorted = EVENT_TYPES.filter((t) => events.includes(t))
        const row = yield* attemptDb(() => insertEndpoint(db, { id, keyId, url, events: sorted, sealed: sealSecret(config.secret, id, secret) }, now))
        return { ...view(row), secret }
      })

      const list = Effect.fn("Webhooks.list")(function* (keyId: number) {
        return (yield* attemptDb(() => listEndpoints(db, keyId))).map(view)
      })

      const remove = Effect.fn("Webhooks.remove")(function* (keyId: number, id: string) {
        if (!ENDPOINT_ID.test(id) || !(yield* attemptDb(() => deleteEndpoint(db, keyId, id)))) return yield* unknown(id)
      })

      const deliveryViews = (id: string, limit: number) =>
        Effect.map(
          attemptDb(() => deliveriesOf(db, id, limit)),
          (rows): DeliveryView[] =>
            rows.map((r) => ({
              event_id: r.event_id,
              type: r.type,
              state: r.state,
              attempts: r.attempts,
              next_attempt_at: r.state === "pending" ? iso(r.next_attempt_ms) : null,
              last_status: r.last_status,
              last_error: r.last_error,
              last_attempt_at: iso(r.last_attempt_ms),
            })),
        )

      const deliveries = Effect.fn("Webhooks.deliveries")(function* (keyId: number, id: string) {
        yield* owned(keyId, id)
        return yield* deliveryViews(id, 100)
      })

      const test = Effect.fn("Webhooks.test")(function* (keyId: number, id: string) {
        const endpoint = yield* owned(keyId, id)
        const now = yield* Clock.currentTimeMillis
        const eventId = `evt_test_${randomBytes(8).toString("hex")}`
        const event = { id: eventId, type: TEST_EVENT_TYPE, createdMs: now, endpointId: endpoint.id, data: { endpoint_id: endpoint.id, message: "a test event" } } as const
        yield* attemptDb(() => recordEvent(db, event))
        yield* attemptDb(() => deliverOne({ db, serviceSecret: config.secret, send: settings, now: Date.now }, eventId, endpoint.id))
        const delivery = (yield* deliveryViews(id, 100)).find((r) => r.event_id === eventId)
        // the endpoint deleted while its test was sent (its deliveries with it): as unknown as it now is
        if (delivery === undefined) return yield* Effect.fail(unknown(id))
        return delivery
      })

      const feed = Effect.fn("Webhooks.feed")(function* (limit: number) {
        return (yield* attemptDb(() => latestEvents(db, limit))).map((r) => ({ id: r.id, type: r.type, createdMs: Number(r.created_ms), body: r.body }))
      })

      return Webhooks.of({ create, list, remove, deliveries, test, feed })
    }),
  )
}
