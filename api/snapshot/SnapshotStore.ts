/**
 * Holds the published snapshot and swaps to a new one atomically.
 *
 * It watches data/snapshots/CURRENT (fs.watch, plus a poll as fallback). A new file is checked
 * (its manifest names it and its hash, row counts agree, PRAGMA quick_check) in a worker thread,
 * while the old one keeps serving, and only then opened here and swapped in; a file that fails is
 * refused and the old one keeps serving. When CURRENT moves during a check, the check is dropped
 * for the newer file: an older file never swaps in after a newer one. Each request takes a lease
 * on the snapshot that was current when it began; a retired snapshot is closed when its last lease
 * ends, or at the end of a drain window. A read through a lease whose snapshot was closed fails
 * with 503 and Retry-After: no response ever mixes two batches.
 *
 * A read that finds the served file corrupt (SQLITE_CORRUPT, SQLITE_NOTADB) fails with 503 and
 * Retry-After too, and has the file checked again (every read of it answers 503 until the check
 * decides); so does a "not found" from a file that changed on disk since its check
 * (`Lease.intact`, asked by the PinSnapshot middleware, Pinned.ts): a damaged page may hide a
 * row, and an id that exists must not be answered 404. When nothing serves, the newest published snapshot that passes
 * its checks stands in for CURRENT (see SwapState).
 *
 * A request may name another published batch (`?batch=`, api/snapshot/Pinned.ts): `leaseBatch`
 * pins it from the past snapshots (PastSnapshots.ts: a bounded cache of their own handles), which
 * never touch what this store serves or its swaps. Both kinds are the same SnapshotHandle
 * (SnapshotHandle.ts), leased the same way; only what a failed read answers differs. The published batches are the
 * ledger's (snapshots/PublishedHistory.ts).
 */

import { existsSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer, Schema, type Scope } from "effect"
import { BatchNotRetained, NotFound, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { type LedgerView, type PublishedBatch, PublishedLedger, publishedBatches } from "../../snapshots/PublishedHistory.ts"
import { numberSetting } from "../system/Settings.ts"
import { FleetMember, type FleetSettings } from "./FleetMember.ts"
import { batchNotRetained, type PastProblem, type PastSnapshot, PastSnapshots, pastLease } from "./PastSnapshots.ts"
import { type Lease, type LeaseKeeper, type SnapshotHandle, snapshotChanged, snapshotDamaged } from "./SnapshotHandle.ts"
import { log } from "./StoreFaults.ts"
import { SwapState, type SwapStateOptions } from "./SwapState.ts"

// what the store's users see of a snapshot, from the modules that own it
export type { Lease, SnapshotHandle, WarmSnapshot } from "./SnapshotHandle.ts"
export { snapshotDamaged } from "./SnapshotHandle.ts"
export type { SnapshotEvents } from "./SwapState.ts"

/** Nothing is published yet (or nothing valid). */
export class SnapshotMissing extends Schema.TaggedError<SnapshotMissing>()("SnapshotMissing", {}) {}

/** The swap's options (SwapState.ts) and what `?batch=` and the fleet need; the store passes the gate itself. */
export interface SnapshotStoreOptions extends Omit<SwapStateOptions, "gate"> {
  /** How many past batches `?batch=` keeps open at most; default FDS_PAST_BATCHES_OPEN (4). */
  readonly pastBatchesOpen?: number
  /** The fleet's settings (FDS_ACCOUNTS_URL set): the current batch is the fleet's (FleetMember.ts). */
  readonly fleet?: FleetSettings | null
  /** How long the store waits at start for the fleet's current batch before the API binds (default 10 s). */
  readonly fleetSettleMillis?: number
}

export class SnapshotStore extends Context.Service<
  SnapshotStore,
  {
    /** Pins the current snapshot for the scope (the request). */
    readonly lease: Effect.Effect<Lease, SnapshotMissing, import("effect").Scope.Scope>
    readonly current: () => SnapshotHandle | null
    /** What is wrong with CURRENT, the served file or the ledger (for /health: degraded while any). */
    readonly faults: () => ReadonlyArray<string>
    /** Looks at CURRENT now and swaps when it names another valid file; ends once that is decided. */
    readonly refresh: Effect.Effect<void>
    /**
     * Pins the batch a request names (`?batch=`) for the scope: the current lease when it is the
     * current batch, else its past snapshot (PastSnapshots.ts). 404 when the ledger never published
     * it, 410 when retention removed its file, 503 when it cannot be served now or the ledger
     * cannot be read (ledger_unavailable, whichever batch it names).
     */
    readonly leaseBatch: (batchId: string) => Effect.Effect<Lease, NotFound | BatchNotRetained | ServiceUnavailable, Scope.Scope>
    /** A published batch by id (fleet mode: also one this folder published that the fleet has not made current yet); null when none. */
    readonly lookup: (batchId: string) => Effect.Effect<PublishedBatch | null, ServiceUnavailable>
    /** The published batches, newest first, from the ledger (none without one); 503 when it cannot be read. */
    readonly published: Effect.Effect<ReadonlyArray<PublishedBatch>, ServiceUnavailable>
    /** Why the ledger cannot be read now, or null (two stats while it is unchanged; for readiness). */
    readonly ledgerError: () => string | null
    /** The snapshots folder (the files and their manifests). */
    readonly dir: string
    /** The past snapshot files open now (at most FDS_PAST_BATCHES_OPEN). */
    readonly pastOpen: () => ReadonlyArray<string>
    /**
     * Whether a published batch can be read here: its file is in the folder, or (fleet mode) a
     * live member holds it and this replica's follower brings it in (`batch_fetching` meanwhile).
     */
    readonly retained: (file: string) => boolean
    /** Fleet mode: why this process cannot serve the fleet's current batch now; null when it can (or out of fleet mode). */
    readonly fleetProblem: () => string | null
    /** Fleet mode: the fleet's current batch as this process knows it (null out of fleet mode). */
    readonly fleetCurrent: () => { readonly seq: number; readonly batchId: string } | null
  }
>()("fds/api/SnapshotStore") {
  static readonly layer = (options: SnapshotStoreOptions) =>
    Layer.effect(
      SnapshotStore,
      Effect.gen(function* () {
        const maxOpen = options.pastBatchesOpen ?? (yield* pastBatchesOpen)
        const member = options.fleet == null ? null : new FleetMember(options.fleet)
        const state = new SwapState(member === null ? options : { ...options, gate: member })
        member?.attach({ promote: (file) => state.promote(file), served: () => state.loaded?.file ?? null, dir: options.dir })
        const ledger = new PublishedLedger(options.ledger ?? join(options.dir, "..", "ledger.sqlite"))
        const past = new PastSnapshots({ dir: options.dir, maxOpen, verified: state.verified })
        // stop() ends a check under way and waits for its worker thread to exit
        yield* Effect.acquireRelease(
          Effect.sync(() => state.start()),
          () => Effect.promise(() => Promise.all([member?.stop(), state.stop(), past.stop()])),
        )
        // the fleet is joined in the background (an unreachable PostgreSQL is retried, readiness says
        // so meanwhile); the port is bound once this process serves the fleet's batch, or after 10 s
        if (member !== null) {
          void member.start()
          yield* Effect.promise(() => member.settle(options.fleetSettleMillis ?? 10_000))
        }
        // the snapshot CURRENT names is checked before the API serves
        yield* Effect.promise(() => state.refresh())
        // the current snapshot's leases: a closed one was retired by a swap, a doubtful one is checked again
        const keeper: LeaseKeeper = {
          dir: options.dir,
          closed: snapshotChanged,
          damaged: snapshotDamaged,
          doubted: (handle) => handle.suspect !== null,
          suspect: (handle, why) => state.suspect(handle, why),
        }
        const lease = Effect.acquireRelease(
          Effect.suspend(() => {
            const loaded = state.loaded
            if (loaded === null || (member !== null && member.problem() !== null)) return Effect.fail(new SnapshotMissing())
            return Effect.succeed(loaded.acquire())
          }),
          (loaded) => Effect.sync(() => loaded.release()),
        ).pipe(Effect.map((loaded): Lease => loaded.lease(keeper)))
        // Fleet mode: the published batches are the fleet's decisions (the same on every member),
        // with what this folder's ledger adds (the build's time, version and inputs, on the primary)
        let fleetView: { readonly from: unknown; readonly local: LedgerView; readonly held: string | undefined; readonly view: LedgerView } | null =
          null
        const view = (): LedgerView => {
          const local = ledger.view()
          if (member === null) return local
          const history = member.fleetHistory()
          if (history === null) return { batches: [], byFile: new Map(), error: "the fleet's history cannot be read yet (its PostgreSQL was not reached)" }
          if (fleetView !== null && fleetView.from === history && fleetView.local === local && fleetView.held === state.standby?.file) {
            return fleetView.view
          }
          const batches = publishedBatches(history.rows).map((b) => {
            const built = local.byFile.get(b.file)
            return built === undefined ? b : { ...b, builtAt: built.builtAt, pipelineVersion: built.pipelineVersion, inputCount: built.inputCount }
          })
          // the batch this member holds ready that the fleet has not made current yet (the primary's
          // proposal) is not listed, but can be looked up: followers fetch its manifest and file;
          // no other batch of this folder's own ledger is the fleet's
          const held = state.standby?.file
          const byFile = new Map<string, PublishedBatch>(local.batches.filter((b) => b.file === held).map((b) => [b.file, b]))
          for (const b of batches) byFile.set(b.file, b)
          fleetView = { from: history, local, held, view: { batches, byFile, error: null } }
          return fleetView.view
        }
        const heldByFleet = (file: string) => member?.fleetHistory()?.held.has(file.replace(/\.sqlite$/, "")) === true
        const published = Effect.suspend(() => {
          const now = view()
          return now.error === null ? Effect.succeed(now.batches) : Effect.fail(ledgerUnavailable(now.error))
        })
        const leaseBatch = (batchId: string) =>
          Effect.gen(function* () {
            const file = `${batchId}.sqlite`
            // an unreadable ledger (or the fleet's history, not read yet) cannot say which batches were
            // published: never a 404, even for the current one
            const now = view()
            if (now.error !== null) return yield* ledgerUnavailable(now.error)
            if (state.loaded?.file === file) {
              const current = yield* Effect.catchTag(lease, "SnapshotMissing", () => Effect.succeed(null))
              // a swap between the look and the lease: the batch is a past one now
              if (current?.file === file) return current
            }
            const batch = now.byFile.get(file)
            if (batch === undefined) {
              return yield* new NotFound({ message: `no batch ${batchId} was published (GET /api/batches lists them)`, parameter: "batch" })
            }
            if (!existsSync(join(options.dir, file))) return yield* heldByFleet(file) ? batchFetching(batchId) : batchNotRetained(batch)
            const entry = yield* Effect.acquireRelease(
              Effect.promise(() => past.acquire(batch)),
              (got) => Effect.sync(() => (isProblem(got) ? undefined : past.release(got))),
            )
            if (isProblem(entry)) return yield* entry
            return pastLease(entry, past, options.dir)
          })
        return SnapshotStore.of({
          lease,
          current: () => state.loaded,
          // an unreadable ledger is a fault /health reports: the batches' routes and `?batch=` answer 503
          faults: () => (ledger.view().error === null ? state.faults.causes() : [...state.faults.causes(), LEDGER_FAULT]),
          refresh: Effect.promise(() => state.refresh()),
          leaseBatch,
          published,
          ledgerError: () => ledger.view().error,
          dir: options.dir,
          pastOpen: () => past.openFiles(),
          lookup: (batchId) =>
            Effect.suspend(() => {
              const now = view()
              return now.error === null ? Effect.succeed(now.byFile.get(`${batchId}.sqlite`) ?? null) : Effect.fail(ledgerUnavailable(now.error))
            }),
          retained: (file) => existsSync(join(options.dir, file)) || heldByFleet(file),
          fleetProblem: () => member?.problem() ?? null,
          fleetCurrent: () => member?.current() ?? null,
        })
      }),
    )
}

/** FDS_PAST_BATCHES_OPEN: a whole number from 1 to 64; a bad value stops the server at start, naming it. */
const pastBatchesOpen = numberSetting("FDS_PAST_BATCHES_OPEN")

const isProblem = (x: PastSnapshot | PastProblem): x is PastProblem => x instanceof ServiceUnavailable || x instanceof BatchNotRetained

/** /health's reason while the ledger cannot be read (no server path: /health is public). */
export const LEDGER_FAULT =
  "the pipeline's ledger cannot be read: /api/batches, /api/batches/{batch_id}, ?batch= reads and /api/changes answer 503 ledger_unavailable"

const ledgerUnavailable = (error: string) => {
  log("error", "the ledger could not be read for the published batches", { error })
  return new ServiceUnavailable({ reason: "ledger_unavailable", message: "the list of published batches cannot be read now; retry later", retryAfter: 30 })
}

/** Fleet mode: a batch the fleet retains that this replica's follower has not brought in yet. */
export const batchFetching = (batchId: string) =>
  new ServiceUnavailable({
    reason: "batch_fetching",
    message: `batch ${batchId} is retained by the fleet and is being brought to this replica; retry shortly`,
    retryAfter: 5,
  })
