/**
 * Past batches for `?batch=`: their snapshot files opened on demand, read-only, after the checks
 * the current one passes (SnapshotVerification.ts, in a worker thread: manifest, row counts,
 * quick_check, content hash; and the ledger's content hash), and kept open in a bounded LRU cache
 * (FDS_PAST_BATCHES_OPEN). At most that many past files are open at once, counting the ones being
 * opened and the ones evicted while requests still read them: an evicted file closes when its last
 * lease ends, and a request for another batch waits for a place meanwhile (503 past_batches_busy
 * after PLACE_WAIT_MILLIS). A file that passed its checks and has not changed since (its identity)
 * is opened again without them.
 *
 * Each open file is a SnapshotHandle (SnapshotHandle.ts), as the current one is, with its own
 * per-snapshot memo, and its leases are the handle's: a request holds one from the moment it
 * gets the file until it ends. A file being opened has no handle yet: it cannot be evicted
 * meanwhile, and the requests waiting for it get their leases on its handle as it opens, before
 * anything else can run, so it is never closed between its opening and their reads. Nothing here touches the current snapshot or its swaps: these are other
 * handles, other workers, other generations. A past file found gone (retention) answers 410 and leaves the cache;
 * one changed on disk or found corrupt by a read leaves it too, and is checked again when asked for
 * again; one that fails its checks is refused (503) until it changes.
 */
