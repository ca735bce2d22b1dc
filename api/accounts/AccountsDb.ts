/**
 * The accounts store (data/accounts.sqlite): keys and usage counters. Mutable state lives here,
 * apart from the immutable snapshots, and is reached through kysely so that a PostgreSQL dialect
 * can replace SQLite when several API machines share it.
 */
import Database from "better-sqlite3"
import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement, sql } from "kysely"

export interface ApiKeysTable {
  id: number | null
  lookup: string
  hash: string
  email: string
  name: string
  tier: "free" | "institutional" | "internal"
  daily_quota: number | null
  created_at: string
  revoked_at: string | null
}

export interface UsageTable {
  key_id: number
  day: string
  count: number
}

export interface AccountsDatabase {
  api_keys: ApiKeysTable
  usage: UsageTable
}

export const openAccountsDb = async (path: string): Promise<Kysely<AccountsDatabase>> => {
  const sqlite = new Database(path, { fileMustExist: false, timeout: 2000 })
  sqlite.pragma("journal_mode = WAL")
  sqlite.pragma("synchronous = NORMAL")
  const db = new Kysely<AccountsDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  await migrate(db)
  return db
}

const migrate = async (db: Kysely<AccountsDatabase>): Promise<void> => {
  await db.schema
    .createTable("api_keys")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("lookup", "text", (c) => c.notNull().unique())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("tier", "text", (c) => c.notNull())
    .addColumn("daily_quota", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute()
  await db.schema.createIndex("api_keys_email").ifNotExists().on("api_keys").column("email").execute()
  await db.schema
    .createTable("usage")
    .ifNotExists()
    .addColumn("key_id", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("usage_pk", ["key_id", "day"])
    .execute()
  await sql`SELECT 1`.execute(db)
}

/**
 * kysely's SQLite driver prepares every query anew (24–48 µs against ~1 µs for a prepared
 * statement, research/stack.md §5); the per-request key check and counter run the same few SQL
 * texts, so statements are kept in a small bounded cache (oldest dropped first).
 */
const withStatementCache = (sqlite: Database.Database, capacity = 64): SqliteDatabase => {
  const cache = new Map<string, SqliteStatement>()
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let stmt = cache.get(text)
      if (stmt === undefined) {
        stmt = sqlite.prepare(text) as unknown as SqliteStatement
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!)
        cache.set(text, stmt)
      }
      return stmt
    },
  }
}
