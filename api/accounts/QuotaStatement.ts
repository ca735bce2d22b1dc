/** The one statement that decides and counts a request against a key's daily quota. */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import type { CompiledQuery, Kysely, Selectable } from "kysely"
import { sql } from "kysely"
import { AccountsUnavailable, isPostgres, sqliteOf } from "./AccountsDb.ts"
import type { AccountsDatabase, ApiKeysTable } from "./AccountsTables.ts"
import { perTurn } from "./PerTurn.ts"

/**
 * The decide-and-count statement: INSERT … SELECT … WHERE (a quota of 0 inserts nothing) ON
 * CONFLICT DO UPDATE … WHERE count < limit — the row comes back only when the request was counted,
 * and SQLite runs it as one atomic write, so concurrent requests cannot both take the last unit.
 * Keys without a daily limit have their own statement (no conditions). Built by kysely for the
 * store's dialect once, then re-bound per call (building it anew costs more than running it):
 * sentinel values mark where the key, day and limit go among its parameters.
 *
 * On SQLite the statements run prepared, synchronously (kysely's driver is synchronous underneath,
 * and its connection lock and promise chain cost more than the write itself), and the requests of
 * one turn of the event loop are counted together at the end of the turn (perTurn), in one
 * transaction (BEGIN IMMEDIATE; a turn of one request runs its statement alone): each by its own
 * statement, in arrival order, every decision taken before any of them is answered. If the
 * transaction fails, none of its requests is counted and each gets the store's error (503); a
 * request whose client went away while it waited is not counted. While a kysely transaction is
 * open on the connection when the turn ends (registration, account removal), the turn's requests
 * go through kysely instead and wait for it, so that none runs inside someone else's transaction.
 * `make bench` (quota part: the same wait with and without the statement): the quota step went
 * from ~48 µs to ~7 µs of a small request's CPU; the requests of a turn, resumed together, also
 * cost less each (~165 µs uncounted without the wait, 86–133 µs with it, in separate runs).
 *
 * Each statement is stepped to its end (`all`, not `get`): SQLite runs the WAL's automatic
 * checkpoint only when a writing statement finishes, and `get` stops at the RETURNING row and
 * resets — under counted traffic alone the accounts WAL grew by a page per request (88 MB in six
 * seconds of load) and every read and write of the store slowed as it grew.
 *
 * On PostgreSQL the same one statement (see consumeOnPostgres) runs per request on whichever pooled
 * connection is free: INSERT … ON CONFLICT DO UPDATE takes the row's lock, so requests of one key
 * arriving at several API processes at once are each counted exactly once and never past the limit.
 *
 * The answer is today's count including this request, or undefined when the quota was used up
 * (the request not counted); `limit` null = no daily limit.
 */
export const compileConsume = (
  db: Kysely<AccountsDatabase>,
): ((keyId: number, day: string, limit: number | null) => Effect.Effect<number | undefined, AccountsUnavailable>) => {
  if (isPostgres(db)) return consumeOnPostgres(db)
  const KEY = -7_077_077
  const DAY = "\u0000day"
  const LIMIT = -8_088_088
  const sqlite = sqliteOf(db)
  const kind = (limited: boolean): Kind => {
    const query = db
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
    return { query, prepared: sqlite?.prepare(query.sql) }
  }
  const kinds = { limited: kind(true), unlimited: kind(false) }
  const ask = (keyId: number, day: string, limit: number | null): Ask => {
    const k = limit === null ? kinds.unlimited : kinds.limited
    const parameters = k.query.parameters.map((p) => (p === KEY ? keyId : p === DAY ? day : p === LIMIT ? limit : p))
    return { kind: k, parameters }
  }
  const viaKysely = ({ kind: { query }, parameters }: Ask) =>
    Effect.tryPromise({
      try: () => db.executeQuery<{ count: number }>({ ...query, parameters }),
      catch: (cause) => new AccountsUnavailable({ cause }),
    }).pipe(Effect.map((result) => result.rows[0]?.count))
  if (sqlite === undefined) return (keyId, day, limit) => viaKysely(ask(keyId, day, limit))
  const run = (a: Ask) => (a.kind.prepared!.all(a.parameters) as Array<{ count: number }>)[0]?.count
  const runAll = sqlite.transaction((batch: ReadonlyArray<Ask>) => batch.map(run))
  const counted = perTurn((batch: ReadonlyArray<Ask>) => {
    if (sqlite.inTransaction) return batch.map(viaKysely)
    try {
      const counts = batch.length === 1 ? [run(batch[0]!)] : runAll.immediate(batch)
      return counts.map((count) => Effect.succeed(count))
    } catch (cause) {
      const failed = Effect.fail(new AccountsUnavailable({ cause }))
      return batch.map(() => failed)
    }
  })
  return (keyId, day, limit) => counted(ask(keyId, day, limit))
}

interface Kind {
  readonly query: CompiledQuery
  /** The prepared statement on the SQLite connection (absent for another driver). */
  readonly prepared: Database.Statement | undefined
}

interface Ask {
  readonly kind: Kind
  readonly parameters: ReadonlyArray<unknown>
}

/**
 * PostgreSQL's decide-and-count statement, with typed parameters (an untyped parameter in
 * INSERT … SELECT would be text) and boolean conditions; the row comes back only when counted.
 */
const consumeOnPostgres = (db: Kysely<AccountsDatabase>) => {
  const statement = (keyId: number, day: string, limit: number | null) =>
    limit !== null
      ? sql<{ count: number }>`INSERT INTO usage (key_id, day, count)
          SELECT ${keyId}::integer, ${day}::text, 1 WHERE ${limit}::integer > 0
          ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + 1 WHERE usage.count < ${limit}::integer
          RETURNING count`
      : sql<{ count: number }>`INSERT INTO usage (key_id, day, count) VALUES (${keyId}::integer, ${day}::text, 1)
          ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + 1
          RETURNING count`
  return (keyId: number, day: string, limit: number | null) =>
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
