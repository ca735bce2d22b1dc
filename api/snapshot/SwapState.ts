/**
 * What SnapshotStore does between publishes: it watches CURRENT, has a newly named file checked in
 * a worker thread (OffThreadVerification.ts) while the old one keeps serving, then opens it here
 * (read-only, with the reader's pragmas) and swaps it in, or refuses it and logs why. One check at
 * a time: a check whose file CURRENT no longer names is dropped and its worker ended, so an older
 * file never swaps in after a newer one. A retired snapshot closes when its last lease ends or
 * when the drain window runs out.
 *
 * It watches the served file too: gone from disk, it keeps serving from the open file (a fault:
 * a restart could not serve it); changed on disk, or found corrupt by a read, it is suspect and
 * checked again: a passing check swaps a fresh connection to it in, a failing one retires it.
 * When nothing serves (at start, or after that) and CURRENT names nothing that passes its checks,
 * the newest file the pipeline's ledger says was published (PublishedHistory.ts) that passes them
 * serves instead, logged loudly. What is wrong is kept in `faults` for /health.
 */
import { existsSync, type FSWatcher, statSync, watch } from "node:fs"
import { join } from "node:path"
import { manifestPath } from "../../snapshots/Manifest.ts"
import { type CurrentPointer, inspectCurrent, pointerProblem, pointerText } from "../../snapshots/Pointer.ts"
import { chooseFallback } from "./Fallback.ts"
import { fileIdentity } from "./FileIdentity.ts"
import { type Verification, verifyOffThread } from "./OffThreadVerification.ts"
import { SnapshotHandle } from "./SnapshotHandle.ts"
import type { Verdict, VerifiedSnapshot } from "./SnapshotVerification.ts"
import { log, StoreFaults } from "./StoreFaults.ts"
import { VerifiedFiles } from "./VerifiedFiles.ts"

/** Why a file is checked: CURRENT names it, it serves and is suspect, or it stands in for CURRENT. */
type Purpose = "current" | "recheck" | "fallback"

/** A check under way: its file, why, CURRENT's and the files' mtimes when it began, its worker. */
interface PendingCheck {
  readonly file: string
  readonly purpose: Purpose
  readonly signature: string
  /** The file's identity when the check began: what swaps in must still be those bytes. */
  readonly identity: string | null
  readonly began: number
  readonly verification: Verification
  /** Resolves when the check's outcome is applied (swapped, refused or dropped) and what follows from it. */
  readonly done: Promise<void>
}

const decided: Promise<void> = Promise.resolve()

/**
 * Fleet mode (FleetMember.ts): decides whether a checked file serves at once (the fleet's current
 * batch) or is held ready until the fleet makes it current.
 */
export interface SwapGate {
  readonly admit: (file: string) => boolean
  readonly ready: (file: string, snapshot: { readonly batchDate: string; readonly contentHash: string }) => void
}

export interface SnapshotEvents {
  readonly swapped: (seconds: number) => void
  readonly checkFailed: () => void
}

export interface SwapStateOptions {
  /** The snapshots folder (CURRENT, the files and their manifests). */
  readonly dir: string
  readonly pollMillis: number
  /** How long a retired snapshot stays open for the leases still reading it. */
  readonly drainMillis: number
  /**
   * The pipeline's ledger, read (read-only) for a snapshot to fall back to and for the published
   * batches; default `<dir>/../ledger.sqlite`.
   */
  readonly ledger?: string
  /**
   * Work done on a checked snapshot before it is swapped in (caches its first requests would
   * otherwise build, all at once, on the event loop; the answers its first clients would ask
   * for, read through leases on it): it should give the loop back between steps and stop when
   * `stillWanted()` turns false (a newer CURRENT, the API stopping). A failure is logged and the
   * snapshot swaps in all the same; a read that finds it corrupt (the handle `damaged`) refuses it.
   */
  readonly warm?: (snapshot: SnapshotHandle, stillWanted: () => boolean) => Promise<void>
  /** Told as a check begins, so that what `warm` needs can start meanwhile (the answers' thread, AnswerWarm.ts). */
  readonly prepare?: () => void
  /** Told of each swap (seconds from the check's start to the swap) and each failed check (for the metrics). */
  readonly events?: SnapshotEvents
  /** Fleet mode: the member that decides when a checked file serves. */
  readonly gate?: SwapGate
}

