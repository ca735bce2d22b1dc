/**
 * One open snapshot file, the same for the current batch (SwapState.ts) and a past one
 * (`?batch=`, PastSnapshots.ts): opened after its checks, read through leases, retired when it no
 * longer serves and closed once its last lease ends. What is computed once per snapshot (prepared
 * statements, rendered answers) is kept on it (`memo`), not in module-level maps keyed by file,
 * path or generation: a closed snapshot's memory goes with it, and two snapshots never share an
 * entry.
 *
 * This module is the leaf of api/snapshot/: the swap, the past batches and the store all import
 * it, and it imports none of them.
 */
import { join } from "node:path"
import { Effect } from "effect"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { isDamagedFileError, SnapshotReader } from "../../snapshots/Reader.ts"
import { fileIdentity } from "./FileIdentity.ts"
import { totalRecords, type VerifiedSnapshot } from "./SnapshotVerification.ts"

/**
 * Unique in the process, so that a cache keyed by generation never mixes two stores' snapshots
 * (tests run several), nor a past batch opened for `?batch=` with the current one.
 */
let generations = 0
export const nextGeneration = (): number => ++generations

/** The file under the path is not the one that was checked (its batch date or identity differ). */
export class ChangedAfterCheck extends Error {}

/** A request's pin on one snapshot: reads go to that file and no other for the whole request. */
export interface Lease {
  readonly generation: number
  readonly file: string
  readonly contentHash: string
  /**
   * Runs a read on the pinned snapshot; 503 (snapshot_changed) when it was closed meanwhile, 503
   * (snapshot_damaged) when the file is found corrupt (then it is checked again).
   */
  readonly read: <A>(f: (reader: SnapshotReader) => A) => Effect.Effect<A, ServiceUnavailable>
  /**
   * Whether the pinned file is still the one that was checked and is not being checked again (one
   * stat); false has it checked again. A "not found" is answered only when it is true.
   */
  readonly intact: () => boolean
  /** The value under `key` for this snapshot, computed on first use (see SnapshotHandle.memo). */
  readonly memo: <A>(key: string, compute: () => A) => A
}

/** What a lease does when its handle is closed, corrupt or changed on disk: the owner's policy. */
export interface LeaseKeeper {
  /** The snapshots folder (intact() stats the file there). */
  readonly dir: string
  /** Answered for a read of a closed handle. */
  readonly closed: ServiceUnavailable
  /** Answered for a read of a handle found corrupt. */
  readonly damaged: ServiceUnavailable
  /** True while a "not found" from it cannot be trusted without another look (it is being checked again). */
  readonly doubted: (handle: SnapshotHandle) => boolean
  /** The handle was found corrupt or changed on disk: it is checked again before it serves again. */
  readonly suspect: (handle: SnapshotHandle, why: string) => void
}

/** A snapshot swaps in or opens for `?batch=` with these (its first requests' caches, built off the request path). */
export interface WarmSnapshot {
  readonly reader: SnapshotReader
  readonly file: string
  readonly contentHash: string
}

export class SnapshotHandle implements WarmSnapshot {
  readonly generation = nextGeneration()
  /** Rows in the snapshot's data tables (for /health), counted by the check before it opened. */
  readonly totalRecords: number
  /** The snapshot says it lacks its FI/ETF part (meta fi_status; for /health). */
  readonly fiUnavailable: boolean
  /** Why it is checked again (it changed on disk, a read found it corrupt); null while it is not. */
  suspect: string | null = null
  /** A read found it corrupt: every read answers 503 until its re-check decides (a fresh handle, or none). */
  damaged = false
  leases = 0
  retired = false
  readonly file: string
  readonly reader: SnapshotReader
  readonly contentHash: string
  /** The file's identity (FileIdentity.ts) when it was checked; null if it had none. */
  readonly identity: string | null
  /** What its check found (the warm's thread opens the file again with it, AnswerWarm.ts). */
  readonly verified: VerifiedSnapshot

  private constructor(file: string, reader: SnapshotReader, identity: string | null, verified: VerifiedSnapshot) {
    this.file = file
    this.reader = reader
    this.contentHash = verified.contentHash
    this.identity = identity
    this.verified = verified
    this.totalRecords = totalRecords(verified.rowCounts)
    this.fiUnavailable = saysFiUnavailable(reader)
  }

