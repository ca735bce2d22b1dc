/**
 * Webhook deliveries on both accounts stores (the SQLite file and a throwaway PostgreSQL), to a
 * real receiver that verifies each with the `standardwebhooks` library: written before sending,
 * delivered once per event id and endpoint (an event recorded twice, two senders at once), retried
 * on the Standard Webhooks schedule while the receiver fails and delivered once when it recovers,
 * an attempt to a receiver that hangs cut off at the timeout. Only the schedule's clock is set by
 * the test (`now`); the HTTP and the signatures' timestamps are real. Then the addresses refused
 * at send time (loopback by address and by name), an attempt's bounds (an endless answer, a
 * redirect, a body too large) and the schedule itself, by worked examples.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { randomBytes } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Redacted } from "effect"
import pg from "pg"
import type { Kysely } from "kysely"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type AccountsDatabase, openAccountsDb, openAccountsStore } from "../../accounts/AccountsDb.ts"
import { isPublicAddress } from "../../accounts/WebhookAddress.ts"
import { type DeliveryContext, deliverDue } from "../../accounts/WebhookDelivery.ts"
import { nextAttemptMs, RETRY_WINDOW_MS } from "../../accounts/WebhookRetry.ts"
import { newWebhookSecret, openSecret, sealSecret } from "../../accounts/WebhookSecret.ts"
import { sendSigned } from "../../accounts/WebhookSender.ts"
import { revokeKey } from "../../accounts/KeyAdmin.ts"
import { insertKey } from "../../accounts/KeyStore.ts"
import { GONE_ERROR, hasDueDelivery, insertEndpoint, listEndpoints, REVOKED_ERROR, recordEvent } from "../../accounts/WebhookStore.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { type Receiver, startReceiver } from "./support/receiver.ts"

const serviceSecret = Redacted.make(new Uint8Array(randomBytes(32)))
const T0 = Date.parse("2026-11-20T12:00:00Z")

let work: string
let cluster: TestPostgres | undefined
const receivers: Receiver[] = []

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-webhooks-"))
  cluster = await startPostgres()
}, 60_000)
afterAll(async () => {
  for (const r of receivers) await r.close()
  cluster?.stop()
  rmSync(work, { recursive: true, force: true })
})

let stores = 0
const STORES = {
  sqlite: () => openAccountsDb(join(work, `accounts-${++stores}.sqlite`)),
  postgres: async () => openAccountsStore("unused.sqlite", await cluster!.createDatabase("webhooks")),
} as const

/** An endpoint for a new receiver, in `db`; the receiver verifies with the endpoint's secret. */
const endpointFor = async (db: Kysely<AccountsDatabase>, keyId = 1) => {
  const secret = newWebhookSecret()
  const receiver = await startReceiver(secret)
  receivers.push(receiver)
  const id = `whk_${randomBytes(8).toString("hex")}`
  await insertEndpoint(db, { id, keyId, url: receiver.url, events: ["batch.published"], sealed: sealSecret(serviceSecret, id, secret) }, T0 - 1000)
  return { id, receiver }
}

const event = (id: string, createdMs = T0) => ({ id, type: "batch.published" as const, createdMs, data: { batch_id: "2026-11-20-0123456789abcdef" } })