/** The mutable part of SnapshotStore, kept out of Effect so the watcher callback stays synchronous. */
export class SwapState {
  /** The current snapshot: a reference to the one handle that serves requests naming no batch. */
  loaded: SnapshotHandle | null = null
  /** What is wrong now, for /health. */
  readonly faults = new StoreFaults()
  /** Files that passed their checks (shared with the past batches of `?batch=`). */
  readonly verified = new VerifiedFiles()
  /** What CURRENT said when last read. */
  private pointer: CurrentPointer = { _tag: "Missing" }
  private watcher: FSWatcher | null = null
  private timer: NodeJS.Timeout | null = null
  /** Refused files with the state they were refused in and why; retried when CURRENT or the files change. */
  private refused = new Map<string, { readonly signature: string; readonly reason: string }>()
  /** The check under way; at most one at a time. */
  private pending: PendingCheck | null = null
  /** Dropped checks whose worker threads are still exiting (stop waits for them). */
  private readonly exiting = new Set<Promise<void>>()
  /**
   * A checked file held open but not served (fleet mode: the fleet has not made it current yet);
   * `promote` serves it the moment the fleet does.
   */
  standby: SnapshotHandle | null = null
  /** "Nothing is served" was logged (once until something serves). */
  private saidNothingServes = false
  private stopped = false
  private readonly options: SwapStateOptions
  /** The snapshots folder. */
  readonly dir: string
  /** The pipeline's ledger, read for a fallback. */
  private readonly ledger: string

  constructor(options: SwapStateOptions) {
    this.options = options
    this.dir = options.dir
    this.ledger = options.ledger ?? join(options.dir, "..", "ledger.sqlite")
  }

