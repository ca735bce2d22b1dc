/** Issues and verifies API keys; counts and limits their use per America/Santiago day. */
import { Clock, Context, Effect, Layer } from "effect"
import type { Kysely } from "kysely"
import { sql } from "kysely"
import { AccountsDb, type AccountsDatabase, type AccountsUnavailable, attemptDb } from "./AccountsDb.ts"
import { generateKey, keyMatches, parseKey } from "./ApiKey.ts"
import { compileConsume, compileKeyLookup } from "./QuotaStatement.ts"
import { nextSantiagoMidnight, santiagoDay } from "./SantiagoTime.ts"

export type Tier = "free" | "institutional" | "internal"

/** Daily quota of each tier; a per-key quota overrides it. null = no daily limit. */
export const TIER_QUOTA: Readonly<Record<Tier, number | null>> = { free: 300, institutional: 25_000, internal: null }

export interface KeyRecord {
  readonly id: number
  readonly lookup: string
  readonly name: string
  readonly email: string
  readonly tier: Tier
  /** The effective daily quota (the key's own, else its tier's); null = no daily limit. */
  readonly dailyQuota: number | null
  readonly createdAt: string
}

/** Where a key stands after (or without) one counted request. */
export interface QuotaState {
  /** false: the quota was already used up; the request was not counted. */
  readonly allowed: boolean
  readonly limit: number | null
  /** Requests counted today, this one included when allowed. */
  readonly used: number
  readonly remaining: number | null
  /** Unix seconds of the next America/Santiago midnight. */
  readonly resetAt: number
  readonly now: number
}

export interface NewKeyOptions {
  readonly email: string
  readonly name?: string | undefined
  readonly tier: Tier
  readonly dailyQuota?: number | null | undefined
}

export { AccountsUnavailable, attemptDb } from "./AccountsDb.ts"

/** Inserts a new key's row (hash only) with `db` (a transaction or the database). */
export const insertKey = async (db: Kysely<AccountsDatabase>, opts: NewKeyOptions, nowMs: number) => {
  const fresh = generateKey()
  const row = {
    lookup: fresh.lookup,
    hash: fresh.hash,
    email: opts.email,
    name: opts.name ?? opts.email,
    tier: opts.tier,
    daily_quota: opts.dailyQuota ?? null,
    created_at: new Date(nowMs).toISOString(),
    revoked_at: null,
  }
  const inserted = await db.insertInto("api_keys").values(row).returning("id").executeTakeFirstOrThrow()
  return { key: fresh.key, record: toRecord({ ...row, id: inserted.id }) }
}

export class KeyStore extends Context.Service<
  KeyStore,
  {
    readonly create: (
      opts: NewKeyOptions,
    ) => Effect.Effect<{ readonly key: string; readonly record: KeyRecord }, AccountsUnavailable>
    /** The key's record when it is well-formed, known and not revoked; else null. */
    readonly verify: (key: string) => Effect.Effect<KeyRecord | null, AccountsUnavailable>
    /**
     * Counts one request unless today's quota is used up, in one atomic statement (decide and
     * increment together: concurrent requests cannot both take the last unit).
     */
    readonly consume: (key: KeyRecord) => Effect.Effect<QuotaState, AccountsUnavailable>
    /**
     * `verify` and `consume` in one step (the key's row read at the end of the turn, with the count): the
     * key's record and where it stands after this request, or null for a malformed, unknown or
     * revoked key (nothing counted).
     */
    readonly verifyAndConsume: (
      key: string,
    ) => Effect.Effect<{ readonly record: KeyRecord; readonly quota: QuotaState } | null, AccountsUnavailable>
    /** Today's standing without counting (for /api/key/info). */
    readonly peek: (key: KeyRecord) => Effect.Effect<QuotaState, AccountsUnavailable>
    /** Counts one request today, without a limit, and returns today's count. */
    readonly recordUse: (keyId: number) => Effect.Effect<number, AccountsUnavailable>
    readonly usageToday: (keyId: number) => Effect.Effect<number, AccountsUnavailable>
  }