describe.each(Object.keys(STORES) as Array<keyof typeof STORES>)("webhook deliveries on %s", (store) => {
  let db: Kysely<AccountsDatabase>
  let clock = T0
  const ctx = (timeoutMs = 5000): DeliveryContext => ({ db, serviceSecret, send: { timeoutMs, allowPrivate: true }, now: () => clock })
  /** An event recorded now gets one delivery, to `endpointId` alone, and it is delivered. */
  const onlyTo = async (eventId: string, endpointId: string) => {
    expect(await recordEvent(db, event(eventId, clock))).toBe(true)
    const rows = await db.selectFrom("webhook_deliveries").select("endpoint_id").where("event_id", "=", eventId).execute()
    expect(rows.map((r) => r.endpoint_id)).toEqual([endpointId])
    expect(await deliverDue(ctx())).toEqual({ delivered: 1, retrying: 0, failed: 0 })
  }
  beforeAll(async () => {
    db = await STORES[store]()
  })
  afterAll(async () => {
    await db?.destroy()
  })
  // each test's endpoint alone in the store: an event goes to every endpoint subscribed to its type
  beforeEach(async () => {
    await db.deleteFrom("webhook_endpoints").execute()
    await db.deleteFrom("webhook_deliveries").execute()
  })

  it("signs each delivery so the library verifies it; an event recorded twice is delivered once", async () => {
    clock = T0
    const { receiver } = await endpointFor(db)
    expect(await recordEvent(db, event("evt_twice"))).toBe(true)
    expect(await recordEvent(db, event("evt_twice"))).toBe(false) // a re-run: the same id, nothing new
    expect(await deliverDue(ctx())).toEqual({ delivered: 1, retrying: 0, failed: 0 })
    expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 0, failed: 0 })
    expect(await recordEvent(db, event("evt_twice"))).toBe(false)
    expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 0, failed: 0 })
    expect(receiver.requests).toHaveLength(1)
    expect(receiver.requests[0]).toMatchObject({ id: "evt_twice", verified: true, status: 200, body: { type: "batch.published" } })
    // the timestamp is the real time of sending (the schedule's clock is the test's)
    expect(Math.abs(receiver.requests[0]!.timestamp * 1000 - Date.now())).toBeLessThan(60_000)
  })

  it("two senders at once: each due delivery is claimed by one of them and attempted once", async () => {
    clock = T0
    const { receiver } = await endpointFor(db)
    for (let i = 0; i < 10; i++) await recordEvent(db, event(`evt_race_${i}`))
    const [a, b] = await Promise.all([deliverDue(ctx()), deliverDue(ctx())])
    expect(a.delivered + b.delivered).toBe(10)
    expect(receiver.requests.map((r) => r.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `evt_race_${i}`).sort())
    // failing ones: each attempted once in the round (a failed attempt is due again in 5 s, not now)
    receiver.behaviour = { failFirst: 1000 }
    for (let i = 0; i < 10; i++) await recordEvent(db, event(`evt_race_failing_${i}`))
    const [c, d] = await Promise.all([deliverDue(ctx()), deliverDue(ctx())])
    expect(c.retrying + d.retrying).toBe(10)
    expect(receiver.requests.filter((r) => r.status === 500).map((r) => r.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `evt_race_failing_${i}`).sort())
  })

  it("a receiver that fails, then recovers: retried on the schedule (5 s, then 5 min) and delivered once, with the same webhook-id", async () => {
    clock = T0
    const { receiver } = await endpointFor(db)
    receiver.behaviour = { failFirst: 2 }
    await recordEvent(db, event("evt_flaky"))
    expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 1, failed: 0 })
    clock = T0 + 4_000 // not due yet
    expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 0, failed: 0 })
    clock = T0 + 5_000
    expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 1, failed: 0 })
    clock = T0 + 5_000 + 299_000 // 5 min after the second failure, less a second
    expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 0, failed: 0 })
    clock = T0 + 5_000 + 300_000
    expect(await deliverDue(ctx())).toEqual({ delivered: 1, retrying: 0, failed: 0 })
    clock = T0 + RETRY_WINDOW_MS
    expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 0, failed: 0 })
    expect(receiver.requests.map((r) => [r.id, r.status, r.verified])).toEqual([
      ["evt_flaky", 500, true],
      ["evt_flaky", 500, true],
      ["evt_flaky", 200, true],
    ])
    const row = await db.selectFrom("webhook_deliveries").selectAll().where("event_id", "=", "evt_flaky").executeTakeFirstOrThrow()
    expect(row).toMatchObject({ state: "delivered", attempts: 3, last_status: 200, last_error: null })
  })

  it("a receiver that hangs is cut off at the timeout, and the event is retried", async () => {
    clock = T0
    const { receiver } = await endpointFor(db)
    receiver.behaviour = { hangFirst: 1 }
    await recordEvent(db, event("evt_hang"))
    const started = performance.now()
    expect(await deliverDue(ctx(400))).toEqual({ delivered: 0, retrying: 1, failed: 0 })
    expect(performance.now() - started).toBeLessThan(3_000)
    const row = await db.selectFrom("webhook_deliveries").selectAll().where("event_id", "=", "evt_hang").executeTakeFirstOrThrow()
    expect(row).toMatchObject({ state: "pending", attempts: 1, last_status: null, last_error: "timed out" })
    clock = T0 + 5_000
    expect(await deliverDue(ctx(400))).toEqual({ delivered: 1, retrying: 0, failed: 0 })
    expect(receiver.delivered().map((r) => r.id)).toEqual(["evt_hang"])
  })

  it("an endpoint that hangs holds one sender for one timeout a round; another endpoint's delivery goes out meanwhile", async () => {
    clock = T0
    const dead = await endpointFor(db)
    dead.receiver.behaviour = { hangFirst: 1000 }
    for (let i = 0; i < 12; i++) await recordEvent(db, event(`evt_stuck_${i}`, T0 - 100 + i))
    // an event for both, due after the twelve: in the order deliveries are taken it comes last
    const alive = await endpointFor(db)
    await recordEvent(db, event("evt_other", T0))
    const started = performance.now()
    expect(await deliverDue(ctx(2_000))).toEqual({ delivered: 1, retrying: 1, failed: 0 })
    // the live endpoint was not kept waiting for the hung one's timeout
    const received = alive.receiver.delivered()
    expect(received.map((r) => r.id)).toEqual(["evt_other"])
    expect(received[0]!.atMs - (performance.timeOrigin + started)).toBeLessThan(1_500)
    // one attempt to the hung endpoint in the round; its other twelve due, unattempted, for the next
    const rows = await db.selectFrom("webhook_deliveries").select(["attempts", "state"]).where("endpoint_id", "=", dead.id).execute()
    expect(rows.map((r) => r.attempts).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    expect(new Set(rows.map((r) => r.state))).toEqual(new Set(["pending"]))
    expect(dead.receiver.requests.length).toBe(1)
  })

  it("a 410 Gone disables the endpoint: its pending deliveries given up, no retry, no delivery for a later event", async () => {
    clock = T0
    const { id, receiver } = await endpointFor(db)
    const other = await endpointFor(db)
    receiver.behaviour = { answer: 410 }
    await recordEvent(db, event("evt_gone_1", T0 - 2))
    await recordEvent(db, event("evt_gone_2", T0 - 1))
    // one attempt to it: the 410; its other pending delivery given up unsent; the other endpoint gets both
    expect(await deliverDue(ctx())).toEqual({ delivered: 2, retrying: 0, failed: 1 })
    expect(receiver.requests.map((r) => [r.id, r.status])).toEqual([["evt_gone_1", 410]])
    const rows = await db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", id).orderBy("event_id").execute()
    expect(rows).toMatchObject([
      { event_id: "evt_gone_1", state: "failed", attempts: 1, last_status: 410 },
      { event_id: "evt_gone_2", state: "failed", attempts: 0, last_status: null, last_error: GONE_ERROR },
    ])
    const endpoints = await listEndpoints(db, 1)
    expect(endpoints.find((e) => e.id === id)?.disabledMs).toBe(T0)
    expect(endpoints.find((e) => e.id === other.id)?.disabledMs).toBeNull()
    // no retry: not at 5 s, nor later in the day
    for (const at of [T0 + 5_000, T0 + 3_600_000, T0 + RETRY_WINDOW_MS - 1]) {
      clock = at
      expect(await deliverDue(ctx())).toEqual({ delivered: 0, retrying: 0, failed: 0 })
    }
    // a later event: no delivery for it, one for the other endpoint
    await onlyTo("evt_gone_later", other.id)
    expect(receiver.requests).toHaveLength(1)
  })

  it("a revoked key: its endpoints' pending deliveries given up unsent (a retry and a first attempt), the endpoints disabled, nothing due", async () => {
    clock = T0
    // a key of its own (not id 1, the other tests' endpoints' key)
    const first = await insertKey(db, { email: "revoked@example.cl", tier: "free" }, T0)
    const key = first.record.id === 1 ? await insertKey(db, { email: "revoked2@example.cl", tier: "free" }, T0) : first
    const { id, receiver } = await endpointFor(db, key.record.id)
    const other = await endpointFor(db)
    receiver.behaviour = { failFirst: 1 }
    await recordEvent(db, event("evt_revoked_1", T0 - 1))
    expect(await deliverDue(ctx())).toEqual({ delivered: 1, retrying: 1, failed: 0 })
    // written before the key is revoked, not attempted yet
    await recordEvent(db, event("evt_revoked_2", T0))
    expect(await revokeKey(db, key.record.lookup, T0 + 1_000)).toBe(true)
    clock = T0 + 5_000 // the retry's time
    expect(await hasDueDelivery(db, clock)).toBe(true)
    expect(await deliverDue(ctx())).toEqual({ delivered: 1, retrying: 0, failed: 0 }) // the other endpoint's evt_revoked_2
    expect(receiver.requests.map((r) => r.id)).toEqual(["evt_revoked_1"])
    const rows = await db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", id).orderBy("event_id").execute()
    expect(rows).toMatchObject([
      { event_id: "evt_revoked_1", state: "failed", attempts: 1, last_error: REVOKED_ERROR },
      { event_id: "evt_revoked_2", state: "failed", attempts: 0, last_error: REVOKED_ERROR },
    ])
    expect((await listEndpoints(db, key.record.id))[0]?.disabledMs).toBe(clock)
    expect((await listEndpoints(db, 1)).find((e) => e.id === other.id)?.disabledMs).toBeNull()
    // nothing left due: a poll runs no round of sends; later, nothing is sent to it
    expect(await hasDueDelivery(db, clock)).toBe(false)
    clock = T0 + RETRY_WINDOW_MS - 1
    expect(await hasDueDelivery(db, clock)).toBe(false)
    await onlyTo("evt_revoked_3", other.id)
    expect(receiver.requests).toHaveLength(1)
  })

  it("gives a delivery up when the next attempt would fall more than a day after the event", async () => {
    clock = T0
    const { receiver } = await endpointFor(db)
    receiver.behaviour = { failFirst: 100 }
    await recordEvent(db, event("evt_never"))
    // every attempt as soon as it is due: 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h after each failure (≈ 17.6 h), then none
    let attempts = 0
    for (let i = 0; i < 12; i++) {
      const r = await deliverDue(ctx())
      attempts += r.retrying + r.failed
      const row = await db.selectFrom("webhook_deliveries").selectAll().where("event_id", "=", "evt_never").executeTakeFirstOrThrow()
      if (row.state === "failed") break
      clock = Number(row.next_attempt_ms)
    }
    expect(attempts).toBe(7)
    const row = await db.selectFrom("webhook_deliveries").selectAll().where("event_id", "=", "evt_never").executeTakeFirstOrThrow()
    expect(row).toMatchObject({ state: "failed", attempts: 7, last_status: 500 })
    expect(receiver.requests).toHaveLength(7)
  })
})

