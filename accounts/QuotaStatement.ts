/** The one statement that decides and counts a request against a key's daily quota. */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import type { CompiledQuery, Kysely, Selectable } from "kysely"
import { sql } from "kysely"
import { AccountsUnavailable, isPostgres, sqliteOf } from "./AccountsDb.ts"
import type { AccountsDatabase, ApiKeysTable } from "./AccountsTables.ts"
import { fleetSeen } from "../snapshots/fleet/FleetDb.ts"
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
 * transaction (BEGIN IMMEDIATE; a turn with one request to count runs its statement alone): each
 * by its own statement, in arrival order, every decision taken before any of them is answered. If
 * the transaction fails, none of its requests is counted and each gets the store's error (503); a
 * request whose client went away while it waited for the end of the turn is not counted. While a
 * kysely transaction is
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
 * (the request not counted); `limit` null = no daily limit. `checkAndConsume` also reads the key's
 * row at the end of the turn, once per key and turn, just before the counting transaction (a turn
 * of refused keys only takes no write lock): reading it per request before the wait cost ~11 % of
 * a request's CPU (ten-id compare, 131 → 116 and 112 → 100 µs in two side-by-side runs).
 *
 * On SQLite the requests of one turn for the same key and day are counted by one statement that
 * adds their number (n) at once, `count = min(count + n, limit)`, after reading the count before
 * it in the same transaction: the first `limit − before` of them, in arrival order, are counted,
 * with the counts one statement each would have given, and the rest refused, as one statement
 * each would have done. A key's hash is checked once per turn for each key sent (the clear key is
 * held only for the turn). Issue #32: a kept answer's request is the quota's work and little else.
 */
