/**
 * The same key, quota and account behaviours on both accounts stores: the embedded SQLite file and
 * PostgreSQL (a throwaway cluster on loopback, test/support/postgres.ts). Days are moved with
 * TestClock; expected local dates are worked out from Chile's offsets (UTC−3 in November).
 */

import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Kysely } from "kysely"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { type AccountsDatabase, openAccountsDb, openAccountsStore } from "../../accounts/AccountsDb.ts"
import { listKeys, revokeKey, setQuota, usage } from "../../accounts/KeyAdmin.ts"
import { KeyStore } from "../../accounts/KeyStore.ts"
import { issueToken, redeemToken } from "../../accounts/OneTimeTokens.ts"
import { redeemRegistration } from "../../accounts/Registrations.ts"
import { findOrCreateUser } from "../../accounts/Users.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"

interface Store {
  /** A fresh, empty store and a second independent connection to it (another process's view). */
  readonly open: () => Promise<{ readonly db: Kysely<AccountsDatabase>; readonly other: Kysely<AccountsDatabase>; readonly cleanup: () => Promise<void> }>
}

const sqliteStore: Store = {
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), "fds-store-"))
    const path = join(dir, "accounts.sqlite")
    const db = await openAccountsDb(path)
    const other = await openAccountsDb(path)
    return {
      db,
      other,
      cleanup: async () => {
        await db.destroy()
        await other.destroy()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  },
}

let cluster: TestPostgres | undefined
const postgresStore: Store = {
  open: async () => {
    if (cluster === undefined) throw new Error("PostgreSQL did not start")
    const url = await cluster.createDatabase("stores")
    const db = await openAccountsStore("unused.sqlite", url)
    const other = await openAccountsStore("unused.sqlite", url)
    return {
      db,
      other,
      cleanup: async () => {
        await db.destroy()
        await other.destroy()
      },
    }
  },
}

beforeAll(async () => {
  cluster = await startPostgres()
})
afterAll(() => {
  cluster?.stop()
})

const unix = (iso: string) => Date.parse(iso) / 1000

