/**
 * Per-snapshot memory for the market readers: statements prepared once per snapshot and values
 * computed once per snapshot, on the snapshot's memo (../SnapshotMemo.ts), which closes with it.
 * A published snapshot never changes, so neither do they. The pipeline's computations use the
 * same readers on the snapshot being built (one connection per build, with its own memo).
 */
import type Database from "better-sqlite3"
import { memoOf } from "../SnapshotMemo.ts"

export { prepared } from "../SnapshotMemo.ts"

/** Whether `memo` holds a value for this snapshot and key. */
export const isMemoised = (db: Database.Database, key: string): boolean => memoOf(db).has(`market:${key}`)

/** `compute()` once per snapshot and key. */
export const memo = <A>(db: Database.Database, key: string, compute: () => A): A => memoOf(db).memo(`market:${key}`, compute)

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