export const compileConsume = (db: Kysely<AccountsDatabase>, keys: KeyLookup): QuotaStatements => {
  const { lookUp } = keys
  const checkThenCount =
    (count: QuotaStatements["consume"]): QuotaStatements["checkAndConsume"] =>
    (lookup, key, accept, limitOf, day) =>
      Effect.flatMap(lookUp(lookup), (row) =>
        row === undefined || !accept(key, row)
          ? Effect.succeed(null)
          : Effect.map(count(row.id ?? 0, day, limitOf(row)), (counted) => ({ row, count: counted })),
      )
  if (isPostgres(db)) {
    const consume = consumeOnPostgres(db)
    return { consume, checkAndConsume: checkThenCount(consume) }
  }
  const KEY = -7_077_077
  const DAY = "\u0000day"
  const LIMIT = -8_088_088
  const MANY = -9_099_099
  const sqlite = sqliteOf(db)
  /** The statement counting one request (`many` false) or MANY at once (SQLite's turns, below). */
  const kind = (limited: boolean, many: boolean): Kind => {
    const added = many ? sql<number>`${MANY}` : sql<number>`1`
    const query = db
      .insertInto("usage")
      .columns(["key_id", "day", "count"])
      .expression(
        db
          .selectNoFrom((eb) => [
            eb.val(KEY).as("key_id"),
            eb.val(DAY).as("day"),
            (many && limited ? sql<number>`min(${added}, ${LIMIT})` : added).as("count"),
          ])
          .where(limited ? sql<boolean>`${LIMIT} > 0` : sql<boolean>`1`),
      )
      .onConflict((oc) =>
        oc
          .columns(["key_id", "day"])
          .doUpdateSet({ count: many && limited ? sql`min(usage.count + ${added}, ${LIMIT})` : sql`usage.count + ${added}` })
          .where(limited ? sql<boolean>`usage.count < ${LIMIT}` : sql<boolean>`1`),
      )
      .returning("count")
      .compile()
    return { query, prepared: sqlite?.prepare(query.sql) }
  }
  const kinds = { limited: kind(true, false), unlimited: kind(false, false) }
  const bind = (k: Kind, keyId: number, day: string, limit: number | null, n: number) =>
    k.query.parameters.map((p) => (p === KEY ? keyId : p === DAY ? day : p === LIMIT ? limit : p === MANY ? n : p))
  const ask = (keyId: number, day: string, limit: number | null): Ask => {
    const k = limit === null ? kinds.unlimited : kinds.limited
    return { kind: k, parameters: bind(k, keyId, day, limit, 1), keyId, day, limit }
  }
  const viaKysely = ({ kind: { query }, parameters }: Ask) =>
    Effect.tryPromise({
      try: () => db.executeQuery<{ count: number }>({ ...query, parameters }),
      catch: (cause) => new AccountsUnavailable({ cause }),
    }).pipe(Effect.map((result) => result.rows[0]?.count))
  const consumeViaKysely: QuotaStatements["consume"] = (keyId, day, limit) => viaKysely(ask(keyId, day, limit))
  const checkViaKysely = checkThenCount(consumeViaKysely)
  if (sqlite === undefined) return { consume: consumeViaKysely, checkAndConsume: checkViaKysely }
  const run = (k: Kind, parameters: ReadonlyArray<unknown>) => (k.prepared!.all(parameters) as Array<{ count: number }>)[0]?.count
  const many = { limited: kind(true, true), unlimited: kind(false, true) }
  const countNow = sqlite.prepare(
    db.selectFrom("usage").select("count").where("key_id", "=", KEY).where("day", "=", DAY).compile().sql,
  )
  /**
   * The counts of `n` requests of one key and day, in arrival order (undefined: refused), as `n`
   * single statements would give them: one statement alone, or the count before and one
   * statement adding them all (inside the turn's transaction).
   */
  const countGroup = (first: Ask, n: number): ReadonlyArray<number | undefined> => {
    if (n === 1) return [run(first.kind, first.parameters)]
    const before = (countNow.get(first.keyId, first.day) as { count: number } | undefined)?.count ?? 0
    const k = first.limit === null ? many.unlimited : many.limited
    const after = run(k, bind(k, first.keyId, first.day, first.limit, n))
    const counted = after === undefined ? 0 : after - before
    return Array.from({ length: n }, (_, i) => (i < counted ? before + i + 1 : undefined))
  }
  const countGroups = (groups: ReadonlyArray<{ readonly first: Ask; readonly n: number }>) => groups.map((g) => countGroup(g.first, g.n))
  const countAll = sqlite.transaction(countGroups)
  const byLookup = keys.prepared!
  /**
   * One turn's asks, in order. First each key's row is read (once per key and turn) and checked
   * (once per key sent and turn); then what is to be counted is counted, a statement per key and
   * day (countGroup), in one transaction when there is more than one statement. A turn of refused
   * keys only (unknown, revoked, a wrong secret) takes no write lock.
   */
  const answer = (batch: ReadonlyArray<TurnAsk>): ReadonlyArray<Counted | number | undefined | null> => {
    const rows = new Map<string, Selectable<ApiKeysTable> | undefined>()
    const rowOf = (lookup: string) => {
      if (!rows.has(lookup)) rows.set(lookup, byLookup.get(lookup) as Selectable<ApiKeysTable> | undefined)
      return rows.get(lookup)
    }
    const accepted = new Map<string, boolean>()
    const acceptedOnce = (t: Extract<TurnAsk, { _tag: "check" }>, row: Selectable<ApiKeysTable>) => {
      let ok = accepted.get(t.key)
      if (ok === undefined) {
        ok = t.accept(t.key, row)
        accepted.set(t.key, ok)
      }
      return ok
    }
    const plan = batch.map((t) => {
      if (t._tag === "count") return { row: undefined, ask: t.ask }
      const row = rowOf(t.lookup)
      return row === undefined || !acceptedOnce(t, row) ? null : { row, ask: ask(row.id ?? 0, t.day, t.limitOf(row)) }
    })
    // the asks by key, day and limit, in order of first arrival; each ask's place in its group
    const groups = new Map<string, { readonly first: Ask; n: number }>()
    const places = plan.map((p) => {
      if (p === null) return null
      const id = `${p.ask.keyId}\n${p.ask.day}\n${p.ask.limit}`
      const group = groups.get(id)
      if (group === undefined) {
        groups.set(id, { first: p.ask, n: 1 })
        return { id, index: 0 }
      }
      return { id, index: group.n++ }
    })
    const list = [...groups.values()]
    const counted = list.length === 0 ? [] : list.length === 1 && list[0]!.n === 1 ? countGroups(list) : countAll.immediate(list)
    const byGroup = new Map([...groups.keys()].map((id, i) => [id, counted[i]!]))
    return plan.map((p, i) => {
      const place = places[i]
      if (p === null || place === null || place === undefined) return null
      const count = byGroup.get(place.id)![place.index]
      return p.row === undefined ? count : { row: p.row, count }
    })
  }
  const viaKyselyTurn = (t: TurnAsk): Effect.Effect<Counted | number | undefined | null, AccountsUnavailable> =>
    t._tag === "count" ? viaKysely(t.ask) : checkViaKysely(t.lookup, t.key, t.accept, t.limitOf, t.day)
  const turn = perTurn((batch: ReadonlyArray<TurnAsk>) => {
    if (sqlite.inTransaction) return batch.map(viaKyselyTurn)
    try {
      return answer(batch).map((a) => Effect.succeed(a))
    } catch (cause) {
      const failed = Effect.fail(new AccountsUnavailable({ cause }))
      return batch.map(() => failed)
    }
  })
  return {
    consume: (keyId, day, limit) =>
      turn({ _tag: "count", ask: ask(keyId, day, limit) }) as Effect.Effect<number | undefined, AccountsUnavailable>,
    checkAndConsume: (lookup, key, accept, limitOf, day) =>
      turn({ _tag: "check", lookup, key, accept, limitOf, day }) as Effect.Effect<Counted | null, AccountsUnavailable>,
  }
}

/** A key's row and today's count including this request (undefined: the quota was used up). */
export interface Counted {
  readonly row: Selectable<ApiKeysTable>
  readonly count: number | undefined
}

