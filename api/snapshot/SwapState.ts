/**
 * What SnapshotStore does between publishes: it watches CURRENT, has a newly named file checked in
 * a worker thread (OffThreadVerification.ts) while the old one keeps serving, then opens it here
 * (read-only, with the reader's pragmas) and swaps it in, or refuses it and logs why. One check at
 * a time: a check whose file CURRENT no longer names is dropped and its worker ended, so an older
 * file never swaps in after a newer one. A retired snapshot closes when its last lease ends or
 * when the drain window runs out.
 */
import { existsSync, type FSWatcher, statSync, watch } from "node:fs"
import { join } from "node:path"
import { manifestPath } from "../../snapshots/Manifest.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { SnapshotReader } from "../../snapshots/Reader.ts"
import type { Loaded, SnapshotStoreOptions } from "../SnapshotStore.ts"
import { type Verification, verifyOffThread } from "./OffThreadVerification.ts"
import { totalRecords, type Verdict, type VerifiedSnapshot } from "./SnapshotVerification.ts"

/** A check under way: its file, CURRENT's and the files' mtimes when it began, its worker. */
interface PendingCheck {
  readonly file: string
  readonly signature: string
  readonly began: number
  readonly verification: Verification
  /** Resolves when the check's outcome is applied (swapped, refused or dropped). */
  readonly done: Promise<void>
}

const decided: Promise<void> = Promise.resolve()

/** The mutable part of SnapshotStore, kept out of Effect so the watcher callback stays synchronous. */
export class SwapState {
  loaded: Loaded | null = null
  private generation = 0
  private watcher: FSWatcher | null = null
  private timer: NodeJS.Timeout | null = null
  /** Refused files with the state they were refused in; retried when CURRENT or the files change. */
  private refused = new Map<string, string>()
  /** The check of the file CURRENT named last; at most one at a time. */
  private pending: PendingCheck | null = null
  /** Dropped checks whose worker threads are still exiting (stop waits for them). */
  private readonly exiting = new Set<Promise<void>>()
  private stopped = false
  private readonly options: SnapshotStoreOptions

  constructor(options: SnapshotStoreOptions) {
    this.options = options
  }

  start(): void {
    if (existsSync(this.options.dir)) {
      try {
        this.watcher = watch(this.options.dir, (_event, name) => {
          if (name === "CURRENT") void this.refresh()
        })
        this.watcher.unref()
      } catch {
        this.watcher = null
      }
    }
    this.timer = setInterval(() => void this.refresh(), this.options.pollMillis)
    this.timer.unref()
  }

  /** Stops watching, ends a check under way and closes the served snapshot; resolves once no worker is left. */
  async stop(): Promise<void> {
    this.stopped = true
    this.watcher?.close()
    if (this.timer !== null) clearInterval(this.timer)
    if (this.pending !== null) this.drop(this.pending, "the API is stopping")
    const loaded = this.loaded
    this.loaded = null
    if (loaded !== null) loaded.reader.close()
    await Promise.all(this.exiting)
  }

  /** Looks at CURRENT; resolves once what it names is served, refused, or given up for a newer file. */
  refresh(): Promise<void> {
    if (this.stopped) return decided
    const file = readCurrent(this.options.dir)
    const pending = this.pending
    if (pending !== null) {
      // an unreadable CURRENT (a hand edit under way) is no reason to give up a check
      if (file === null || file === pending.file) return pending.done
      this.drop(pending, `CURRENT names ${file}`)
    }
    if (file === null || file === this.loaded?.file) return decided
    const signature = fileSignature(this.options.dir, file)
    if (this.refused.get(file) === signature) return decided
    return this.check(file, signature)
  }

  release(loaded: Loaded): void {
    loaded.leases--
    if (loaded.retired && loaded.leases === 0) loaded.reader.close()
  }

  private check(file: string, signature: string): Promise<void> {
    console.log(JSON.stringify({ level: "info", msg: "checking snapshot", file }))
    const verification = verifyOffThread(this.options.dir, file)
    const pending: PendingCheck = {
      file,
      signature,
      began: performance.now(),
      verification,
      done: verification.verdict.then((verdict) => this.decide(pending, verdict)),
    }
    this.pending = pending
    return pending.done
  }

