/**
 * KeyStore on a real accounts.sqlite: usage is counted per America/Santiago calendar day, moved
 * with TestClock (never by waiting). Expected local dates are worked out here from Chile's
 * offsets: UTC−3 in southern summer (November), UTC−4 in winter (July).
 */
import { it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect } from "vitest"
import { openAccountsDb } from "../../api/accounts/AccountsDb.ts"
import { KeyStore } from "../../api/accounts/KeyStore.ts"

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
