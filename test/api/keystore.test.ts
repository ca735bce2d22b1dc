/**
 * KeyStore on a real accounts.sqlite: usage is counted per America/Santiago calendar day, moved
 * with TestClock (never by waiting). Expected local dates are worked out here from Chile's
 * offsets: UTC−3 in southern summer (November), UTC−4 in winter (July).
 */

import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import type { Kysely } from "kysely"
import { describe, expect } from "vitest"
import { type AccountsDatabase, openAccountsDb, WAL_SIZE_LIMIT } from "../../accounts/AccountsDb.ts"
import { generateKey } from "../../accounts/ApiKey.ts"
import { KeyStore } from "../../accounts/KeyStore.ts"

const withStore = Effect.gen(function* () {
  const dir = mkdtempSync(join(tmpdir(), "fds-keys-"))
  yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
  const path = join(dir, "accounts.sqlite")
  const db = yield* Effect.acquireRelease(
    Effect.promise(() => openAccountsDb(path)),
    (d) => Effect.promise(() => d.destroy()),
  )
  return { keys: KeyStore.make(db), path }
})

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/**
 * A KeyStore on its own accounts.sqlite for `body`; `open` gives another connection to the same
 * file (another process, as SQLite sees it). Everything is closed and removed afterwards.
 */
const onStore = async (
  body: (store: {
    readonly db: Kysely<AccountsDatabase>
    readonly keys: ReturnType<typeof KeyStore.make>
    readonly path: string
    readonly open: (options?: Database.Options) => Database.Database
  }) => Promise<void>,
): Promise<void> => {
  const dir = mkdtempSync(join(tmpdir(), "fds-keys-"))
  const path = join(dir, "accounts.sqlite")
  const db = await openAccountsDb(path)
  const others: Array<Database.Database> = []
  try {
    await body({
      db,
      keys: KeyStore.make(db),
      path,
      open: (options) => {
        const other = new Database(path, options)
        others.push(other)
        return other
      },
    })
  } finally {
    for (const other of others) other.close()
    await db.destroy()
    rmSync(dir, { recursive: true, force: true })
  }
}

const usageDays = (path: string, keyId: number): Array<{ day: string; count: number }> => {
  const db = new Database(path, { readonly: true })
  try {
    return db.prepare("SELECT day, count FROM usage WHERE key_id = ? ORDER BY day").all(keyId) as Array<{
      day: string
      count: number
    }>
  } finally {
    db.close()
  }
}

describe("KeyStore usage counters", () => {
  it.effect("count per Santiago day: 23:30 local and 00:00 local are two days (summer, UTC−3)", () =>
    Effect.gen(function* () {
      const { keys, path } = yield* withStore
      // 2026-11-22T02:30Z = 2026-11-21 23:30 in Santiago (UTC−3)
      yield* TestClock.setTime(Date.UTC(2026, 10, 22, 2, 30))
      const { record } = yield* keys.create({ email: "day@example.cl", tier: "free" })
      expect(yield* keys.recordUse(record.id)).toBe(1)
      expect(yield* keys.recordUse(record.id)).toBe(2)
      expect(yield* keys.usageToday(record.id)).toBe(2)

      // 2026-11-22T03:00Z = 2026-11-22 00:00 in Santiago: a new day, counter starts again
      yield* TestClock.setTime(Date.UTC(2026, 10, 22, 3, 0))
      expect(yield* keys.usageToday(record.id)).toBe(0)
      expect(yield* keys.recordUse(record.id)).toBe(1)
      expect(usageDays(path, record.id)).toEqual([
        { day: "2026-11-21", count: 2 },
        { day: "2026-11-22", count: 1 },
      ])
    }),
  )

  it.effect("in winter (UTC−4) the local day turns at 04:00Z", () =>
    Effect.gen(function* () {
      const { keys, path } = yield* withStore
      const { record } = yield* keys.create({ email: "winter@example.cl", tier: "institutional" })
      expect(record.dailyQuota).toBe(25_000)
      // 2026-07-01T03:30Z = 2026-06-30 23:30 in Santiago (UTC−4)
      yield* TestClock.setTime(Date.UTC(2026, 6, 1, 3, 30))
      yield* keys.recordUse(record.id)
      // 2026-07-01T04:00Z = 2026-07-01 00:00 in Santiago
      yield* TestClock.setTime(Date.UTC(2026, 6, 1, 4, 0))
      yield* keys.recordUse(record.id)
      yield* keys.recordUse(record.id)
      expect(usageDays(path, record.id)).toEqual([
        { day: "2026-06-30", count: 1 },
        { day: "2026-07-01", count: 2 },
      ])
    }),
  )

  it.effect("verify finds the key, refuses a revoked one, and a key's quota overrides its tier's", () =>
    Effect.gen(function* () {
      const { keys, path } = yield* withStore
      const a = yield* keys.create({ email: "q@example.cl", tier: "free", dailyQuota: 42, name: "Q" })
      const found = yield* keys.verify(a.key)
      expect(found).toMatchObject({ id: a.record.id, tier: "free", dailyQuota: 42, name: "Q", email: "q@example.cl" })
      const b = yield* keys.create({ email: "z@example.cl", tier: "free", dailyQuota: 0 })
      expect((yield* keys.verify(b.key))?.dailyQuota).toBe(0)

      const db = new Database(path)
      try {
        db.prepare("UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00Z' WHERE id = ?").run(a.record.id)
      } finally {
        db.close()
      }
      expect(yield* keys.verify(a.key)).toBeNull()
      expect(yield* keys.verify("fds_not_a_key")).toBeNull()
    }),
  )
})

