/**
 * Operator commands over the key store (`./fds keys …`). Keys are identified by their lookup
 * token (the 8 characters after `fds_`); a clear key is printed only once, by `create`.
 */
import type { Kysely } from "kysely"
import { sql } from "kysely"
import type { AccountsDatabase } from "./AccountsTables.ts"
import { parseKey } from "./ApiKey.ts"
import { TIER_QUOTA } from "./KeyStore.ts"

export interface KeyListing {
  readonly lookup: string
  readonly email: string
  readonly tier: string
  /** The effective quota: "none" for no daily limit; "(key)" marks a per-key quota. */
  readonly quota: string
  readonly created: string
  readonly revoked: string
}

/** A lookup token from a lookup token or a whole key (the key itself is not kept). */
export const lookupOf = (text: string): string | null => {
  if (/^[0-9A-Za-z]{8}$/.test(text)) return text
  return parseKey(text)?.lookup ?? null
}

export const listKeys = async (db: Kysely<AccountsDatabase>, email?: string): Promise<KeyListing[]> => {
  let query = db.selectFrom("api_keys").selectAll().orderBy("id")
  if (email !== undefined) query = query.where(sql<string>`lower(email)`, "=", email.toLowerCase())
  return (await query.execute()).map((row) => {
    const effective = row.daily_quota ?? TIER_QUOTA[row.tier]
    return {
      lookup: row.lookup,
      email: row.email,
      tier: row.tier,
      quota: effective === null ? "none" : row.daily_quota === null ? String(effective) : `${effective} (key)`,
      created: row.created_at,
      revoked: row.revoked_at ?? "",
    }
  })
}

/** Revokes a key; false when no active key has that lookup token. */
export const revokeKey = async (db: Kysely<AccountsDatabase>, lookup: string, nowMs: number): Promise<boolean> => {
  const result = await db
    .updateTable("api_keys")
    .set({ revoked_at: new Date(nowMs).toISOString() })
    .where("lookup", "=", lookup)
    .where("revoked_at", "is", null)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Sets a key's own daily quota (null: back to its tier's); false when the lookup token is unknown. */
export const setQuota = async (db: Kysely<AccountsDatabase>, lookup: string, quota: number | null): Promise<boolean> => {
  const result = await db.updateTable("api_keys").set({ daily_quota: quota }).where("lookup", "=", lookup).executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Requests counted per key per America/Santiago day, from `fromDay` on, newest first. */
export const usage = (db: Kysely<AccountsDatabase>, fromDay: string, lookup?: string) => {
  let query = db
    .selectFrom("usage")
    .innerJoin("api_keys", "api_keys.id", "usage.key_id")
    .select(["api_keys.lookup", "usage.day", "usage.count"])
    .where("usage.day", ">=", fromDay)
    .orderBy("usage.day", "desc")
    .orderBy("api_keys.lookup")
  if (lookup !== undefined) query = query.where("api_keys.lookup", "=", lookup)
  return query.execute()
}

/** Rows as aligned text columns with a header line. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(header), ...rows.map(line)].join("\n") + "\n"
}
