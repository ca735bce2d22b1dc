/**
 * Per-snapshot memory for the market readers: statements prepared once per database handle and
 * values computed once per handle. A published snapshot never changes, so neither do they; keyed
 * by the handle in a WeakMap, they go away with the snapshot. The pipeline's computations use the
 * same readers on the snapshot being built (one handle per build).
 */
import type Database from "better-sqlite3"

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>()
const values = new WeakMap<Database.Database, Map<string, unknown>>()

/** The statement for `sql` on `db`, prepared on first use. */
export const prepared = (db: Database.Database, sql: string): Database.Statement => {
  let byDb = statements.get(db)
  if (byDb === undefined) {
    byDb = new Map()
    statements.set(db, byDb)
  }
  let stmt = byDb.get(sql)
  if (stmt === undefined) {
    stmt = db.prepare(sql)
    byDb.set(sql, stmt)
  }
  return stmt
}

/** Whether `memo` holds a value for this handle and key. */
export const isMemoised = (db: Database.Database, key: string): boolean => values.get(db)?.has(key) === true

/** `compute()` once per handle and key. */
export const memo = <A>(db: Database.Database, key: string, compute: () => A): A => {
  let byDb = values.get(db)
  if (byDb === undefined) {
    byDb = new Map()
    values.set(db, byDb)
  }
  if (byDb.has(key)) return byDb.get(key) as A
  const value = compute()
  byDb.set(key, value)
  return value
}

/** A bounded least-recently-used map per handle and space, for answers that depend on request parameters. */
export const keptLru = <A>(db: Database.Database, space: string, limit: number) => {
  const lru = memo(db, `lru:${space}`, () => new Map<string, A>())
  return {
    get: (key: string): A | undefined => {
      const hit = lru.get(key)
      if (hit !== undefined) {
        lru.delete(key)
        lru.set(key, hit)
      }
      return hit
    },
    set: (key: string, value: A): void => {
      lru.delete(key)
      if (lru.size >= limit) lru.delete(lru.keys().next().value!)
      lru.set(key, value)
    },
  }
}

/** `compute()` once per handle, space and key while kept (bounded, least recently used first out). */
export const memoLru = <A>(db: Database.Database, space: string, key: string, limit: number, compute: () => A): A => {
  const kept = keptLru<A>(db, space, limit)
  const hit = kept.get(key)
  if (hit !== undefined) return hit
  const value = compute()
  kept.set(key, value)
  return value
}