describe("a store made before webhook_endpoints.disabled_ms", () => {
  const OLD = "CREATE TABLE webhook_endpoints (id text PRIMARY KEY, key_id integer NOT NULL, url text NOT NULL, events text NOT NULL, secret_sealed text NOT NULL, created_ms bigint NOT NULL)"
  const ROW = "INSERT INTO webhook_endpoints VALUES ('whk_00000000000000aa', 1, 'https://example.com/hook', 'batch.published', 'sealed', 1)"
  const check = async (db: Kysely<AccountsDatabase>) => {
    try {
      expect(await listEndpoints(db, 1)).toMatchObject([{ id: "whk_00000000000000aa", disabledMs: null }])
      await db.updateTable("webhook_endpoints").set({ disabled_ms: T0 }).execute()
      expect(await listEndpoints(db, 1)).toMatchObject([{ id: "whk_00000000000000aa", disabledMs: T0 }])
    } finally {
      await db.destroy()
    }
  }

  it("gets the column on SQLite (its row kept, enabled), and opening it again changes nothing", async () => {
    const path = join(work, "old-accounts.sqlite")
    const old = new Database(path)
    old.exec(OLD)
    old.exec(ROW)
    old.close()
    await check(await openAccountsDb(path))
    await (await openAccountsDb(path)).destroy()
  })

  it("gets the column on PostgreSQL (its row kept, enabled), and opening it again changes nothing", async () => {
    const url = await cluster!.createDatabase("webhooks_old")
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(OLD)
      await client.query(ROW)
    } finally {
      await client.end()
    }
    await check(await openAccountsStore("unused.sqlite", url))
    await (await openAccountsStore("unused.sqlite", url)).destroy()
  })
})

