/**
 * A computation runs inside the snapshot being built, after every staged fact is inserted and
 * before the file is checked and hashed: it reads the facts with SQL and writes its own tables
 * (declared in snapshots/tables/Computed.ts). It must be deterministic: no clock, no randomness,
 * rows written in key order.
 */
import type Database from "better-sqlite3"

export interface Computation {
  readonly name: string
  /** Returns counters for the manifest (e.g. series computed, series skipped). */
  readonly run: (db: Database.Database, batchDate: string) => Record<string, number>
}
