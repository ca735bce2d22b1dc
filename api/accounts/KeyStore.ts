/** Issues and verifies API keys; counts their use per America/Santiago day. */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import type { Kysely } from "kysely"
import { sql } from "kysely"
import type { AccountsDatabase } from "./AccountsDb.ts"
import { openAccountsDb } from "./AccountsDb.ts"
import { generateKey, keyMatches, parseKey } from "./ApiKey.ts"
import { santiagoDay } from "./SantiagoTime.ts"

export type Tier = "free" | "institutional" | "internal"

/** Daily quota of each tier; a per-key quota overrides it. null = no daily limit. */
export const TIER_QUOTA: Readonly<Record<Tier, number | null>> = { free: 300, institutional: 25_000, internal: null }

export interface KeyRecord {
  readonly id: number
  readonly lookup: string
  readonly name: string
  readonly email: string
  readonly tier: Tier
  readonly dailyQuota: number | null
  readonly createdAt: string
}

/** The accounts store could not answer: data routes fail closed with 503. */
export class AccountsUnavailable extends Schema.TaggedError<AccountsUnavailable>()("AccountsUnavailable", {
  cause: Schema.Defect(),
}) {}

export class KeyStore extends Context.Service<
  KeyStore,
  {
    readonly create: (opts: {
      readonly email: string
      readonly name?: string | undefined
      readonly tier: Tier
      readonly dailyQuota?: number | null | undefined
    }) => Effect.Effect<{ readonly key: string; readonly record: KeyRecord }, AccountsUnavailable>
    /** The key's record when it is well-formed, known and not revoked; else null. */
    readonly verify: (key: string) => Effect.Effect<KeyRecord | null, AccountsUnavailable>
    /** Counts one request today and returns today's count. */
    readonly recordUse: (keyId: number) => Effect.Effect<number, AccountsUnavailable>
    readonly usageToday: (keyId: number) => Effect.Effect<number, AccountsUnavailable>
  }
>()("fds/api/accounts/KeyStore") {
  static readonly make = (db: Kysely<AccountsDatabase>) => {
    const attempt = <A>(f: () => Promise<A>) =>
      Effect.tryPromise({ try: f, catch: (cause) => new AccountsUnavailable({ cause }) })
    const today = Effect.map(Clock.currentTimeMillis, (ms) => santiagoDay(new Date(ms)))

    const create = Effect.fn("KeyStore.create")(function* (opts: {
      readonly email: string
      readonly name?: string | undefined
      readonly tier: Tier
      readonly dailyQuota?: number | null | undefined
    }) {
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      const fresh = generateKey()
      const row = {
        lookup: fresh.lookup,
        hash: fresh.hash,
        email: opts.email,
        name: opts.name ?? opts.email,
        tier: opts.tier,
        daily_quota: opts.dailyQuota ?? null,
        created_at: now,
        revoked_at: null,
      }
      const inserted = yield* attempt(() =>
        db.insertInto("api_keys").values(row).returning("id").executeTakeFirstOrThrow(),
      )
      return { key: fresh.key, record: toRecord({ ...row, id: inserted.id ?? 0 }) }
    })

    const verify = Effect.fn("KeyStore.verify")(function* (key: string) {
      const parsed = parseKey(key)
      if (parsed === null) return null
      const row = yield* attempt(() =>
        db.selectFrom("api_keys").selectAll().where("lookup", "=", parsed.lookup).executeTakeFirst(),
      )
      if (row === undefined || row.revoked_at !== null || !keyMatches(key, row.hash)) return null
      return toRecord(row)
    })

    const recordUse = Effect.fn("KeyStore.recordUse")(function* (keyId: number) {
      const day = yield* today
      const row = yield* attempt(() =>
        db
          .insertInto("usage")
          .values({ key_id: keyId, day, count: 1 })
          .onConflict((oc) => oc.columns(["key_id", "day"]).doUpdateSet({ count: sql`count + 1` }))
          .returning("count")
          .executeTakeFirstOrThrow(),
      )
      return row.count
    })

    const usageToday = Effect.fn("KeyStore.usageToday")(function* (keyId: number) {
      const day = yield* today
      const row = yield* attempt(() =>
        db.selectFrom("usage").select("count").where("key_id", "=", keyId).where("day", "=", day).executeTakeFirst(),
      )
      return row?.count ?? 0
    })

    return KeyStore.of({ create, verify, recordUse, usageToday })
  }

  /** The store on data/accounts.sqlite (created when missing), closed with the layer. */
  static readonly layerSqlite = (path: string) =>
    Layer.effect(
      KeyStore,
      Effect.acquireRelease(
        Effect.promise(() => openAccountsDb(path)),
        (db) => Effect.promise(() => db.destroy()),
      ).pipe(Effect.map(KeyStore.make)),
    )
}

const toRecord = (row: {
  id: number | null
  lookup: string
  name: string
  email: string
  tier: Tier
  daily_quota: number | null
  created_at: string
}): KeyRecord => ({
  id: row.id ?? 0,
  lookup: row.lookup,
  name: row.name,
  email: row.email,
  tier: row.tier,
  dailyQuota: row.daily_quota ?? TIER_QUOTA[row.tier],
  createdAt: row.created_at,
})
