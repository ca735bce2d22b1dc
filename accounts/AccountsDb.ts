/**
 * The accounts store (data/accounts.sqlite, or where FDS_ACCOUNTS_PATH says): keys, usage
 * counters, users, sessions, one-time tokens, watchlists, the alert mails already sent and the
 * webhooks (endpoints, events, deliveries).
 * Mutable state lives here, apart from the immutable snapshots, and is reached through kysely so
 * that a PostgreSQL dialect can replace SQLite when several API machines share it.
 */
import Database from "better-sqlite3"
import { Config, Context, Effect, Layer, Option, Schedule, Schema } from "effect"
import { type ColumnDefinitionBuilder as ColumnBuilder, Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect, type SqliteStatement, sql } from "kysely"
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs"
import { dirname } from "node:path"
import pg from "pg"
import { FLEET_DDL } from "../snapshots/fleet/FleetDb.ts"
import { durablePool } from "../snapshots/fleet/Pg.ts"
import { accountsPath } from "./AccountsConfig.ts"
import type { AccountsDatabase } from "./AccountsTables.ts"
import { logLine } from "../snapshots/Log.ts"

export type { AccountsDatabase, ApiKeysTable, UsageTable } from "./AccountsTables.ts"

/** The accounts store could not answer: data routes fail closed with 503. */
export class AccountsUnavailable extends Schema.TaggedError<AccountsUnavailable>()("AccountsUnavailable", {
  cause: Schema.Defect(),
}) {}

export const attemptDb = <A>(f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: (cause) => new AccountsUnavailable({ cause }) })

/** Bytes the accounts WAL file is cut back to after a checkpoint (normal use stays near 4 MB). */
export const WAL_SIZE_LIMIT = 8 * 1024 * 1024

export const openAccountsDb = async (path: string): Promise<Kysely<AccountsDatabase>> => {
  // created readable by its owner only (it holds e-mail addresses); SQLite gives its -wal and -shm
  // files the same mode; a folder of its own (FDS_ACCOUNTS_PATH) is created for the owner only
  if (path !== ":memory:" && !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    closeSync(openSync(path, "a", 0o600))
  }
  const sqlite = new Database(path, { fileMustExist: false, timeout: 2000 })
  sqlite.pragma("journal_mode = WAL")
  sqlite.pragma("synchronous = NORMAL")
  // A WAL that grew past this (a reader holding an old snapshot, or builds before 2026-11-22,
  // which never checkpointed under counted traffic) is cut back to it when SQLite next starts it
  // again; without a limit the file keeps its largest size while the store is open.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`)
  const db = new Kysely<AccountsDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) })
  await migrate(db, "sqlite")
  connections.set(db, sqlite)
  return db
}

/** PostgreSQL's int8 (bigint, count(*)) as a JS number: the store's millisecond times fit in 2^53. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
}

/**
 * The accounts store on a PostgreSQL server (`postgres://user:pass@host:port/db`), shared by
 * several API processes; the tables are created when missing.
 */
export const openPostgresAccountsDb = async (url: string, poolSize = 10): Promise<Kysely<AccountsDatabase>> => {
  // a server that does not answer at all (not one that refuses) fails the request (503) after 5 s
  // a lost connection (a restart, idle_session_timeout, pg_terminate_backend) never ends the
  // process: the pool opens a new one for the next query; a request whose query was on it fails
  // with AccountsUnavailable (503). Each is logged once, as its SQLSTATE and message.
  const pool = durablePool({ connectionString: url, max: poolSize, types: pgTypes, connectionTimeoutMillis: 5_000 }, (e) =>
    logLine("warn", "accounts store connection lost", { code: e.code, error: e.message }),
  )
  const db = new Kysely<AccountsDatabase>({ dialect: new PostgresDialect({ pool }) })
  try {
    await migrate(db, "postgres")
  } catch (e) {
    await db.destroy()
    throw e
  }
  postgres.add(db)
  return db
}

/** A store URL (`postgres://…`/`postgresql://…`) selects PostgreSQL; anything else is refused. */
export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//.test(url)

/** The store named by FDS_ACCOUNTS_URL when it is set, else the SQLite file at `path`. */
export const openAccountsStore = (path: string, url: string | undefined): Promise<Kysely<AccountsDatabase>> => {
  if (url === undefined || url.trim() === "") return openAccountsDb(path)
  if (!isPostgresUrl(url)) return Promise.reject(new Error("FDS_ACCOUNTS_URL must be a postgres:// URL"))
  return openPostgresAccountsDb(url)
}