describe.each([
  ["SQLite", sqliteStore],
  ["PostgreSQL", postgresStore],
] as const)("accounts store on %s", (_name, store) => {
  const withStore = Effect.acquireRelease(
    Effect.promise(() => store.open()),
    (s) => Effect.promise(() => s.cleanup()),
  ).pipe(Effect.map((s) => ({ ...s, keys: KeyStore.make(s.db) })))

  it.effect("counts per Santiago day: 23:30 and 00:00 local are two days", () =>
    Effect.gen(function* () {
      const { keys, db } = yield* withStore
      yield* TestClock.setTime(Date.UTC(2026, 10, 22, 2, 30)) // 2026-11-21 23:30 −03
      const { record } = yield* keys.create({ email: "day@example.cl", tier: "free" })
      expect(yield* keys.recordUse(record.id)).toBe(1)
      expect(yield* keys.recordUse(record.id)).toBe(2)
      expect(yield* keys.usageToday(record.id)).toBe(2)
      yield* TestClock.setTime(Date.UTC(2026, 10, 22, 3, 0)) // 2026-11-22 00:00 −03
      expect(yield* keys.usageToday(record.id)).toBe(0)
      expect(yield* keys.recordUse(record.id)).toBe(1)
      const rows = yield* Effect.promise(() => usage(db, "2026-11-01", record.lookup))
      expect(rows).toEqual([
        { lookup: record.lookup, day: "2026-11-22", count: 1 },
        { lookup: record.lookup, day: "2026-11-21", count: 2 },
      ])
    }),
  )

  it.effect("verify finds the key and refuses a revoked one; a key's quota overrides its tier's", () =>
    Effect.gen(function* () {
      const { keys, db } = yield* withStore
      const a = yield* keys.create({ email: "q@example.cl", tier: "free", dailyQuota: 42, name: "Q" })
      expect(yield* keys.verify(a.key)).toMatchObject({ id: a.record.id, tier: "free", dailyQuota: 42, name: "Q" })
      const inst = yield* keys.create({ email: "i@example.cl", tier: "institutional" })
      expect((yield* keys.verify(inst.key))?.dailyQuota).toBe(25_000)
      expect(yield* Effect.promise(() => setQuota(db, inst.record.lookup, 7))).toBe(true)
      expect((yield* keys.verify(inst.key))?.dailyQuota).toBe(7)
      expect(yield* Effect.promise(() => revokeKey(db, a.record.lookup, Date.UTC(2026, 0, 1)))).toBe(true)
      expect(yield* Effect.promise(() => revokeKey(db, a.record.lookup, Date.UTC(2026, 0, 1)))).toBe(false)
      expect(yield* keys.verify(a.key)).toBeNull()
      expect(yield* keys.verify("fds_not_a_key")).toBeNull()
      const listed = yield* Effect.promise(() => listKeys(db, "Q@EXAMPLE.CL"))
      expect(listed).toMatchObject([{ lookup: a.record.lookup, quota: "42 (key)", revoked: "2026-01-01T00:00:00.000Z" }])
    }),
  )

  it.effect("the last unit, then refused and not counted; a fresh quota at Santiago midnight (spring forward)", () =>
    Effect.gen(function* () {
      const { keys } = yield* withStore
      const { record } = yield* keys.create({ email: "spring@example.cl", tier: "free", dailyQuota: 2 })
      yield* TestClock.setTime(Date.parse("2026-09-05T16:00:00Z"))
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, used: 1, remaining: 1, resetAt: unix("2026-09-06T04:00:00Z") })
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, used: 2, remaining: 0 })
      expect(yield* keys.consume(record)).toMatchObject({ allowed: false, used: 2, remaining: 0 })
      expect(yield* keys.usageToday(record.id)).toBe(2)
      yield* TestClock.setTime(Date.parse("2026-09-06T04:00:00Z")) // 01:00 −03 on the 6th
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, remaining: 1, resetAt: unix("2026-09-07T03:00:00Z") })
      expect(yield* keys.peek(record)).toMatchObject({ used: 1, remaining: 1, allowed: true })
    }),
  )

  it.effect("a quota of 0 counts nothing; keys without a limit are counted and never refused", () =>
    Effect.gen(function* () {
      const { keys } = yield* withStore
      const zero = yield* keys.create({ email: "zero@example.cl", tier: "free", dailyQuota: 0 })
      expect(yield* keys.consume(zero.record)).toMatchObject({ allowed: false, used: 0, remaining: 0 })
      expect(yield* keys.usageToday(zero.record.id)).toBe(0)
      const internal = yield* keys.create({ email: "ops@example.cl", tier: "internal" })
      for (let i = 1; i <= 3; i++) {
        expect(yield* keys.consume(internal.record)).toMatchObject({ allowed: true, limit: null, remaining: null, used: i })
      }
    }),
  )

  it.effect("concurrent requests through two connections: exactly the quota is counted, no lost update", () =>
    Effect.gen(function* () {
      const { keys, other } = yield* withStore
      const second = KeyStore.make(other)
      const { record } = yield* keys.create({ email: "race@example.cl", tier: "free", dailyQuota: 25 })
      const results = yield* Effect.all(
        Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? keys : second).consume(record)),
        { concurrency: "unbounded" },
      )
      expect(results.filter((r) => r.allowed)).toHaveLength(25)
      expect(results.filter((r) => r.allowed).map((r) => r.used).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      )
      expect(yield* keys.usageToday(record.id)).toBe(25)
      const unlimited = yield* keys.create({ email: "race2@example.cl", tier: "internal" })
      yield* Effect.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? keys : second).consume(unlimited.record)),
        { concurrency: "unbounded" },
      )
      expect(yield* second.usageToday(unlimited.record.id)).toBe(40)
    }),
  )

  it.effect("users are created once per address; a one-time token works exactly once; times keep their milliseconds", () =>
    Effect.gen(function* () {
      const { db } = yield* withStore
      const now = Date.UTC(2026, 10, 20, 15, 0, 0, 123)
      const u1 = yield* Effect.promise(() => findOrCreateUser(db, "Person@Example.cl", null, now))
      const u2 = yield* Effect.promise(() => findOrCreateUser(db, "person@example.cl", "https://idp sub", now + 1))
      expect(u2.id).toBe(u1.id)
      expect(u1).toMatchObject({ email: "person@example.cl", emailOptInAlerts: false })
      const token = yield* Effect.promise(() =>
        issueToken(db, { kind: "magic_link", email: "person@example.cl", returnUrl: "/me", ttlMs: 900_000 }, now),
      )
      const redeemed = yield* Effect.promise(() =>
        Promise.all([redeemToken(db, "magic_link", token, now + 1), redeemToken(db, "magic_link", token, now + 2)]),
      )
      expect(redeemed.filter((r) => r !== undefined)).toEqual([{ email: "person@example.cl", return_url: "/me", subject: null }])
      const row = yield* Effect.promise(() => db.selectFrom("login_tokens").select(["created_ms", "expires_ms"]).executeTakeFirstOrThrow())
      expect(row).toEqual({ created_ms: now, expires_ms: now + 900_000 })
    }),
  )

  it.effect("using one registration link of an address ends its others, also when two are used at once", () =>
    Effect.gen(function* () {
      const { db, other } = yield* withStore
      const now = Date.UTC(2026, 10, 20, 15, 0, 0)
      const link = (email: string, at: number) =>
        issueToken(db, { kind: "registration", email, returnUrl: null, ttlMs: 86_400_000 }, at)
      const freeKeys = (email: string) =>
        db.selectFrom("api_keys").select("id").where("email", "=", email).where("revoked_at", "is", null).execute()
      // one after the other: the newer used, the older (and a third) refused; the newer key stays
      const [older, newer, third] = yield* Effect.promise(() =>
        Promise.all([link("seq@example.cl", now), link("seq@example.cl", now + 1), link("seq@example.cl", now + 2)]),
      )
      const someoneElse = yield* Effect.promise(() => link("else@example.cl", now))
      const issued = yield* Effect.promise(() => redeemRegistration(db, newer!, now + 10))
      expect(issued?.record.email).toBe("seq@example.cl")
      expect(yield* Effect.promise(() => redeemRegistration(other, older!, now + 11))).toBeNull()
      expect(yield* Effect.promise(() => redeemRegistration(db, third!, now + 12))).toBeNull()
      expect(yield* Effect.promise(() => freeKeys("seq@example.cl"))).toEqual([{ id: issued!.record.id }])
      // another address's link is not touched
      expect((yield* Effect.promise(() => redeemRegistration(db, someoneElse, now + 13)))?.record.email).toBe("else@example.cl")
      // at once (PostgreSQL: two pooled connections): one key, one refusal
      const [a, b] = yield* Effect.promise(() => Promise.all([link("race@example.cl", now), link("race@example.cl", now + 1)]))
      const raced = yield* Effect.promise(() =>
        Promise.all([redeemRegistration(db, a!, now + 20), redeemRegistration(db, b!, now + 20)]),
      )
      expect(raced.filter((r) => r !== null)).toHaveLength(1)
      expect(yield* Effect.promise(() => freeKeys("race@example.cl"))).toHaveLength(1)
    }),
  )
})