  /**
   * Opens `dir/file` read-only after its check passed with `verified`; throws ChangedAfterCheck
   * when the file there is no longer the checked one (`identity`), or the reader's error.
   */
  static open(dir: string, file: string, verified: VerifiedSnapshot, identity: string | null): SnapshotHandle {
    const reader = new SnapshotReader(join(dir, file))
    if (reader.batchDate !== verified.batchDate || fileIdentity(reader.path) !== identity) {
      reader.close()
      throw new ChangedAfterCheck("the file changed after it was checked")
    }
    return new SnapshotHandle(file, reader, identity, verified)
  }

  get isOpen(): boolean {
    return this.reader.isOpen
  }

  acquire(): this {
    this.leases++
    return this
  }

  release(): void {
    this.leases--
    if (this.retired && this.leases === 0) this.close()
  }

  /**
   * It serves no more: closes now when unleased, else when its last lease ends or after
   * `drainMillis`, whichever comes first (without `drainMillis`, when its last lease ends).
   */
  retire(drainMillis?: number): void {
    this.retired = true
    if (this.leases === 0) {
      this.close()
      return
    }
    if (drainMillis !== undefined) setTimeout(() => this.close(), drainMillis).unref()
  }

  /** Closes the file and drops its memo (what the readers and the routes kept for it). */
  close(): void {
    this.reader.close()
  }

  /**
   * The value under `key` for this snapshot, computed on first use and kept until the handle
   * closes. Keys name what they hold and who holds it (`"catalog:days"`); a family of entries
   * without a natural bound keeps a BoundedMemo under one key. It is the reader's memo
   * (snapshots/SnapshotMemo.ts), the one the readers of snapshots/readers keep their statements
   * and catalogs on: one place per snapshot, emptied when it closes; a closed handle keeps nothing.
   */
  memo<A>(key: string, compute: () => A): A {
    return this.reader.memo.memo(key, compute)
  }

  /** A lease on this handle for a request; `keeper` says what its failures answer. The caller counts it (acquire/release). */
  lease(keeper: LeaseKeeper): Lease {
    return {
      generation: this.generation,
      file: this.file,
      contentHash: this.contentHash,
      read: (f) =>
        Effect.suspend(() => {
          if (!this.reader.isOpen) return Effect.fail(keeper.closed)
          if (this.damaged) return Effect.fail(keeper.damaged)
          try {
            return Effect.succeed(f(this.reader))
          } catch (e) {
            // A connection closed under us is a retired snapshot; a corrupt file is checked again; anything else is a defect.
            if (!this.reader.isOpen) return Effect.fail(keeper.closed)
            if (isDamagedFileError(e)) {
              this.damaged = true
              keeper.suspect(this, `a read found it corrupt: ${String(e)}`)
              return Effect.fail(keeper.damaged)
            }
            return Effect.die(e)
          }
        }),
      intact: () => {
        if (keeper.doubted(this)) return false
        const identity = fileIdentity(join(keeper.dir, this.file))
        // gone from disk is not damage: the open file still reads the checked bytes
        if (identity === null || identity === this.identity) return true
        keeper.suspect(this, "the file changed on disk since it was checked")
        return false
      },
      memo: (key, compute) => this.memo(key, compute),
    }
  }
}

/** At most `max` entries, the least recently used dropped first: a family of per-snapshot values kept under one memo key. */
export class BoundedMemo<A> {
  private readonly kept = new Map<string, A>()
  private readonly max: number
  constructor(max: number) {
    this.max = max
  }

  get(key: string): A | undefined {
    const kept = this.kept.get(key)
    if (kept !== undefined) {
      this.kept.delete(key) // re-inserted: most recently used last
      this.kept.set(key, kept)
    }
    return kept
  }

  set(key: string, value: A): void {
    if (!this.kept.has(key) && this.kept.size >= this.max) this.kept.delete(this.kept.keys().next().value!)
    this.kept.set(key, value)
  }
}

/** Whether the snapshot says (meta fi_status) that it lacks its FI/ETF part; one that says nothing predates it. */
const saysFiUnavailable = (reader: SnapshotReader): boolean => {
  const status = reader.meta.get("fi_status")
  return status !== undefined && status !== "available"
}

/** 503 for a read through a lease whose snapshot was retired and closed meanwhile. */
export const snapshotChanged = new ServiceUnavailable({
  reason: "snapshot_changed",
  message: "a new batch was published while the request was read; retry",
  retryAfter: 1,
})

/** 503 for a read of a served file found corrupt or changed on disk, while it is checked again. */
export const snapshotDamaged = new ServiceUnavailable({
  reason: "snapshot_damaged",
  message: "the published batch could not be read reliably; it is being checked again, retry later",
  retryAfter: 5,
})