  start(): void {
    if (existsSync(this.dir)) {
      try {
        this.watcher = watch(this.dir, (_event, name) => {
          if (name === "CURRENT" || (name !== null && name === this.loaded?.file)) void this.refresh()
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
    loaded?.close()
    this.standby?.close()
    this.standby = null
    await Promise.all(this.exiting)
  }

  /**
   * Looks at CURRENT and the served file; resolves once what CURRENT names is served, refused or
   * given up for a newer file, and what follows is decided (a re-check, a fallback).
   */
  refresh(): Promise<void> {
    if (this.stopped) return decided
    const pointer = this.lookAtCurrent()
    this.lookAtServed()
    const file = pointer._tag === "Names" ? pointer.file : null
    const pending = this.pending
    if (pending !== null) {
      // an unreadable CURRENT (a hand edit under way) is no reason to give up a check
      const keep = pending.purpose === "current" ? file === null || file === pending.file : !this.takes(file)
      if (keep) return pending.done
      this.drop(pending, `CURRENT names ${file}`)
    }
    if (this.takes(file)) return this.check(file, "current")
    const loaded = this.loaded
    if (loaded !== null) return loaded.suspect === null ? decided : this.check(loaded.file, "recheck")
    // fleet mode: a file held ready waits for the fleet; no other file stands in for it (a fallback
    // would be held in its place, then CURRENT's file checked again, and so on)
    if (this.standby !== null) return decided
    return this.fallBack()
  }

  /** A read found the served file corrupt, or it changed on disk: it is checked again (once at a time). */
  suspect(loaded: SnapshotHandle, why: string): void {
    if (this.markSuspect(loaded, why)) void this.refresh()
  }

  /** Whether the file CURRENT names is one to check now: named, not served, not refused as it is. */
  private takes(file: string | null): file is string {
    return file !== null && file !== this.loaded?.file && file !== this.standby?.file && this.refusal(file) === null
  }

  /** Why `file` was refused, when it is still as it was then; null otherwise. */
  private refusal(file: string): string | null {
    const refused = this.refused.get(file)
    return refused !== undefined && refused.signature === fileSignature(this.dir, file) ? refused.reason : null
  }

  /** Reads CURRENT and sets or clears its faults. A missing CURRENT with nothing served is a fresh data folder, not a fault. */
  private lookAtCurrent(): CurrentPointer {
    const pointer = inspectCurrent(this.dir)
    this.pointer = pointer
    const serving = this.loaded?.file ?? null
    const problem = pointerProblem(pointer)
    if (problem === null || (pointer._tag === "Missing" && serving === null)) this.faults.clear("current")
    else this.faults.set("current", problem, { current: pointerText(pointer), serving })
    const refusal = pointer._tag === "Names" && pointer.file !== serving ? this.refusal(pointer.file) : null
    if (pointer._tag !== "Names" || refusal === null) this.faults.clear("refused")
    else this.faults.set("refused", "CURRENT names a snapshot the API refused", { file: pointer.file, serving, error: refusal })
    return pointer
  }

  /** Stats the served file: gone is a fault (the open file keeps serving); changed makes it suspect. */
  private lookAtServed(): void {
    const loaded = this.loaded
    if (loaded === null) {
      this.faults.clear("gone")
      return
    }
    const identity = fileIdentity(join(this.dir, loaded.file))
    if (identity === null) {
      this.faults.set("gone", "the served snapshot file is gone from disk: it serves from the open file, but a restart cannot serve it", {
        file: loaded.file,
      })
      return
    }
    this.faults.clear("gone")
    if (identity !== loaded.identity) this.markSuspect(loaded, "the file changed on disk since it was checked")
  }

  /** True when this made it suspect (it serves and was not suspect yet). */
  private markSuspect(loaded: SnapshotHandle, why: string): boolean {
    if (this.loaded !== loaded || loaded.suspect !== null || this.stopped) return false
    loaded.suspect = why
    this.verified.forget(loaded.file)
    this.faults.set("suspect", "the served snapshot changed on disk or failed a read; it is checked again", { file: loaded.file, why })
    return true
  }

  private check(file: string, purpose: Purpose): Promise<void> {
    log("info", "checking snapshot", { file, ...(purpose === "current" ? {} : { purpose }) })
    const signature = fileSignature(this.dir, file)
    const identity = fileIdentity(join(this.dir, file))
    const verification = verifyOffThread(this.dir, file)
    try {
      this.options.prepare?.()
    } catch (e) {
      // what the warm would start ahead is started by the warm itself then
      log("warn", "preparing the snapshot's warm-up failed", { file, error: String(e) })
    }
    const pending: PendingCheck = {
      file,
      purpose,
      signature,
      identity,
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
      return this.refuse(pending, verdict.reason)
    }
    // CURRENT moved before its watch event came in: look at what it names now instead
    if (this.preempted(pending)) {
      this.pending = null
      return this.refresh()
    }
    return this.swapIn(pending, verdict.snapshot)
  }

  /** CURRENT no longer names the file of a check of it, or names a file to check before a re-check or a fallback. */
  private preempted(pending: PendingCheck): boolean {
    const pointer = inspectCurrent(this.dir)
    const named = pointer._tag === "Names" ? pointer.file : null
    return pending.purpose === "current" ? named !== pending.file : this.takes(named)
  }

  /**
   * Opens the checked file, warms it (options.warm; the check stays pending meanwhile, so a
   * newer CURRENT or stop drops it), then swaps it in.
   */
  private async swapIn(pending: PendingCheck, verified: VerifiedSnapshot): Promise<void> {
    const { file } = pending
    let next: SnapshotHandle | null = null
    try {
      next = SnapshotHandle.open(this.dir, file, verified, pending.identity)
      const checkMillis = Math.round(performance.now() - pending.began)
      let warmMillis: number | undefined
      const warm = this.options.warm
      if (warm !== undefined) {
        const began = performance.now()
        const stillWanted = () => this.pending === pending && !this.stopped
        try {
          await warm(next, stillWanted)
          warmMillis = Math.round(performance.now() - began)
        } catch (e) {
          log("warn", "snapshot warm-up failed; swapping in all the same", { file, error: String(e) })
        }
        if (!stillWanted()) {
          next.close()
          return
        }
        // a read through a lease on it found it corrupt: it never serves, as a failed check
        if (next.damaged) throw new Error("a read found the file corrupt while it was warmed")
        // CURRENT moved during the warm-up and no refresh came to say so yet: what it names now goes first
        if (this.preempted(pending)) {
          next.close()
          this.pending = null
          return this.refresh()
        }
      }
      this.pending = null
      this.verified.remember(file, pending.identity, verified)
      const timing = {
        ...(pending.purpose === "current" ? {} : { purpose: pending.purpose }),
        check_ms: checkMillis,
        hash_ms: verified.hashMillis,
        ...(warmMillis === undefined ? {} : { warm_ms: warmMillis }),
      }
      const gate = this.options.gate
      if (gate !== undefined && pending.purpose !== "recheck" && !gate.admit(file)) {
        // fleet mode: held ready until the fleet makes it current (promote)
        const before = this.standby
        this.standby = next
        if (before !== null && before !== next) before.close()
        log("info", "snapshot checked and held ready for the fleet", { file, generation: next.generation, ...timing })
        gate.ready(file, { batchDate: verified.batchDate, contentHash: verified.contentHash })
        return
      }
      this.serve(next)
      this.options.events?.swapped((performance.now() - pending.began) / 1000)
      log("info", "snapshot swapped in", { file, generation: next.generation, ...timing })
      if (pending.purpose === "fallback") {
        log("warn", "serving the newest published snapshot that passes its checks instead of what CURRENT names", {
          current: pointerText(this.pointer),
          why: pointerProblem(this.pointer) ?? `it was refused: ${this.pointer._tag === "Names" ? this.refusal(this.pointer.file) : ""}`,
          serving: file,
        })
      }
      this.lookAtCurrent() // its faults now name what serves
    } catch (e) {
      if (this.pending === pending) this.pending = null
      next?.close()
      return this.refuse(pending, String(e))
    }
  }

  /** Serves `next` from now on; the file served before is retired (its leases finish on it). */
  private serve(next: SnapshotHandle): void {
    const previous = this.loaded
    this.loaded = next
    this.saidNothingServes = false
    this.faults.clear("suspect")
    if (previous !== null && previous !== next) previous.retire(this.options.drainMillis)
  }

  /**
   * Fleet mode: serves the file held ready when it is `file` (the fleet made it current). True
   * when `file` serves now; false when it is not held ready here.
   */
  promote(file: string): boolean {
    if (this.loaded?.file === file) return true
    const standby = this.standby
    if (standby === null || standby.file !== file || this.stopped) return false
    this.standby = null
    const began = performance.now()
    this.serve(standby)
    this.options.events?.swapped((performance.now() - began) / 1000)
    log("info", "snapshot swapped in", { file, generation: standby.generation, purpose: "fleet" })
    this.lookAtCurrent()
    return true
  }

  /** Records the refusal and logs it truthfully; a served file that failed its re-check stops serving. Then looks again. */
  private refuse(pending: PendingCheck, error: string): Promise<void> {
    this.refused.set(pending.file, { signature: pending.signature, reason: error })
    this.options.events?.checkFailed()
    this.verified.forget(pending.file)
    const loaded = this.loaded
    if (pending.purpose === "recheck" && loaded !== null && loaded.file === pending.file) {
      this.loaded = null
      loaded.retire(this.options.drainMillis)
      this.faults.clear("suspect")
      this.faults.clear("gone")
      log("error", "the served snapshot failed its check again and no longer serves", { file: pending.file, error })
    } else {
      log("error", loaded === null ? "snapshot refused; nothing is served" : "snapshot refused; the snapshot served keeps serving", {
        file: pending.file,
        serving: loaded?.file ?? null,
        error,
      })
    }
    return this.refresh()
  }

  /**
   * Nothing serves and CURRENT gives nothing that passes: checks the file that stands in for it
   * (Fallback.ts). Without one, says once that nothing is served (at info level for a fresh data
   * folder: no CURRENT, nothing in the ledger).
   */
  private fallBack(): Promise<void> {
    const choice = chooseFallback(this.ledger, this.dir, (file) => this.refusal(file) !== null)
    if (choice._tag === "Candidate") return this.check(choice.file, "fallback")
    if (this.saidNothingServes) return decided
    this.saidNothingServes = true
    if (this.pointer._tag === "Missing" && choice.published === 0) log("info", "nothing is published yet", {})
    else {
      log("error", "nothing is served: CURRENT names no snapshot that passes its checks, and no other published one does", {
        current: pointerText(this.pointer),
        why: pointerProblem(this.pointer) ?? this.refusal(this.pointer._tag === "Names" ? this.pointer.file : ""),
        ...(choice.ledgerError === null ? { published: choice.published } : { ledger_error: choice.ledgerError }),
      })
    }
    return decided
  }

  /**
   * Gives up a check (its file is not refused: it may be named again) and ends its worker; a
   * warm-up under way sees it is no longer wanted and closes its file (stop waits for both).
   */
  private drop(pending: PendingCheck, why: string): void {
    this.pending = null
    log("info", "snapshot check abandoned", { file: pending.file, why })
    for (const ended of [pending.verification.cancel(), pending.done]) {
      this.exiting.add(ended)
      void ended.finally(() => this.exiting.delete(ended))
    }
  }
}

const mtime = (path: string): string => String(statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? "none")
const fileSignature = (dir: string, file: string): string =>
  [join(dir, "CURRENT"), join(dir, file), manifestPath(dir, file)].map(mtime).join("|")
