/**
 * What a review found by probing the webhooks as an attacker and as a careless operator, each
 * pinned: a NAT64 address (64:ff9b::/96) is judged by the IPv4 address it carries; a URL with line
 * breaks, tabs or spaces is refused (the URL parser would drop them, so the URL kept would not be
 * the one called); FDS_WEBHOOKS_ALLOW_PRIVATE takes the values `serve` takes, another is refused
 * where the daemon and `webhooks send` read it; a revoked key's endpoints get no new events and no
 * retries of pending ones.
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ConfigProvider, Effect, Redacted } from "effect"
import type { Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AccountsDatabase, openAccountsDb } from "../../accounts/AccountsDb.ts"
import { isPublicAddress, urlProblem } from "../../accounts/WebhookAddress.ts"
import { deliverDue } from "../../accounts/WebhookDelivery.ts"
import { webhookSettings } from "../../accounts/Webhooks.ts"
import { newWebhookSecret, sealSecret } from "../../accounts/WebhookSecret.ts"
import { insertEndpoint, recordEvent } from "../../accounts/WebhookStore.ts"
import { type Receiver, startReceiver } from "./support/receiver.ts"

describe("webhook addresses", () => {
  it("a NAT64 address is as public as the IPv4 address it carries", () => {
    for (const a of ["64:ff9b::a9fe:a9fe", "64:ff9b::169.254.169.254", "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::c0a8:101", "64:ff9b::"]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false])
    }
    for (const a of ["64:ff9b::808:808", "64:ff9b::8.8.8.8"]) expect([a, isPublicAddress(a)]).toEqual([a, true])
  })

  it("a URL with a line break, a tab or a space is refused, not silently rewritten", () => {
    for (const u of ["https://hooks.example.com/a\r\nX-Injected: 1", "https://hooks.example.com/a\tb", " https://hooks.example.com/", "https://hooks.example.com/a b", "https://hooks.example.com/\u0000"]) {
      expect([u, urlProblem(u, false)]).toEqual([u, "must not contain spaces or control characters (percent-encode them)"])
    }
    expect(urlProblem("https://hooks.example.com/a%20b?x=1", false)).toBeNull()
  })
})

describe("FDS_WEBHOOKS_ALLOW_PRIVATE", () => {
  const read = (env: Record<string, string>) => Effect.runSync(Effect.result(webhookSettings.parse(ConfigProvider.fromUnknown(env))))
  it("takes 0, 1, true, false or nothing; another value is an error naming it, not a silent 0", () => {
    for (const [v, allowed] of [["1", true], ["true", true], ["0", false], ["false", false], ["", false]] as const) {
      const r = read({ FDS_WEBHOOKS_ALLOW_PRIVATE: v })
      expect([v, r._tag === "Success" && r.success.allowPrivate]).toEqual([v, allowed])
    }
    const unset = read({})
    expect(unset._tag === "Success" && unset.success.allowPrivate).toBe(false)
    for (const v of ["yes", "on", "TRUE", "2"]) {
      const r = read({ FDS_WEBHOOKS_ALLOW_PRIVATE: v })
      expect([v, r._tag]).toEqual([v, "Failure"])
      if (r._tag === "Failure") expect(String(r.failure)).toContain("FDS_WEBHOOKS_ALLOW_PRIVATE")
    }
  })
})

describe("a revoked key's endpoints", () => {
  const serviceSecret = Redacted.make(new Uint8Array(randomBytes(32)))
  let work: string
  let db: Kysely<AccountsDatabase>
  let receiver: Receiver
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "fds-webhook-probe-"))
    db = await openAccountsDb(join(work, "accounts.sqlite"))
    receiver = await startReceiver(newWebhookSecret())
  })
  afterAll(async () => {
    await receiver?.close()
    await db?.destroy()
    rmSync(work, { recursive: true, force: true })
  })

  it("get no new events and no retries once the key is revoked", async () => {
    const T0 = Date.parse("2026-11-20T12:00:00Z")
    const key = await db
      .insertInto("api_keys")
      .values({ lookup: "probe0001", hash: "x", email: "a@example.com", name: "", tier: "free", daily_quota: null, created_at: new Date(T0).toISOString(), revoked_at: null })
      .returning("id")
      .executeTakeFirstOrThrow()
    const id = `whk_${randomBytes(8).toString("hex")}`
    await insertEndpoint(db, { id, keyId: Number(key.id), url: receiver.url, events: ["batch.published"], sealed: sealSecret(serviceSecret, id, receiver.secret) }, T0 - 1000)
    const ctx = (now: number) => ({ db, serviceSecret, send: { timeoutMs: 5000, allowPrivate: true }, now: () => now })
    const event = (eventId: string) => ({ id: eventId, type: "batch.published" as const, createdMs: T0, data: { batch_id: "2026-11-20-0123456789abcdef" } })

    // live: delivered; a failing attempt leaves a retry pending
    await recordEvent(db, event("evt_live"))
    expect(await deliverDue(ctx(T0))).toEqual({ delivered: 1, retrying: 0, failed: 0 })
    receiver.behaviour = { failFirst: 2 } // counted from the receiver's first request
    await recordEvent(db, event("evt_pending"))
    expect(await deliverDue(ctx(T0))).toEqual({ delivered: 0, retrying: 1, failed: 0 })
    receiver.behaviour = {}

    await db.updateTable("api_keys").set({ revoked_at: new Date(T0 + 1000).toISOString() }).where("id", "=", key.id).execute()
    await recordEvent(db, event("evt_after_revoke"))
    const deliveries = await db.selectFrom("webhook_deliveries").select("event_id").where("endpoint_id", "=", id).execute()
    expect(deliveries.map((d) => d.event_id).sort()).toEqual(["evt_live", "evt_pending"])
    expect(await deliverDue(ctx(T0 + 60_000))).toEqual({ delivered: 0, retrying: 0, failed: 0 })
    expect(receiver.requests.map((r) => [r.id, r.status])).toEqual([
      ["evt_live", 200],
      ["evt_pending", 500],
    ])
  })
})
