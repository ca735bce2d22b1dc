/**
 * The accounts store (data/accounts.sqlite): keys, usage counters, users, sessions, one-time
 * tokens and watchlists. Mutable state lives here, apart from the immutable snapshots, and is
 * reached through kysely so that a PostgreSQL dialect can replace SQLite when several API machines
 * share it.
 */
import Database from "better-sqlite3"
import { Context, Effect, Layer, Schema } from "effect"
import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement, sql } from "kysely"
import type { AccountsDatabase } from "./AccountsTables.ts"

export type { AccountsDatabase, ApiKeysTable, UsageTable } from "./AccountsTables.ts"

/** The accounts store could not answer: data routes fail closed with 503. */
export class AccountsUnavailable extends Schema.TaggedError<AccountsUnavailable>()("AccountsUnavailable", {
  cause: Schema.Defect(),
}) {}

export const attemptDb = <A>(f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: (cause) => new AccountsUnavailable({ cause }) })

export const openAccountsDb = async (path: string): Promise<Kysely<AccountsDatabase>> => {
  const sqlite = new Database(path, { fileMustExist: false, timeout: 2000 })
  sqlite.pragma("journal_mode = WAL")
  sqlite.pragma("synchronous = NORMAL")
  const db = new Kysely<AccountsDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  await migrate(db)
  connections.set(db, sqlite)
  return db
}

const connections = new WeakMap<Kysely<AccountsDatabase>, Database.Database>()

/**
 * The SQLite connection under a store opened by openAccountsDb (undefined for another dialect), for
 * the one hot statement that runs on it directly (see QuotaStatement.ts).
 */
export const sqliteOf = (db: Kysely<AccountsDatabase>): Database.Database | undefined => connections.get(db)

/** The open accounts database, shared by every accounts service of the process. */
export class AccountsDb extends Context.Service<AccountsDb, Kysely<AccountsDatabase>>()("fds/api/accounts/AccountsDb") {
  static readonly layer = (path: string) =>
    Layer.effect(
      AccountsDb,
      Effect.acquireRelease(
        Effect.promise(() => openAccountsDb(path)),
        (db) => Effect.promise(() => db.destroy()),
      ),
    )
}

const migrate = async (db: Kysely<AccountsDatabase>): Promise<void> => {
  const s = db.schema
  await s
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
  await s.createIndex("api_keys_email").ifNotExists().on("api_keys").column("email").execute()
  await s
    .createTable("usage")
    .ifNotExists()
    .addColumn("key_id", "integer", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("usage_pk", ["key_id", "day"])
    .execute()
  await s
    .createTable("users")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("oidc_subject", "text")
    .addColumn("email_opt_in_alerts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("email_opt_in_monthly_summary", "integer", (c) => c.notNull().defaultTo(0))
    .execute()
  await s
    .createTable("sessions")
    .ifNotExists()
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.notNull())
    .addColumn("created_ms", "integer", (c) => c.notNull())
    .addColumn("expires_ms", "integer", (c) => c.notNull())
    .execute()
  await s.createIndex("sessions_user").ifNotExists().on("sessions").column("user_id").execute()
  await s
    .createTable("login_tokens")
    .ifNotExists()
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("return_url", "text")
    .addColumn("subject", "text")
    .addColumn("created_ms", "integer", (c) => c.notNull())
    .addColumn("expires_ms", "integer", (c) => c.notNull())
    .addColumn("used_ms", "integer")
    .execute()
  await s.createIndex("login_tokens_email").ifNotExists().on("login_tokens").column("email").execute()
  await s
    .createTable("oidc_states")
    .ifNotExists()
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("return_url", "text", (c) => c.notNull())
    .addColumn("expires_ms", "integer", (c) => c.notNull())
    .execute()
  await s
    .createTable("watchlist")
    .ifNotExists()
    .addColumn("user_id", "integer", (c) => c.notNull())
    .addColumn("serie_id", "text", (c) => c.notNull())
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("watchlist_pk", ["user_id", "serie_id"])
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
