/**
 * A computation runs inside the snapshot being built, after every staged fact is inserted and
 * before the file is checked and hashed: it reads the facts with SQL and writes its own tables
 * (declared in snapshots/tables/Computed.ts). It must be deterministic: no clock, no randomness,
 * rows written in key order.
 *
 * A computation whose rows of a month depend on the quotas up to that month (and on facts it can
 * digest) may be `incremental`: in a daily increment, when what its rows before the increment's
 * month read besides the quotas is the same in the previous snapshot and the new one, those rows
 * are kept, the rest deleted, and it computes only from that month on (pipeline/Build.ts).
 */
import type Database from "better-sqlite3"

/** An increment's run of an incremental computation. */
export interface ComputeIncrement {
  /** YYYYMMDD, a month's first day: its rows before it are in the table, those from it on were deleted. */
  readonly from: number
  /** What it kept for the next build in the previous one (the manifest's `compute_state`), or undefined. */
  readonly state: unknown
}

/** How a computation runs: from nothing, or as an increment; and where it keeps state for the next build. */
export interface ComputeRun {
  readonly increment: ComputeIncrement | null
  /** A `divisible` computation's part: the `index`-th of `of` consecutive ranges of its series; absent: all of them. */
  readonly part?: { readonly index: number; readonly of: number }
  /** Kept in the manifest (`compute_state`) for the next increment; JSON. */
  readonly keep: (state: unknown) => void
}

export interface Computation {
  readonly name: string
  /** Returns counters for the manifest (e.g. series computed, series skipped). */
  readonly run: (db: Database.Database, batchDate: string, context?: ComputeRun) => Record<string, number>
  /**
   * Its rows are made series by series, in key order: it can run as parts over consecutive
   * ranges of the series (one in the build's thread, one beside it), each part's rows following
   * the previous part's, and its counters are sums.
   */
  readonly divisible?: true
  readonly incremental?: {
    /** The tables it writes. */
    readonly tables: ReadonlyArray<string>
    /**
     * A digest of what its rows before `from` read besides the quotas before it (which an
     * increment keeps): the same in the previous snapshot and the new one lets it keep them.
     */
    readonly inputsBefore: (db: Database.Database, from: number) => string
    /** Whether the previous build's rows and state let it continue from `from` (read before they are deleted). */
    readonly canContinue: (db: Database.Database, from: number, state: unknown) => boolean
    /** Deletes its rows from `from` on (the rest of its tables' rows, when they are not by date). */
    readonly deleteFrom: (db: Database.Database, from: number) => void
  }
}
