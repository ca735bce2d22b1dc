/** The one statement that decides and counts a request against a key's daily quota. */
import { Effect } from "effect"
import type { Kysely, Selectable } from "kysely"
import { sql } from "kysely"
import { AccountsUnavailable, isPostgres, sqliteOf } from "./AccountsDb.ts"
import type { AccountsDatabase, ApiKeysTable } from "./AccountsTables.ts"

/**
 * The decide-and-count statement: INSERT … SELECT … WHERE (a quota of 0 inserts nothing) ON
 * CONFLICT DO UPDATE … WHERE count < limit — the row comes back only when the request was counted,
 * and SQLite runs it as one atomic write, so concurrent requests cannot both take the last unit.
 * Built by kysely for the store's dialect once, then re-bound per call (building it anew costs more
 * than running it): sentinel values mark where the key, day and limit go among its parameters.
 *
 * On SQLite it runs as a prepared statement, synchronously: kysely's driver is synchronous
 * underneath, and its connection lock and promise chain cost more than the write itself. It is
 * stepped to its end (`all`, not `get`): SQLite runs the WAL's automatic checkpoint only when a
 * writing statement finishes, and `get` stops at the RETURNING row and resets — the accounts WAL
 * then grew by a page per request without bound (88 MB in six seconds of load) and every read
 * and write of the store slowed as it grew. While a
 * kysely transaction is open on the connection (registration, account removal) it waits its turn
 * through kysely instead, so that it never runs inside someone else's transaction.
 *
 * On PostgreSQL the same one statement (see consumeOnPostgres) runs on whichever pooled connection
 * is free: INSERT … ON CONFLICT DO UPDATE takes the row's lock, so requests of one key arriving at
 * several API processes at once are each counted exactly once and never past the limit.
 */
export const compileConsume = (
  db: Kysely<AccountsDatabase>,
  limited: boolean,
): ((keyId: number, day: string, limit: number) => Effect.Effect<number | undefined, AccountsUnavailable>) => {
  if (isPostgres(db)) return consumeOnPostgres(db, limited)
  const KEY = -7_077_077
  const DAY = "\u0000day"
  const LIMIT = -8_088_088
  const compiled = db
    .insertInto("usage")
    .columns(["key_id", "day", "count"])
    .expression(
      db
        .selectNoFrom((eb) => [eb.val(KEY).as("key_id"), eb.val(DAY).as("day"), eb.val(1).as("count")])
        .where(limited ? sql<boolean>`${LIMIT} > 0` : sql<boolean>`1`),
    )
    .onConflict((oc) =>
      oc
        .columns(["key_id", "day"])
        .doUpdateSet({ count: sql`usage.count + 1` })
        .where(limited ? sql<boolean>`usage.count < ${LIMIT}` : sql<boolean>`1`),
    )
    .returning("count")
    .compile()
  const bind = (keyId: number, day: string, limit: number) =>
    compiled.parameters.map((p) => (p === KEY ? keyId : p === DAY ? day : p === LIMIT ? limit : p))
  const viaKysely = (parameters: ReadonlyArray<unknown>) =>
    Effect.tryPromise({
      try: () => db.executeQuery<{ count: number }>({ ...compiled, parameters }),
      catch: (cause) => new AccountsUnavailable({ cause }),
    }).pipe(Effect.map((result) => result.rows[0]?.count))
  const sqlite = sqliteOf(db)
  if (sqlite === undefined) return (keyId, day, limit) => viaKysely(bind(keyId, day, limit))
  const statement = sqlite.prepare(compiled.sql)
  return (keyId, day, limit) => {
    const parameters = bind(keyId, day, limit)
    if (sqlite.inTransaction) return viaKysely(parameters)
    return Effect.try({
      try: () => (statement.all(parameters) as Array<{ count: number }>)[0]?.count,
      catch: (cause) => new AccountsUnavailable({ cause }),
    })
  }
}

/**
 * PostgreSQL's decide-and-count statement, with typed parameters (an untyped parameter in
 * INSERT … SELECT would be text) and boolean conditions; the row comes back only when counted.
 */
const consumeOnPostgres = (db: Kysely<AccountsDatabase>, limited: boolean) => {
  const statement = (keyId: number, day: string, limit: number) =>
    limited
      ? sql<{ count: number }>`INSERT INTO usage (key_id, day, count)
          SELECT ${keyId}::integer, ${day}::text, 1 WHERE ${limit}::integer > 0
          ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + 1 WHERE usage.count < ${limit}::integer
          RETURNING count`
      : sql<{ count: number }>`INSERT INTO usage (key_id, day, count) VALUES (${keyId}::integer, ${day}::text, 1)
          ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + 1
          RETURNING count`
  return (keyId: number, day: string, limit: number) =>
    Effect.tryPromise({
      try: () => statement(keyId, day, limit).execute(db),
      catch: (cause) => new AccountsUnavailable({ cause }),
    }).pipe(Effect.map((result) => result.rows[0]?.count))
}

/**
 * The key lookup of every request (SELECT * FROM api_keys WHERE lookup = ?), compiled once; on
 * SQLite a prepared statement run synchronously, as the quota statement above (through kysely it
 * cost ~5 % of a small request's CPU), and through kysely while a kysely transaction is open.
 */
export const compileKeyLookup = (
  db: Kysely<AccountsDatabase>,
): ((lookup: string) => Effect.Effect<Selectable<ApiKeysTable> | undefined, AccountsUnavailable>) => {
  const compiled = db.selectFrom("api_keys").selectAll().where("lookup", "=", "\u0000lookup").compile()
  const viaKysely = (lookup: string) =>
    Effect.tryPromise({
      try: () => db.executeQuery<Selectable<ApiKeysTable>>({ ...compiled, parameters: [lookup] }),
      catch: (cause) => new AccountsUnavailable({ cause }),
    }).pipe(Effect.map((result) => result.rows[0]))
  const sqlite = isPostgres(db) ? undefined : sqliteOf(db)
  if (sqlite === undefined) return viaKysely
  const statement = sqlite.prepare(compiled.sql)
  return (lookup) => {
    if (sqlite.inTransaction) return viaKysely(lookup)
    return Effect.try({
      try: () => statement.get(lookup) as Selectable<ApiKeysTable> | undefined,
      catch: (cause) => new AccountsUnavailable({ cause }),
    })
  }
}