describe("addresses refused at send time", () => {
  it("loopback by address and by a name that resolves to it, when private addresses are not allowed; nothing reaches the receiver", async () => {
    const secret = newWebhookSecret()
    const receiver = await startReceiver(secret)
    receivers.push(receiver)
    const port = new URL(receiver.url).port
    const refused = { timeoutMs: 2000, allowPrivate: false }
    const byAddress = await sendSigned(receiver.url, secret, "evt_ssrf", "{}", refused, Date.now())
    expect(byAddress).toMatchObject({ delivered: false, status: null })
    expect(byAddress.error).toContain("127.0.0.1 is not a public address")
    const byName = await sendSigned(`http://localhost:${port}/hook`, secret, "evt_ssrf", "{}", refused, Date.now())
    expect(byName).toMatchObject({ delivered: false, status: null })
    expect(byName.error).toContain("not a public address")
    // the delivery's last_error, which the key holder reads, names no resolved address
    expect(byName.error).not.toContain("127.0.0.1")
    expect(byName.error).not.toContain("::1")
    const mapped = await sendSigned(`http://[::ffff:127.0.0.1]:${port}/hook`, secret, "evt_ssrf", "{}", refused, Date.now())
    expect(mapped.error).toContain("not a public address")
    expect(receiver.requests).toHaveLength(0)
    // allowed (FDS_WEBHOOKS_ALLOW_PRIVATE=1): the same by name is sent
    expect(await sendSigned(`http://localhost:${port}/hook`, secret, "evt_ok", "{}", { timeoutMs: 2000, allowPrivate: true }, Date.now())).toMatchObject({
      delivered: true,
      status: 200,
    })
  })

  it("which addresses are public", () => {
    for (const a of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "151.101.1.69"]) expect([a, isPublicAddress(a)]).toEqual([a, true])
    for (const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "100.64.0.1",
      "169.254.169.254",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "2002:7f00:1::1",
      "not an address",
    ]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false])
    }
  })
})