>()("fds/accounts/KeyStore") {
  static readonly make = (db: Kysely<AccountsDatabase>) => {
    const now = Effect.map(Clock.currentTimeMillis, (ms) => {
      const at = new Date(ms)
      return { ms, day: santiagoDay(at), resetAt: nextSantiagoMidnight(at), second: Math.floor(ms / 1000) }
    })

    const create = Effect.fn("KeyStore.create")(function* (opts: NewKeyOptions) {
      const ms = yield* Clock.currentTimeMillis
      return yield* attemptDb(() => insertKey(db, opts, ms))
    })

    const keyLookup = compileKeyLookup(db)
    const byLookup = keyLookup.lookUp
    const verify = Effect.fnUntraced(function* (key: string) {
      const parsed = parseKey(key)
      if (parsed === null) return null
      const row = yield* byLookup(parsed.lookup)
      if (row === undefined || !accepts(key, row)) return null
      return toRecord(row)
    })

    const countToday = (keyId: number, day: string) =>
      attemptDb(() =>
        db.selectFrom("usage").select("count").where("key_id", "=", keyId).where("day", "=", day).executeTakeFirst(),
      ).pipe(Effect.map((row) => row?.count ?? 0))

    // The hot path (every counted request) runs untraced and with its statement compiled once.
    const statements = compileConsume(db, keyLookup)
    /** Where a key stands with `used` requests today; `allowed` = another request may be counted. */
    const standing = (limit: number | null, used: number, allowed: boolean, t: { resetAt: number; second: number }): QuotaState => ({
      allowed,
      limit,
      used,
      remaining: limit === null ? null : Math.max(0, limit - used),
      resetAt: t.resetAt,
      now: t.second,
    })
    /** After the counting statement: its count (this request counted), or undefined (refused). */
    const afterCount = (limit: number | null, count: number | undefined, t: { resetAt: number; second: number }) =>
      standing(limit, count ?? limit ?? 0, count !== undefined, t)
    const consume = Effect.fnUntraced(function* (key: KeyRecord) {
      const t = yield* now
      return afterCount(key.dailyQuota, yield* statements.consume(key.id, t.day, key.dailyQuota), t)
    })

    const accepts = (key: string, row: { revoked_at: string | null; hash: string }) =>
      row.revoked_at === null && keyMatches(key, row.hash)
    const verifyAndConsume = Effect.fnUntraced(function* (key: string) {
      const parsed = parseKey(key)
      if (parsed === null) return null
      const t = yield* now
      const checked = yield* statements.checkAndConsume(parsed.lookup, key, accepts, effectiveQuota, t.day)
      if (checked === null) return null
      const record = toRecord(checked.row)
      return { record, quota: afterCount(record.dailyQuota, checked.count, t) }
    })

    const peek = Effect.fn("KeyStore.peek")(function* (key: KeyRecord) {
      const t = yield* now
      const used = yield* countToday(key.id, t.day)
      const limit = key.dailyQuota
      return standing(limit, used, limit === null || used < limit, t)
    })

    const recordUse = Effect.fn("KeyStore.recordUse")(function* (keyId: number) {
      const t = yield* now
      const row = yield* attemptDb(() =>
        db
          .insertInto("usage")
          .values({ key_id: keyId, day: t.day, count: 1 })
          .onConflict((oc) => oc.columns(["key_id", "day"]).doUpdateSet({ count: sql`usage.count + 1` }))
          .returning("count")
          .executeTakeFirstOrThrow(),
      )
      return row.count
    })

    const usageToday = Effect.fn("KeyStore.usageToday")(function* (keyId: number) {
      const t = yield* now
      return yield* countToday(keyId, t.day)
    })

    return KeyStore.of({ create, verify, consume, verifyAndConsume, peek, recordUse, usageToday })
  }

  /** The store over the shared accounts database. */
  static readonly layer = Layer.effect(KeyStore, AccountsDb.useSync(KeyStore.make))

  /** The store on its own accounts.sqlite (created when missing), closed with the layer. */
  static readonly layerSqlite = (path: string) => KeyStore.layer.pipe(Layer.provide(AccountsDb.layerSqlite(path)))
}

/** A key's daily quota: its own, else its tier's; null = no daily limit. */
export const effectiveQuota = (row: { readonly tier: Tier; readonly daily_quota: number | null }): number | null =>
  row.daily_quota ?? TIER_QUOTA[row.tier]

export const toRecord = (row: {
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
  dailyQuota: effectiveQuota(row),
  createdAt: row.created_at,
})