export interface QuotaStatements {
  /** Counts one request of a key already checked; the answer as described above. */
  readonly consume: (keyId: number, day: string, limit: number | null) => Effect.Effect<number | undefined, AccountsUnavailable>
  /**
   * Reads the key's row by its lookup token and, when `accept` takes it (not revoked, the hash
   * matches), counts one request against `limitOf(row)`: on SQLite at the end of the turn, the
   * row read once per key and turn; null when the key is unknown or not accepted.
   */
  readonly checkAndConsume: (
    lookup: string,
    key: string,
    accept: (key: string, row: Selectable<ApiKeysTable>) => boolean,
    limitOf: (row: Selectable<ApiKeysTable>) => number | null,
    day: string,
  ) => Effect.Effect<Counted | null, AccountsUnavailable>
}

type TurnAsk =
  | { readonly _tag: "count"; readonly ask: Ask }
  | {
      readonly _tag: "check"
      readonly lookup: string
      /** The key sent: `accept` decides on it and the row (once per key and turn on SQLite). */
      readonly key: string
      readonly accept: (key: string, row: Selectable<ApiKeysTable>) => boolean
      readonly limitOf: (row: Selectable<ApiKeysTable>) => number | null
      readonly day: string
    }

interface Kind {
  readonly query: CompiledQuery
  /** The prepared statement on the SQLite connection (absent for another driver). */
  readonly prepared: Database.Statement | undefined
}

interface Ask {
  readonly kind: Kind
  readonly parameters: ReadonlyArray<unknown>
  readonly keyId: number
  readonly day: string
  readonly limit: number | null
}

/**
 * PostgreSQL's decide-and-count statement, with typed parameters (an untyped parameter in
 * INSERT … SELECT would be text) and boolean conditions; the row comes back only when counted.
 */
const consumeOnPostgres = (db: Kysely<AccountsDatabase>) => {
  // the fleet's current batch comes back with the count (snapshots/fleet/FleetDb.ts, fleetSeen)
  const fleet = sql`(SELECT seq FROM fleet_current WHERE id = 1) AS fleet_seq, (SELECT batch_id FROM fleet_current WHERE id = 1) AS fleet_batch`
  type Row = { count: number; fleet_seq: string | null; fleet_batch: string | null }
  const statement = (keyId: number, day: string, limit: number | null) =>
    limit !== null
      ? sql<Row>`INSERT INTO usage (key_id, day, count)
          SELECT ${keyId}::integer, ${day}::text, 1 WHERE ${limit}::integer > 0
          ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + 1 WHERE usage.count < ${limit}::integer
          RETURNING count, ${fleet}`
      : sql<Row>`INSERT INTO usage (key_id, day, count) VALUES (${keyId}::integer, ${day}::text, 1)
          ON CONFLICT (key_id, day) DO UPDATE SET count = usage.count + 1
          RETURNING count, ${fleet}`
  return (keyId: number, day: string, limit: number | null) =>
    Effect.tryPromise({
      try: () => statement(keyId, day, limit).execute(db),
      catch: (cause) => new AccountsUnavailable({ cause }),
    }).pipe(
      Effect.map((result) => {
        const row = result.rows[0]
        if (row !== undefined) fleetSeen(row.fleet_seq, row.fleet_batch)
        return row?.count
      }),
    )
}

/** The key lookup: as an effect, and its prepared statement on SQLite (for the turn's reads). */
export interface KeyLookup {
  readonly lookUp: (lookup: string) => Effect.Effect<Selectable<ApiKeysTable> | undefined, AccountsUnavailable>
  readonly prepared: Database.Statement | undefined
}

/**
 * The key lookup of every request (SELECT * FROM api_keys WHERE lookup = ?), compiled once; on
 * SQLite a prepared statement run synchronously, as the quota statement above (through kysely it
 * cost ~5 % of a small request's CPU), and through kysely while a kysely transaction is open.
 */
export const compileKeyLookup = (db: Kysely<AccountsDatabase>): KeyLookup => {
  const compiled = db.selectFrom("api_keys").selectAll().where("lookup", "=", "\u0000lookup").compile()
  const viaKysely = (lookup: string) =>
    Effect.tryPromise({
      try: () => db.executeQuery<Selectable<ApiKeysTable>>({ ...compiled, parameters: [lookup] }),
      catch: (cause) => new AccountsUnavailable({ cause }),
    }).pipe(Effect.map((result) => result.rows[0]))
  const sqlite = isPostgres(db) ? undefined : sqliteOf(db)
  if (sqlite === undefined) return { lookUp: viaKysely, prepared: undefined }
  const prepared = sqlite.prepare(compiled.sql)
  return {
    prepared,
    lookUp: (lookup) => {
      if (sqlite.inTransaction) return viaKysely(lookup)
      return Effect.try({
        try: () => prepared.get(lookup) as Selectable<ApiKeysTable> | undefined,
        catch: (cause) => new AccountsUnavailable({ cause }),
      })
    },
  }
}