  /** Applies a check's verdict, unless the check was dropped meanwhile. */
  private decide(pending: PendingCheck, verdict: Verdict): Promise<void> {
    if (this.pending !== pending) return decided
    if (verdict._tag === "Cancelled") {
      this.pending = null
      return decided
    }
    if (verdict._tag === "Failed") {
      this.pending = null
      this.refuse(pending, verdict.reason)
      return decided
    }
    // CURRENT moved before its watch event came in: check what it names now instead
    if (readCurrent(this.options.dir) !== pending.file) {
      this.pending = null
      return this.refresh()
    }
    return this.swapIn(pending, verdict.snapshot)
  }

  /**
   * Opens the checked file, warms it (options.warm; the check stays pending meanwhile, so a
   * newer CURRENT or stop drops it), then swaps it in.
   */
  private async swapIn(pending: PendingCheck, verified: VerifiedSnapshot): Promise<void> {
    const { file } = pending
    let reader: SnapshotReader | null = null
    try {
      reader = new SnapshotReader(join(this.options.dir, file))
      if (reader.batchDate !== verified.batchDate) throw new Error("the file changed after it was checked")
      const checkMillis = Math.round(performance.now() - pending.began)
      let warmMillis: number | undefined
      const warm = this.options.warm
      if (warm !== undefined) {
        const began = performance.now()
        const stillWanted = () => this.pending === pending && !this.stopped
        try {
          await warm({ reader, file, contentHash: verified.contentHash }, stillWanted)
          warmMillis = Math.round(performance.now() - began)
        } catch (e) {
          console.error(JSON.stringify({ level: "warn", msg: "snapshot warm-up failed; swapping in all the same", file, error: String(e) }))
        }
        if (!stillWanted()) {
          reader.close()
          return
        }
        // CURRENT moved during the warm-up and no refresh came to say so yet: what it names now goes first
        if (readCurrent(this.options.dir) !== file) {
          reader.close()
          this.pending = null
          return this.refresh()
        }
      }
      this.pending = null
      const next: Loaded = {
        generation: ++this.generation,
        file,
        reader,
        contentHash: verified.contentHash,
        totalRecords: totalRecords(verified.rowCounts),
        fiUnavailable: saysFiUnavailable(reader),
        leases: 0,
        retired: false,
      }
      const previous = this.loaded
      this.loaded = next
      console.log(
        JSON.stringify({
          level: "info",
          msg: "snapshot swapped in",
          file,
          generation: next.generation,
          check_ms: checkMillis,
          hash_ms: verified.hashMillis,
          ...(warmMillis === undefined ? {} : { warm_ms: warmMillis }),
        }),
      )
      if (previous !== null) this.retire(previous)
    } catch (e) {
      if (this.pending === pending) this.pending = null
      reader?.close()
      this.refuse(pending, String(e))
    }
  }

  private refuse(pending: PendingCheck, error: string): void {
    this.refused.set(pending.file, pending.signature)
    console.error(
      JSON.stringify({ level: "error", msg: "snapshot refused; the previous one keeps serving", file: pending.file, error }),
    )
  }

  /**
   * Gives up a check (its file is not refused: it may be named again) and ends its worker; a
   * warm-up under way sees it is no longer wanted and closes its file (stop waits for both).
   */
  private drop(pending: PendingCheck, why: string): void {
    this.pending = null
    console.log(JSON.stringify({ level: "info", msg: "snapshot check abandoned", file: pending.file, why }))
    for (const ended of [pending.verification.cancel(), pending.done]) {
      this.exiting.add(ended)
      void ended.finally(() => this.exiting.delete(ended))
    }
  }

  private retire(loaded: Loaded): void {
    loaded.retired = true
    if (loaded.leases === 0) {
      loaded.reader.close()
      return
    }
    setTimeout(() => loaded.reader.close(), this.options.drainMillis).unref()
  }
}

const mtime = (path: string): string => String(statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? "none")
const fileSignature = (dir: string, file: string): string =>
  [join(dir, "CURRENT"), join(dir, file), manifestPath(dir, file)].map(mtime).join("|")

/** Whether the snapshot says (meta fi_status) that it lacks its FI/ETF part; one that says nothing predates it. */
const saysFiUnavailable = (reader: SnapshotReader): boolean => {
  const status = reader.meta.get("fi_status")
  return status !== undefined && status !== "available"
}