/**
 * The quota resets at the start of the next America/Santiago date. Chile's clock changes fall at
 * local midnight; worked out by hand from the offsets (UTC−4 in winter, UTC−3 in summer):
 *   2026-09-06 (spring forward): 2026-09-05 23:59:59 −04 is followed by 2026-09-06 01:00 −03
 *     (= 04:00Z); the 6th lasts 23 hours, until 2026-09-07 00:00 −03 (= 03:00Z).
 *   2026-04-04 (fall back): 2026-04-04 23:59:59 −03 (= 02:59:59Z) is followed by 23:00 −04 again;
 *     the 4th lasts 25 hours, until 2026-04-05 00:00 −04 (= 04:00Z).
 */
describe("quota reset on the days Chile changes its clocks (TestClock)", () => {
  const at = (iso: string) => TestClock.setTime(Date.parse(iso))
  const unix = (iso: string) => Date.parse(iso) / 1000

  it.effect("spring forward: local 00:00 does not exist; the new day starts at 01:00 −03", () =>
    Effect.gen(function* () {
      const { keys, path } = yield* withStore
      const { record } = yield* keys.create({ email: "spring@example.cl", tier: "free", dailyQuota: 2 })
      yield* at("2026-09-05T16:00:00Z") // 12:00 −04 on the 5th
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, remaining: 1, resetAt: unix("2026-09-06T04:00:00Z") })
      yield* at("2026-09-06T03:59:59Z") // 23:59:59 −04, still the 5th
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, remaining: 0, resetAt: unix("2026-09-06T04:00:00Z") })
      expect(yield* keys.consume(record)).toMatchObject({ allowed: false, remaining: 0 })
      yield* at("2026-09-06T04:00:00Z") // 01:00 −03: the 6th, a fresh quota, reset after 23 hours
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, remaining: 1, resetAt: unix("2026-09-07T03:00:00Z") })
      yield* at("2026-09-07T02:59:59Z")
      expect(yield* keys.peek(record)).toMatchObject({ used: 1, resetAt: unix("2026-09-07T03:00:00Z") })
      expect(usageDays(path, record.id)).toEqual([
        { day: "2026-09-05", count: 2 },
        { day: "2026-09-06", count: 1 },
      ])
    }),
  )

  it.effect("fall back: the repeated hour belongs to the same day; the next day starts at 00:00 −04", () =>
    Effect.gen(function* () {
      const { keys, path } = yield* withStore
      const { record } = yield* keys.create({ email: "autumn@example.cl", tier: "free", dailyQuota: 3 })
      yield* at("2026-04-04T15:00:00Z") // 12:00 −03 on the 4th
      expect(yield* keys.consume(record)).toMatchObject({ remaining: 2, resetAt: unix("2026-04-05T04:00:00Z") })
      yield* at("2026-04-05T02:30:00Z") // 23:30 −03, first time
      expect(yield* keys.consume(record)).toMatchObject({ remaining: 1, resetAt: unix("2026-04-05T04:00:00Z") })
      yield* at("2026-04-05T03:30:00Z") // 23:30 −04, second time: still the 4th, not a new day
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, remaining: 0, resetAt: unix("2026-04-05T04:00:00Z") })
      expect(yield* keys.consume(record)).toMatchObject({ allowed: false })
      yield* at("2026-04-05T04:00:00Z") // 00:00 −04 on the 5th
      expect(yield* keys.consume(record)).toMatchObject({ allowed: true, remaining: 2, resetAt: unix("2026-04-06T04:00:00Z") })
      expect(usageDays(path, record.id)).toEqual([
        { day: "2026-04-04", count: 3 },
        { day: "2026-04-05", count: 1 },
      ])
    }),
  )

  it.effect("keys without a daily limit are counted and never refused", () =>
    Effect.gen(function* () {
      const { keys } = yield* withStore
      const { record } = yield* keys.create({ email: "internal@example.cl", tier: "internal" })
      yield* at("2026-11-20T15:00:00Z")
      for (let i = 1; i <= 3; i++) {
        expect(yield* keys.consume(record)).toMatchObject({ allowed: true, limit: null, remaining: null, used: i })
      }
    }),
  )
})

