/**
 * What is computed once per open snapshot (prepared statements, catalogs, rendered answers) and
 * kept for as long as that snapshot is open. A published snapshot never changes, so neither do
 * these; one memo per connection holds them all, and closing the snapshot closes its memo, so
 * its memory goes with it (not at some later garbage collection) and two snapshots never share
 * an entry.
 *
 * A SnapshotReader owns the memo of its connection (Reader.ts); the API's snapshot handle
 * (api/snapshot/SnapshotHandle.ts) reads and writes the same one. The readers here reach it from
 * the connection they are given (`memoOf`), which is all a reader shared with the pipeline has:
 * the pipeline's build, a connection without a SnapshotReader, gets a memo of its own on first use.
 */
import type Database from "better-sqlite3"

/** The per-snapshot memo as its users see it. */
export interface Memo {
  /** The value under `key`, computed on first use and kept until the snapshot closes. Keys name their owner (`"fi-catalog"`). */
  readonly memo: <A>(key: string, compute: () => A) => A
  /** Whether a value is kept under `key`. */
  readonly has: (key: string) => boolean
}

export class SnapshotMemo implements Memo {
  private kept: Map<string, unknown> | null = new Map()

  memo = <A>(key: string, compute: () => A): A => {
    if (this.kept?.has(key)) return this.kept.get(key) as A
    const value = compute()
    // a closed snapshot keeps nothing (a read that raced its close computes for nobody)
    if (this.kept === null) disposeOf(value)
    else this.kept.set(key, value)
    return value
  }

  has = (key: string): boolean => this.kept?.has(key) === true

  /** How many values are kept (none once closed). */
  get size(): number {
    return this.kept?.size ?? 0
  }

  get isClosed(): boolean {
    return this.kept === null
  }

  /** Drops every value (disposing those that hold something elsewhere); later calls compute without keeping. */
  close(): void {
    const kept = this.kept
    this.kept = null
    for (const value of kept?.values() ?? []) disposeOf(value)
  }
}

/**
 * A value that holds something outside the memo (an answer cache's shelf counts its answers
 * against a budget shared by every snapshot) lets it go when its snapshot closes.
 */
const disposeOf = (value: unknown): void => {
  if (typeof value === "object" && value !== null && Symbol.dispose in value) (value as Disposable)[Symbol.dispose]()
}

/** Each connection's memo; the value is the owner's (a SnapshotReader's), closed with it. */
const memos = new WeakMap<Database.Database, SnapshotMemo>()

/** Makes `memo` the one of `db` (a SnapshotReader, as it opens). */
export const bindMemo = (db: Database.Database, memo: SnapshotMemo): void => {
  memos.set(db, memo)
}

/** The memo of the snapshot open on `db`: its reader's, or one made now for a connection without a reader. */
export const memoOf = (db: Database.Database): Memo => {
  let memo = memos.get(db)
  if (memo === undefined) {
    memo = new SnapshotMemo()
    memos.set(db, memo)
  }
  return memo
}

/** The statement for `sql` on `db`, prepared once per snapshot. */
export const prepared = (db: Database.Database, sql: string): Database.Statement =>
  memoOf(db).memo(`statement:${sql}`, () => db.prepare(sql))