describe("bounds of an attempt", () => {
  it("reads at most 1 KiB of an endless answer, and does not follow a redirect", async () => {
    let written = 0
    let redirected = 0
    const server = createServer((req, res) => {
      if (req.url === "/elsewhere") {
        redirected++
        res.end("ok")
        return
      }
      if (req.url === "/moved") {
        res.writeHead(307, { location: "/elsewhere" }).end()
        return
      }
      res.writeHead(200, { "content-type": "text/plain" })
      const chunk = Buffer.alloc(64 * 1024, "x")
      const pump = () => {
        while (!res.destroyed && written < 512 * 1024 * 1024 && res.write(chunk)) written += chunk.length
        if (!res.destroyed && written < 512 * 1024 * 1024) res.once("drain", pump)
      }
      pump()
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const settings = { timeoutMs: 5000, allowPrivate: true }
      const started = performance.now()
      const endless = await sendSigned(`${base}/hook`, newWebhookSecret(), "evt_big", "{}", settings, Date.now())
      expect(endless).toEqual({ delivered: true, status: 200, error: null })
      expect(performance.now() - started).toBeLessThan(2000)
      expect(written).toBeLessThan(64 * 1024 * 1024) // the answer was dropped, not read to its end
      const moved = await sendSigned(`${base}/moved`, newWebhookSecret(), "evt_moved", "{}", settings, Date.now())
      expect(moved).toMatchObject({ delivered: false, status: 307 })
      expect(redirected).toBe(0)
      const huge = await sendSigned(`${base}/hook`, newWebhookSecret(), "evt_huge", "x".repeat(65 * 1024), settings, Date.now())
      expect(huge).toMatchObject({ delivered: false, status: null, error: "body over 65536 bytes" })
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe("secrets and the schedule", () => {
  it("a sealed secret opens with the service secret and its endpoint id only", () => {
    const secret = newWebhookSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const sealed = sealSecret(serviceSecret, "whk_0000000000000001", secret)
    expect(sealed).not.toContain(secret.slice(6))
    expect(openSecret(serviceSecret, "whk_0000000000000001", sealed)).toBe(secret)
    expect(() => openSecret(serviceSecret, "whk_0000000000000002", sealed)).toThrow()
    expect(() => openSecret(Redacted.make(new Uint8Array(randomBytes(32))), "whk_0000000000000001", sealed)).toThrow()
  })

  it("the retry schedule, by worked examples", () => {
    const created = T0
    expect(nextAttemptMs(1, T0, created)).toBe(T0 + 5_000)
    expect(nextAttemptMs(2, T0 + 5_000, created)).toBe(T0 + 5_000 + 300_000)
    expect(nextAttemptMs(3, T0 + 305_000, created)).toBe(T0 + 305_000 + 1_800_000)
    expect(nextAttemptMs(4, T0, created)).toBe(T0 + 7_200_000)
    expect(nextAttemptMs(6, T0 + 3_600_000, created)).toBe(T0 + 11 * 3_600_000)
    // past the day: given up
    expect(nextAttemptMs(6, T0 + 15 * 3_600_000, created)).toBeNull()
    expect(nextAttemptMs(8, T0, created)).toBeNull()
  })
})