describe("the quota statement and the store's transactions", () => {
  it("a new store's file and its WAL are readable by their owner only (they hold e-mail addresses)", () =>
    onStore(async ({ keys, path }) => {
      await Effect.runPromise(keys.create({ email: "mode@example.cl", tier: "free" }))
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600)
    }),
  )

  it("a request counted while another transaction is open is not lost when that transaction rolls back", () =>
    onStore(async ({ db, keys }) => {
      const { record } = await Effect.runPromise(keys.create({ email: "tx@example.cl", tier: "free" }))
      let counted: Promise<unknown> | undefined
      const rolledBack = await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable("api_keys").set({ name: "changed" }).where("id", "=", record.id).execute()
          counted = Effect.runPromise(keys.consume(record)) // arrives in the middle of the transaction
          throw new Error("roll back")
        })
        .then(
          () => false,
          () => true,
        )
      expect(rolledBack).toBe(true)
      expect(await counted).toMatchObject({ allowed: true, used: 1 })
      expect(await Effect.runPromise(keys.usageToday(record.id))).toBe(1)
    }),
  )

  it("requests of one turn queued before a kysely transaction opens are counted after it, not inside it", () =>
    onStore(async ({ db, keys }) => {
      const { record } = await Effect.runPromise(keys.create({ email: "queued@example.cl", tier: "free" }))
      let settled = false
      const counted = Effect.runPromise(keys.consume(record)).finally(() => {
        settled = true
      }) // waits for the end of this turn
      let openWhenTurnEnded = false
      const rolledBack = await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable("api_keys").set({ name: "changed" }).where("id", "=", record.id).execute()
          // the turn ends (twice over) while the transaction is open: the request must still wait
          await new Promise((resolve) => setImmediate(resolve))
          await new Promise((resolve) => setImmediate(resolve))
          openWhenTurnEnded = !settled
          throw new Error("roll back")
        })
        .then(
          () => false,
          () => true,
        )
      expect(openWhenTurnEnded && rolledBack).toBe(true)
      expect(await counted).toMatchObject({ allowed: true, used: 1 })
      expect(await Effect.runPromise(keys.usageToday(record.id))).toBe(1)
      const name = await db.selectFrom("api_keys").select("name").where("id", "=", record.id).executeTakeFirstOrThrow()
      expect(name.name).toBe("queued@example.cl")
    }),
  )

  it("when the turn's transaction cannot be had, each request of the turn fails and none is counted", () =>
    onStore(async ({ keys, path, open }) => {
      const other = open()
      const limited = (await Effect.runPromise(keys.create({ email: "l@example.cl", tier: "free" }))).record
      const unlimited = (await Effect.runPromise(keys.create({ email: "u@example.cl", tier: "internal" }))).record
      other.exec("BEGIN IMMEDIATE") // another process holds the write lock past the busy timeout (2 s)
      const turn = [limited, unlimited, limited].map((k) => Effect.runPromise(Effect.result(keys.consume(k))))
      const outcomes = await Promise.all(turn)
      expect(outcomes.map((o) => (o._tag === "Failure" ? o.failure._tag : "counted"))).toEqual([
        "AccountsUnavailable",
        "AccountsUnavailable",
        "AccountsUnavailable",
      ])
      other.exec("ROLLBACK")
      expect(usageDays(path, limited.id)).toEqual([])
      // one turn with both kinds of key: each counted by its own statement, in order
      const next = await Promise.all([limited, unlimited, limited].map((k) => Effect.runPromise(keys.consume(k))))
      expect(next.map((q) => [q.used, q.remaining])).toEqual([
        [1, 299],
        [1, null],
        [2, 298],
      ])
    }),
    15_000,
  )

  it("a statement failing in the middle of a turn leaves none of the turn's requests counted", () =>
    onStore(async ({ keys, path, open }) => {
      const other = open()
      const a = (await Effect.runPromise(keys.create({ email: "a@example.cl", tier: "free" }))).record
      const b = (await Effect.runPromise(keys.create({ email: "b@example.cl", tier: "free" }))).record
      // b's statement fails after a's first one has run in the same turn
      other.exec(`CREATE TRIGGER boom BEFORE INSERT ON usage WHEN NEW.key_id = ${b.id} BEGIN SELECT RAISE(ABORT, 'boom'); END`)
      const outcomes = await Promise.all([a, b, a].map((k) => Effect.runPromise(Effect.result(keys.consume(k)))))
      expect(outcomes.map((o) => (o._tag === "Failure" ? o.failure._tag : "counted"))).toEqual([
        "AccountsUnavailable",
        "AccountsUnavailable",
        "AccountsUnavailable",
      ])
      expect(usageDays(path, a.id)).toEqual([]) // a's first statement was rolled back with the turn
      other.exec("DROP TRIGGER boom")
      expect(await Effect.runPromise(keys.consume(a))).toMatchObject({ allowed: true, used: 1 })
    }),
  )

  it("a request whose caller is interrupted while it waits for the end of the turn is not counted", () =>
    onStore(async ({ keys, path }) => {
      const { record } = await Effect.runPromise(keys.create({ email: "gone@example.cl", tier: "free" }))
      const gone = Effect.runFork(keys.consume(record))
      const stays = Effect.runPromise(keys.consume(record))
      await Effect.runPromise(Fiber.interrupt(gone)) // before the turn ends (the client went away)
      expect(await stays).toMatchObject({ allowed: true, used: 1 })
      expect(usageDays(path, record.id)).toEqual([{ day: expect.any(String), count: 1 }])
    }),
  )

  it("a WAL that grew while a reader held an old snapshot is cut back once SQLite starts it again", () =>
    onStore(async ({ keys, path, open }) => {
      const reader = open({ readonly: true })
      const { record } = await Effect.runPromise(keys.create({ email: "grow@example.cl", tier: "internal" }))
      reader.exec("BEGIN")
      reader.prepare("SELECT count(*) FROM usage").get() // holds its snapshot: no checkpoint can finish
      for (let i = 0; i < 3_000; i++) await Effect.runPromise(keys.consume(record))
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(WAL_SIZE_LIMIT) // ≥ 3,000 pages of 4 KiB
      reader.exec("COMMIT")
      for (let i = 0; i < 1_100; i++) await Effect.runPromise(keys.consume(record))
      expect(statSync(`${path}-wal`).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT)
      expect(await Effect.runPromise(keys.usageToday(record.id))).toBe(4_100)
    }),
  )

  it("verifyAndConsume: one turn with good, revoked, unknown and malformed keys counts only the good ones", () =>
    onStore(async ({ db, keys, path }) => {
      const good = await Effect.runPromise(keys.create({ email: "good@example.cl", tier: "free", dailyQuota: 2 }))
      const revoked = await Effect.runPromise(keys.create({ email: "revoked@example.cl", tier: "free" }))
      await db.updateTable("api_keys").set({ revoked_at: "2026-11-01T00:00:00Z" }).where("id", "=", revoked.record.id).execute()
      // a well-formed key whose row is gone: its lookup token finds nothing
      const gone = await Effect.runPromise(keys.create({ email: "gone@example.cl", tier: "free" }))
      await db.deleteFrom("api_keys").where("id", "=", gone.record.id).execute()
      // the last character changed (to one it is not: a fixed "x" would be the same key 1 time in 62)
      const altered = good.key.slice(0, -1) + (good.key.endsWith("x") ? "y" : "x")
      const asked = [good.key, revoked.key, good.key, "not-a-key", good.key, altered]
      const answers = await Promise.all(asked.map((k) => Effect.runPromise(keys.verifyAndConsume(k))))
      expect(answers.map((a) => (a === null ? null : [a.record.id, a.quota.allowed, a.quota.used, a.quota.remaining]))).toEqual([
        [good.record.id, true, 1, 1],
        null,
        [good.record.id, true, 2, 0],
        null,
        [good.record.id, false, 2, 0], // the quota of 2 is used up: refused, not counted
        null, // a key whose last character differs: its checksum (or hash) fails
      ])
      expect(await Effect.runPromise(keys.verifyAndConsume(gone.key))).toBeNull()
      expect(usageDays(path, good.record.id)).toEqual([{ day: expect.any(String), count: 2 }])
      expect(usageDays(path, revoked.record.id)).toEqual([])
    }),
  )

  it("verifyAndConsume: a turn of refused keys only takes no write lock (answers at once while another process writes)", () =>
    onStore(async ({ db, keys, open }) => {
      const other = open()
      const revoked = await Effect.runPromise(keys.create({ email: "r@example.cl", tier: "free" }))
      await db.updateTable("api_keys").set({ revoked_at: "2026-11-01T00:00:00Z" }).where("id", "=", revoked.record.id).execute()
      const gone = await Effect.runPromise(keys.create({ email: "g@example.cl", tier: "free" }))
      await db.deleteFrom("api_keys").where("id", "=", gone.record.id).execute()
      other.exec("BEGIN IMMEDIATE") // holds the write lock (the busy wait would be 2 s)
      const started = performance.now()
      const answers = await Promise.all([revoked.key, gone.key, revoked.key].map((k) => Effect.runPromise(keys.verifyAndConsume(k))))
      expect(answers).toEqual([null, null, null])
      expect(performance.now() - started).toBeLessThan(1_000)
      other.exec("ROLLBACK")
    }),
  )

  it("verifyAndConsume: a forged key sharing a good key's lookup token, in the same turn, is refused (each key's own hash)", () =>
    onStore(async ({ keys, path }) => {
      const good = await Effect.runPromise(keys.create({ email: "good@example.cl", tier: "free" }))
      // same 6 lookup bytes (so the same lookup token and row), another secret, a valid checksum
      const lookupBytes = Buffer.from(
        (() => {
          let n = 0n
          for (const ch of good.record.lookup) n = n * 62n + BigInt(BASE62.indexOf(ch))
          return Array.from({ length: 6 }, (_, i) => Number((n >> BigInt(8 * (5 - i))) & 255n))
        })(),
      )
      let calls = 0
      const forged = generateKey((n) => (calls++ === 0 ? lookupBytes : randomBytes(n))).key
      expect(forged).not.toBe(good.key)
      expect(forged.slice(0, 12)).toBe(good.key.slice(0, 12))
      for (const order of [
        [good.key, forged],
        [forged, good.key],
      ]) {
        const answers = await Promise.all(order.map((k) => Effect.runPromise(keys.verifyAndConsume(k))))
        expect(answers.map((a) => a !== null)).toEqual(order.map((k) => k === good.key))
      }
      expect(usageDays(path, good.record.id)).toEqual([{ day: expect.any(String), count: 2 }])
    }),
  )

  it("verifyAndConsume: a key's check waits for a transaction open when the turn ends (it never sees its uncommitted rows)", () =>
    onStore(async ({ db, keys }) => {
      const { key, record } = await Effect.runPromise(keys.create({ email: "rev@example.cl", tier: "free" }))
      const checked = Effect.runPromise(keys.verifyAndConsume(key)) // waits for the end of this turn
      const rolledBack = await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable("api_keys").set({ revoked_at: "2026-11-22T12:00:00Z" }).where("id", "=", record.id).execute()
          await new Promise((resolve) => setImmediate(resolve)) // the turn ends with the transaction open
          throw new Error("roll back the revocation")
        })
        .then(
          () => false,
          () => true,
        )
      expect(rolledBack).toBe(true)
      expect(await checked).toMatchObject({ record: { id: record.id }, quota: { allowed: true, used: 1 } })
      expect(await Effect.runPromise(keys.usageToday(record.id))).toBe(1)
    }),
  )

  it("one turn's requests of one key are counted together as one at a time would: the quota's last units, then refusals", () =>
    onStore(async ({ keys, path }) => {
      const limited = await Effect.runPromise(keys.create({ email: "four@example.cl", tier: "free", dailyQuota: 4 }))
      const internal = await Effect.runPromise(keys.create({ email: "inside@example.cl", tier: "internal" }))
      // 2 of the 4 used and 10 internal requests counted, in earlier turns
      for (let i = 0; i < 2; i++) await Effect.runPromise(keys.verifyAndConsume(limited.key))
      for (let i = 0; i < 10; i++) await Effect.runPromise(keys.verifyAndConsume(internal.key))
      // one turn: five of the limited key interleaved with three internal ones
      const asked = [limited.key, internal.key, limited.key, limited.key, internal.key, limited.key, internal.key, limited.key]
      const answers = await Promise.all(asked.map((k) => Effect.runPromise(keys.verifyAndConsume(k))))
      // by hand: the limited key's 3rd and 4th requests are counted (used 3, 4), the other three
      // refused at 4; the internal key's 11th, 12th and 13th are counted
      expect(answers.map((a) => (a === null ? null : [a.record.id, a.quota.allowed, a.quota.used]))).toEqual([
        [limited.record.id, true, 3],
        [internal.record.id, true, 11],
        [limited.record.id, true, 4],
        [limited.record.id, false, 4],
        [internal.record.id, true, 12],
        [limited.record.id, false, 4],
        [internal.record.id, true, 13],
        [limited.record.id, false, 4],
      ])
      expect(usageDays(path, limited.record.id)).toEqual([{ day: expect.any(String), count: 4 }])
      expect(usageDays(path, internal.record.id)).toEqual([{ day: expect.any(String), count: 13 }])
      // a fresh key's first turn asking more than its quota: the row is made with the quota's count
      const two = await Effect.runPromise(keys.create({ email: "two@example.cl", tier: "free", dailyQuota: 2 }))
      const first = await Promise.all([1, 2, 3].map(() => Effect.runPromise(keys.verifyAndConsume(two.key))))
      expect(first.map((a) => [a?.quota.allowed, a?.quota.used])).toEqual([
        [true, 1],
        [true, 2],
        [false, 2],
      ])
      expect(usageDays(path, two.record.id)).toEqual([{ day: expect.any(String), count: 2 }])
    }),
  )

  it("counting requests keeps the WAL bounded: SQLite's automatic checkpoint runs (1,000 pages)", () =>
    onStore(async ({ keys, path }) => {
      const { record } = await Effect.runPromise(keys.create({ email: "wal@example.cl", tier: "free", dailyQuota: 10_000 }))
      const requests = 3_000 // each counted request writes at least one 4 KiB page to the WAL
      let last: unknown
      for (let i = 0; i < requests; i++) last = await Effect.runPromise(keys.consume(record))
      expect(last).toMatchObject({ allowed: true, used: requests, remaining: 10_000 - requests })
      // The checkpoint starts the WAL again after 1,000 pages: at most 1,000 frames of 4,096 bytes
      // + 24 bytes of frame header, + the 32-byte file header (≈ 4.1 MB); without it, ≥ 12 MB.
      const walBytes = statSync(`${path}-wal`).size
      expect(walBytes).toBeLessThanOrEqual(32 + 1_001 * (4_096 + 24))
    }),
  )
})