const connections = new WeakMap<Kysely<AccountsDatabase>, Database.Database>()
const postgres = new WeakSet<Kysely<AccountsDatabase>>()

/** Whether the store runs on PostgreSQL (see QuotaStatement.ts). */
export const isPostgres = (db: Kysely<AccountsDatabase>): boolean => postgres.has(db)

/**
 * The SQLite connection under a store opened by openAccountsDb (undefined for another dialect), for
 * the one hot statement that runs on it directly (see QuotaStatement.ts).
 */
export const sqliteOf = (db: Kysely<AccountsDatabase>): Database.Database | undefined => connections.get(db)

/**
 * The open accounts database, shared by every accounts service of the process: PostgreSQL when
 * FDS_ACCOUNTS_URL is a postgres:// URL (several API processes share it), else the SQLite file
 * (FDS_ACCOUNTS_PATH, by default accounts.sqlite in the data folder `dataDir`).
 */
export class AccountsDb extends Context.Service<AccountsDb, Kysely<AccountsDatabase>>()("fds/accounts/AccountsDb") {
  /**
   * `waitForStore` (the server): a PostgreSQL store that cannot be reached at start is tried again
   * every 2 s, with a log line each time, until it answers (the server answers 503 "starting"
   * meanwhile, /livez 200); commands fail at once instead.
   */
  static readonly layer = (dataDir: string, options: { readonly waitForStore?: boolean } = {}) =>
    Layer.effect(
      AccountsDb,
      Effect.gen(function* () {
        const url = Option.getOrUndefined(yield* Config.option(Config.String("FDS_ACCOUNTS_URL")).pipe(Effect.orDie))
        const path = yield* accountsPath(dataDir).pipe(Effect.orDie)
        const open = Effect.tryPromise({ try: () => openAccountsStore(path, url), catch: (e) => e })
        const waits = options.waitForStore === true && url !== undefined && isPostgresUrl(url)
        const opened = waits
          ? open.pipe(
              Effect.tapError((e) =>
                Effect.logWarning("the accounts store (FDS_ACCOUNTS_URL) cannot be reached; trying again in 2 s (not ready meanwhile)").pipe(
                  Effect.annotateLogs({
                    // the driver's message and code only: the error object holds the connection settings
                    error: e instanceof Error ? e.message : String(e),
                    code: (e as { readonly code?: unknown } | null)?.code ?? null,
                  }),
                ),
              ),
              Effect.retry({ schedule: Schedule.spaced("2 seconds") }),
            )
          : Effect.orDie(open)
        return yield* Effect.acquireRelease(opened, (db) => Effect.promise(() => db.destroy()))
      }),
    )

  /** Always the SQLite file at `path`, whatever FDS_ACCOUNTS_URL says. */
  static readonly layerSqlite = (path: string) =>
    Layer.effect(
      AccountsDb,
      Effect.acquireRelease(
        Effect.promise(() => openAccountsDb(path)),
        (db) => Effect.promise(() => db.destroy()),
      ),
    )
}

/**
 * Creates the tables when missing. The same DDL on both dialects except identity keys (SQLite's
 * INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL's identity column) and the millisecond times,
 * which need 64 bits on PostgreSQL (its `integer` is 32-bit; SQLite's is 64-bit anyway).
 */