import { statSync } from "node:fs"
import { join } from "node:path"
import { BatchNotRetained, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { manifestPath } from "../../snapshots/Manifest.ts"
import type { PublishedBatch } from "../../snapshots/PublishedHistory.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { fileIdentity } from "./FileIdentity.ts"
import { type Verification, verifyOffThread } from "./OffThreadVerification.ts"
import { ChangedAfterCheck, type Lease, SnapshotHandle } from "./SnapshotHandle.ts"
import type { VerifiedSnapshot } from "./SnapshotVerification.ts"
import { log } from "./StoreFaults.ts"
import type { VerifiedFiles } from "./VerifiedFiles.ts"

/** How long a request waits for a place when every open past batch is being read. */
export const PLACE_WAIT_MILLIS = 10_000

/**
 * One past snapshot file's place in the cache: being opened, open (its handle), or evicted and
 * waiting for its handle's last lease to end. Only the handle counts leases.
 */
export class PastSnapshot {
  readonly file: string
  state: "opening" | "open" | "evicted" | "closed" = "opening"
  /** The open file, once it passed its checks. */
  handle: SnapshotHandle | null = null
  /** While it is being opened, the requests waiting for it: each is given a lease on its handle as it opens. */
  waiters = 1
  /** Settles once it is open (null) or could not be (why, for the request). */
  ready: Promise<ServiceUnavailable | BatchNotRetained | null> = Promise.resolve(null)

  constructor(file: string) {
    this.file = file
  }

  get reader(): SnapshotReader | null {
    return this.handle?.reader ?? null
  }

  get generation(): number {
    return this.handle?.generation ?? 0
  }

  /** The requests reading it now (its handle's leases). */
  get leases(): number {
    return this.handle?.leases ?? 0
  }
}

/** Why a past batch is not served: its file is gone (410) or this server cannot serve it now (503). */
export type PastProblem = ServiceUnavailable | BatchNotRetained

/** 410 for a published batch whose file retention removed: its content hash and how to rebuild it. */
export const batchNotRetained = (batch: PublishedBatch): BatchNotRetained =>
  new BatchNotRetained({
    parameter: "batch",
    message:
      `batch ${batch.id} was published, but retention has removed its snapshot file from this server; ` +
      `its content hash is ${batch.contentHash}. The operator can rebuild it from the ledger and the raw files with ` +
      `\`./fds pipeline reproduce --date ${batch.batchDate} --file ${batch.file} --restore\``,
  })

/**
 * A refusal's reason as a client may read it: an absolute path (a missing manifest's ENOENT names
 * the server's data folder) becomes its file name; the log keeps the whole reason.
 */
export const withoutServerPaths = (why: string): string => why.replace(/(?<=^|[\s'"(])(?:\/[^\s'"/]+)+\/([^\s'"/]+)/g, "$1")

const unreadable = (batch: PublishedBatch, why: string) =>
  new ServiceUnavailable({
    reason: "batch_unreadable",
    message:
      `the snapshot file of batch ${batch.id} failed its checks on this server (${withoutServerPaths(why)}); ` +
      `the operator can rebuild it with \`./fds pipeline reproduce --date ${batch.batchDate} --file ${batch.file} --restore\``,
    retryAfter: 3600,
  })

const busy = new ServiceUnavailable({
  reason: "past_batches_busy",
  message: "every past batch this server keeps open is being read; retry shortly",
  retryAfter: 2,
})

const stopping = new ServiceUnavailable({ reason: "snapshot_unavailable", message: "the API is stopping", retryAfter: 5 })

const pastDamaged = new ServiceUnavailable({
  reason: "snapshot_damaged",
  message: "the batch's snapshot file could not be read reliably; it will be checked again, retry later",
  retryAfter: 5,
})

const mtime = (path: string): string => String(statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? "none")

export interface PastSnapshotsOptions {
  readonly dir: string
  /** FDS_PAST_BATCHES_OPEN. */
  readonly maxOpen: number
  readonly verified: VerifiedFiles
  readonly placeWaitMillis?: number
}

export class PastSnapshots {
  /** In the cache, least recently used first (being opened or open). */
  private readonly cached = new Map<string, PastSnapshot>()
  /** Evicted while leased: still open until their last lease ends. */
  private readonly evicted = new Set<PastSnapshot>()
  /** Files that failed their checks, with the mtimes they failed with; refused until those change. */
  private readonly refused = new Map<string, { readonly signature: string; readonly reason: string }>()
  private readonly checks = new Set<Verification>()
  private waiting: Array<() => void> = []
  private stopped = false
  private readonly options: PastSnapshotsOptions

  constructor(options: PastSnapshotsOptions) {
    this.options = options
  }

  /** The past files open or being opened now (cached, then evicted ones still read). */
  openFiles(): ReadonlyArray<string> {
    return [...this.cached.keys(), ...[...this.evicted].map((e) => e.file)]
  }

  private places(): number {
    return this.cached.size + this.evicted.size
  }

  /**
   * A lease on `batch`'s file (the caller has checked it is published and on disk): from the
   * cache, or opened now; resolves with why not otherwise. Never rejects.
   */
  async acquire(batch: PublishedBatch): Promise<PastSnapshot | PastProblem> {
    const deadline = performance.now() + (this.options.placeWaitMillis ?? PLACE_WAIT_MILLIS)
    for (;;) {
      if (this.stopped) return stopping
      const kept = this.cached.get(batch.file)
      if (kept !== undefined) {
        if (kept.state === "open") {
          const identity = fileIdentity(join(this.options.dir, kept.file))
          if (identity === null) {
            this.discard(kept, "its file is gone from disk")
            return batchNotRetained(batch)
          }
          if (identity !== kept.handle?.identity) {
            this.discard(kept, "its file changed on disk since it was checked")
            continue
          }
        }
        this.cached.delete(batch.file)
        this.cached.set(batch.file, kept) // most recently used last
        if (kept.state === "open") {
          kept.handle!.acquire()
          return kept
        }
        // being opened: the lease is taken for this request as it opens
        kept.waiters++
        return (await kept.ready) ?? kept
      }
      const refusal = this.refusal(batch.file)
      if (refusal !== null) return unreadable(batch, refusal)
      if (this.places() >= this.options.maxOpen) this.evictOne()
      if (this.places() < this.options.maxOpen) return this.open(batch)
      if (!(await this.placeFreed(deadline))) return busy
    }
  }

  release(entry: PastSnapshot): void {
    entry.handle?.release()
    if (entry.leases > 0) return
    if (entry.state === "evicted") this.close(entry)
    // a place may be freed by evicting it now
    this.wake()
  }

  /** Takes `entry` out of the cache (it is checked again when asked for next); it closes once unleased. */
  discard(entry: PastSnapshot, why: string): void {
    this.options.verified.forget(entry.file)
    if (this.cached.get(entry.file) !== entry || entry.state !== "open") return
    log("warn", "past snapshot dropped from the cache", { file: entry.file, why })
    this.cached.delete(entry.file)
    this.evict(entry)
  }

  /** Closes every file and ends the checks under way; resolves once their workers have exited. */
  async stop(): Promise<void> {
    this.stopped = true
    const ended = [...this.checks].map((c) => c.cancel())
    for (const entry of [...this.cached.values(), ...this.evicted]) {
      entry.handle?.close()
      entry.state = "closed"
    }
    this.cached.clear()
    this.evicted.clear()
    this.wake()
    await Promise.all(ended)
  }

  /** Makes room: the least recently used open file nobody reads closes now; else the least recently used open one is evicted. */
  private evictOne(): void {
    let oldestOpen: PastSnapshot | undefined
    for (const entry of this.cached.values()) {
      if (entry.state !== "open") continue
      oldestOpen ??= entry
      if (entry.leases === 0) {
        this.cached.delete(entry.file)
        this.close(entry)
        return
      }
    }
    // every open file is being read: one drains (unless one drains already) and the request waits for it
    if (oldestOpen !== undefined && this.evicted.size === 0) {
      this.cached.delete(oldestOpen.file)
      this.evict(oldestOpen)
    }
  }

  /** It serves no more: retired (the handle closes with its last lease), closed now when nobody reads it. */
  private evict(entry: PastSnapshot): void {
    entry.handle?.retire()
    if (entry.leases === 0) this.close(entry)
    else {
      entry.state = "evicted"
      this.evicted.add(entry)
    }
  }

  private close(entry: PastSnapshot): void {
    entry.handle?.close()
    entry.state = "closed"
    this.evicted.delete(entry)
    log("info", "past snapshot closed", { file: entry.file, open: this.places() })
    this.wake()
  }

  private wake(): void {
    const waiting = this.waiting
    this.waiting = []
    for (const resume of waiting) resume()
  }

  /** Resolves true when a place may have been freed, false at the deadline. */
  private placeFreed(deadline: number): Promise<boolean> {
    const left = deadline - performance.now()
    if (left <= 0) return Promise.resolve(false)
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), left)
      this.waiting.push(() => {
        clearTimeout(timer)
        resolve(true)
      })
    })
  }

  private signature(file: string): string {
    return [join(this.options.dir, file), manifestPath(this.options.dir, file)].map(mtime).join("|")
  }

  private refusal(file: string): string | null {
    const refused = this.refused.get(file)
    return refused !== undefined && refused.signature === this.signature(file) ? refused.reason : null
  }

  private async open(batch: PublishedBatch): Promise<PastSnapshot | PastProblem> {
    const entry = new PastSnapshot(batch.file)
    this.cached.set(batch.file, entry)
    entry.ready = this.load(entry, batch).then((problem) => {
      if (problem !== null && this.cached.get(batch.file) === entry) {
        this.cached.delete(batch.file)
        entry.state = "closed"
        this.wake()
      }
      return problem
    })
    return (await entry.ready) ?? entry
  }

  /** Checks the file (unless it passed as it is now), opens it and fills `entry` in; null when it serves. */
  private async load(entry: PastSnapshot, batch: PublishedBatch): Promise<PastProblem | null> {
    const { dir, verified } = this.options
    const path = join(dir, batch.file)
    const began = performance.now()
    const signature = this.signature(batch.file)
    const identity = fileIdentity(path)
    if (identity === null) return batchNotRetained(batch)
    const refuse = (reason: string): PastProblem => {
      this.refused.set(batch.file, { signature, reason })
      verified.forget(batch.file)
      log("error", "past snapshot refused", { file: batch.file, error: reason })
      return unreadable(batch, reason)
    }
    let snapshot: VerifiedSnapshot | null = verified.recall(batch.file, identity)
    const checked = snapshot === null
    if (snapshot === null) {
      const check = verifyOffThread(dir, batch.file)
      this.checks.add(check)
      const verdict = await check.verdict
      this.checks.delete(check)
      if (verdict._tag === "Cancelled" || this.stopped) return stopping
      if (verdict._tag === "Failed") return fileIdentity(path) === null ? batchNotRetained(batch) : refuse(verdict.reason)
      snapshot = verdict.snapshot
    }
    if (snapshot.contentHash !== batch.contentHash) {
      return refuse(`its manifest's content hash ${snapshot.contentHash} is not the ledger's ${batch.contentHash}`)
    }
    let handle: SnapshotHandle
    try {
      handle = SnapshotHandle.open(dir, batch.file, snapshot, identity)
    } catch (e) {
      if (e instanceof ChangedAfterCheck) return this.stopped ? stopping : refuse(e.message)
      return fileIdentity(path) === null ? batchNotRetained(batch) : refuse(String(e))
    }
    if (this.stopped) {
      handle.close()
      return stopping
    }
    verified.remember(batch.file, identity, snapshot)
    entry.handle = handle
    entry.state = "open"
    // the requests that waited for it hold it from now: nothing can close it before they read it
    for (; entry.waiters > 0; entry.waiters--) handle.acquire()
    log("info", "past snapshot opened", {
      file: batch.file,
      generation: entry.generation,
      checked,
      open_ms: Math.round(performance.now() - began),
      open: this.places(),
    })
    return null
  }
}

/** The request's view of a past snapshot, as the current one's (SnapshotHandle.ts Lease); `entry` is open. */
export const pastLease = (entry: PastSnapshot, past: PastSnapshots, dir: string): Lease =>
  entry.handle!.lease({
    dir,
    // a lease keeps its file open; only the API stopping closes it under one
    closed: stopping,
    damaged: pastDamaged,
    doubted: (handle) => handle.damaged,
    suspect: (_handle, why) => past.discard(entry, why),
  })
