/**
 * One batch, top to bottom: collect → plan → load → decide → stage → compute → write → publish.
 * Each phase is an `Effect.fn` with a log span (run/Phases.ts; stage, compute and write in
 * Build.ts, shared with `pipeline reproduce`), handed what the phase before it gave. A phase may end
 * the batch early: a date in the future, inputs that make no batch or a batch already served
 * (unchanged), or a rejection, recorded in the ledger (a BatchRejected event) with CURRENT left
 * as it is and the raw files stored.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { type BuildFailed, computeBatch, type StagedBatchRefused, stageBatch, writeBatch } from "../Build.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { type Held, refuseFutureDate } from "../Plan.ts"
import type { RawStore } from "../RawStore.ts"
import { paths, type RunOptions } from "../RunOptions.ts"
import type { CmfFileInvalid } from "../cmf/CmfFileInvalid.ts"
import type { ParsedCache } from "../ParsedCache.ts"
import { BatchRejectedError, type RunOutcome } from "./Outcome.ts"
import { collect, decide, load, planBatch, type Reject, refusing, publish, signingKey } from "./Phases.ts"

export const runBatch = Effect.fn("batch")(function* (options: RunOptions): Effect.fn.Return<RunOutcome, BatchRejectedError, Ledger | RawStore | ParsedCache> {
  const { snapshots } = paths(options.dataDir)
  mkdirSync(snapshots, { recursive: true })
  sweepTemporaryFiles(snapshots)
  const ledger = yield* Ledger
  const reject: Reject = (reason, batchDate = null, kind = "content") =>
    Effect.sync(() =>
      ledger.append({ type: "BatchRejected", payload: { batch_date: batchDate, reason, inputs: ledger.currentInputs().map((i) => i.sha256) } }),
    ).pipe(Effect.andThen(Effect.fail(new BatchRejectedError({ reason, kind, batchDate }))))
  /** A decision other than publishing, carried out: a rejection recorded, or the served batch left as it is. */
  const carryOut = (decision: Held, report: Pick<RunOutcome, "sources" | "waiting">): Effect.Effect<RunOutcome, BatchRejectedError> =>
    decision.kind === "reject"
      ? reject(decision.reason, decision.batchDate)
      : Effect.succeed({
          ...report,
          outcome: "unchanged",
          batchDate: decision.batchDate,
          file: decision.file,
          ...(decision.note === undefined ? {} : { note: decision.note }),
        } satisfies RunOutcome)

  // A date in the future is refused before anything is fetched.
  const future = refuseFutureDate(options.date, options.today)
  if (future !== null) return yield* carryOut(future, { sources: null, waiting: [] })

  const { inputs, waiting } = yield* collect(options, reject)
  const planned = yield* planBatch(options, inputs, snapshots)
  if (planned.kind !== "proceed") return yield* carryOut(planned, { sources: null, waiting })

  const { loaded, cache, sources } = yield* load(options, inputs, waiting, reject)
  const { decision, served, gate } = yield* decide(options, inputs, loaded, snapshots)
  if (decision.kind !== "publish") return yield* carryOut(decision, { sources, waiting })
  const { batchDate } = decision
  // a signing key that cannot be used stops the run here, before the build
  const key = yield* signingKey(snapshots)
  const previous = served === null || options.increment === false ? null : { dir: snapshots, file: served.file }
  /** A build phase's failure as a rejection: a refused staged batch or file (content), or a failed write (build). */
  const refused = <A, R>(phase: Effect.Effect<A, BuildFailed | CmfFileInvalid | StagedBatchRefused, R>): Effect.Effect<A, BatchRejectedError, R> =>
    phase.pipe(
      Effect.catchTags({
        StagedBatchRefused: (e) => reject(e.reason, batchDate),
        CmfFileInvalid: (e) => reject(refusing(inputs, e), batchDate),
        BuildFailed: (e) => reject(e.reason, batchDate, "build"),
      }),
    )

  const staging = yield* refused(stageBatch(snapshots, inputs, loaded, batchDate, gate, previous, cache))
  const computed = yield* refused(computeBatch(staging))
  const finished = yield* refused(writeBatch(staging, computed, inputs, loaded, previous))
  yield* publish(snapshots, inputs, batchDate, finished, options.retentionDays ?? 14, key)
  return {
    sources,
    waiting,
    outcome: "published",
    batchDate,
    file: finished.file,
    contentHash: finished.contentHash,
    rowCounts: finished.rowCounts,
    fiUnavailable: loaded.fiUnavailable,
  } satisfies RunOutcome
})

/** Build leftovers of a crashed run: temporary databases and the files SQLite kept beside them. */
const TEMPORARY = /\.tmp(?:-wal|-shm|-journal)?$/u

/** Removes build leftovers of a crashed run (never a published file). */
const sweepTemporaryFiles = (dir: string): void => {
  // recursive: a Parquet folder being written is `<batch>.parquet.<pid>.tmp` (snapshots/parquet/)
  for (const name of readdirSync(dir)) if (TEMPORARY.test(name)) rmSync(join(dir, name), { recursive: true, force: true })
}