const migrate = async (db: Kysely<AccountsDatabase>, dialect: "sqlite" | "postgres"): Promise<void> => {
  const s = db.schema
  const pgsql = dialect === "postgres"
  const ms = pgsql ? "bigint" : "integer"
  const id = (c: ColumnBuilder) =>
    pgsql ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()
  if (!pgsql) {
    await createTables(s, ms, id)
    // columns added after their table was first made: added to a store made before them
    for (const [table, column, type] of LATER_COLUMNS) {
      const present = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db)
      if (!present.rows.some((r) => r.name === column)) await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN ${sql.ref(column)} ${sql.raw(type.sqlite)}`.execute(db)
    }
    return
  }
  // Replicas starting together would race on CREATE TABLE IF NOT EXISTS (PostgreSQL's catalog
  // refuses the second): one at a time, under a session lock held on one connection.
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(7307001)`.execute(conn)
    try {
      await createTables(conn.schema, ms, id)
      for (const [table, column, type] of LATER_COLUMNS) {
        await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN IF NOT EXISTS ${sql.ref(column)} ${sql.raw(type.postgres)}`.execute(conn)
      }
      // the fleet's tables live in the same database: the quota statement reads fleet_current
      for (const statement of FLEET_DDL) await sql.raw(statement).execute(conn)
      // the fleet's per-IP token buckets (api/ratelimit/SharedBuckets.ts): UNLOGGED, a crash only refills them
      await sql`CREATE UNLOGGED TABLE IF NOT EXISTS fds_ip_buckets (address text PRIMARY KEY, tokens double precision NOT NULL, updated_ms double precision NOT NULL, allowed boolean NOT NULL)`.execute(conn)
    } finally {
      await sql`SELECT pg_advisory_unlock(7307001)`.execute(conn)
    }
  })
}

/**
 * Columns added to a table after it was first made (CREATE TABLE IF NOT EXISTS leaves an existing
 * table as it is): each is in its table's CREATE TABLE too, and added to a store made before it
 * (nullable, so rows already there stay valid).
 */
const LATER_COLUMNS: ReadonlyArray<readonly [string, string, { readonly sqlite: string; readonly postgres: string }]> = [
  ["webhook_endpoints", "disabled_ms", { sqlite: "integer", postgres: "bigint" }],
]

const createTables = async (
  s: Kysely<AccountsDatabase>["schema"],
  ms: "bigint" | "integer",
  id: (c: ColumnBuilder) => ColumnBuilder,
): Promise<void> => {
  await s
    .createTable("api_keys")
    .ifNotExists()
    .addColumn("id", "integer", id)
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
    .addColumn("id", "integer", id)
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
    .addColumn("created_ms", ms, (c) => c.notNull())
    .addColumn("expires_ms", ms, (c) => c.notNull())
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
    .addColumn("created_ms", ms, (c) => c.notNull())
    .addColumn("expires_ms", ms, (c) => c.notNull())
    .addColumn("used_ms", ms)
    .execute()
  await s.createIndex("login_tokens_email").ifNotExists().on("login_tokens").column("email").execute()
  await s
    .createTable("oidc_states")
    .ifNotExists()
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("return_url", "text", (c) => c.notNull())
    .addColumn("expires_ms", ms, (c) => c.notNull())
    .execute()
  await s
    .createTable("watchlist")
    .ifNotExists()
    .addColumn("user_id", "integer", (c) => c.notNull())
    .addColumn("serie_id", "text", (c) => c.notNull())
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("watchlist_pk", ["user_id", "serie_id"])
    .execute()
  await s
    .createTable("alert_rounds")
    .ifNotExists()
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("batch", "text", (c) => c.notNull())
    .addColumn("batch_date", "text", (c) => c.notNull())
    .addColumn("claimed_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_rounds_pk", ["kind", "period"])
    .execute()
  await s
    .createTable("alert_mails")
    .ifNotExists()
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("user_id", "integer", (c) => c.notNull())
    .addColumn("claimed_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_mails_pk", ["kind", "period", "user_id"])
    .execute()
  await createWebhookTables(s, ms)
}

/** The webhooks' endpoints, events and deliveries (Webhooks.ts). */
const createWebhookTables = async (s: Kysely<AccountsDatabase>["schema"], ms: "bigint" | "integer"): Promise<void> => {
  await s
    .createTable("webhook_endpoints")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key_id", "integer", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("created_ms", ms, (c) => c.notNull())
    .addColumn("disabled_ms", ms)
    .execute()
  await s.createIndex("webhook_endpoints_key").ifNotExists().on("webhook_endpoints").column("key_id").execute()
  await s
    .createTable("webhook_events")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("created_ms", ms, (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("endpoint_id", "text")
    .execute()
  await s.createIndex("webhook_events_created").ifNotExists().on("webhook_events").column("created_ms").execute()
  await s
    .createTable("webhook_deliveries")
    .ifNotExists()
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("endpoint_id", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_ms", ms, (c) => c.notNull())
    .addColumn("claimed_until_ms", ms)
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_ms", ms, (c) => c.notNull())
    .addColumn("last_attempt_ms", ms)
    .addPrimaryKeyConstraint("webhook_deliveries_pk", ["event_id", "endpoint_id"])
    .execute()
  await s.createIndex("webhook_deliveries_due").ifNotExists().on("webhook_deliveries").columns(["state", "next_attempt_ms"]).execute()
  await s.createIndex("webhook_deliveries_endpoint").ifNotExists().on("webhook_deliveries").column("endpoint_id").execute()
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
