/**
 * The daily batch run on its stores (run/Batch.ts has the batch itself, phase by phase), with
 * STATUS.json written when it starts and when it ends. Anything wrong rejects the whole batch: a BatchRejected event is
 * appended, CURRENT is not touched, the raw files stay stored. Running the same inputs again
 * appends nothing and publishes nothing new, and neither does a run after an explicit rollback
 * until new files arrive (pipeline/Rollback.ts). Every run that ends writes STATUS.json.
 */

import { existsSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { Clock, Effect, Exit, Layer } from "effect"
import { readCurrent } from "../snapshots/Pointer.ts"
import { thisRunProcess } from "../snapshots/RunLiveness.ts"
import { killedStatus, type PipelineStatus, readStatus, readStatusFile, STATUS, writeStatus } from "../snapshots/Status.ts"
import { failureText } from "./Failure.ts"
import { Ledger } from "./ledger/Ledger.ts"
import { offloadLayer } from "./offload/Offload.ts"
import { RawStore } from "./RawStore.ts"
import { paths, type RunOptions } from "./RunOptions.ts"
import { runBatch } from "./run/Batch.ts"
import type { BatchRejectedError, RunOutcome } from "./run/Outcome.ts"
import { ParsedCache } from "./ParsedCache.ts"
import { PIPELINE_VERSION } from "./Version.ts"

/** What a run keeps besides the snapshots: the ledger, the raw files and the parse cache. */
export type RunStores = Ledger | RawStore | ParsedCache

/** The stores in the data folder (created when missing): ledger.sqlite, raw/ and cache/. */
export const dataFolderStores = (dataDir: string): Layer.Layer<RunStores> =>
  Layer.unwrap(
    Effect.sync(() => {
      mkdirSync(dataDir, { recursive: true })
      const p = paths(dataDir)
      return Layer.mergeAll(Ledger.layer(p.ledger), RawStore.layer(p.raw), ParsedCache.layer(dataDir))
    }),
  )

/** Empty stores in memory, gone with the layer: a run that keeps nothing but its snapshot and STATUS.json (tests). */
export const memoryStores: Layer.Layer<RunStores> = Layer.mergeAll(Ledger.layerMemory, RawStore.layerMemory, ParsedCache.layerMemory)

/** One batch on the stores of the context; every run that ends writes STATUS.json. */
export const runPipeline = (options: RunOptions): Effect.Effect<RunOutcome, BatchRejectedError, RunStores> =>
  recordingStatus(options.dataDir, runBatch(options))

/**
 * One batch on the data folder's stores, as `pipeline run` and the daemon run it. A store that
 * cannot be opened (a damaged ledger) fails the run in STATUS.json like any other failure.
 */
export const runPipelineLive = (options: RunOptions): Effect.Effect<RunOutcome, BatchRejectedError> =>
  recordingStatus(options.dataDir, runBatch(options).pipe(Effect.provide(Layer.mergeAll(dataFolderStores(options.dataDir), offloadLayer))))

/**
 * Marks the run `running` in STATUS.json (with its process) before it does any work, and writes
 * its outcome when it ends. A `running` status left by a run that died (the next run holds its
 * lock now) is reported: written as `killed` first, and said on stderr.
 */
const recordingStatus = <R>(dataDir: string, run: Effect.Effect<RunOutcome, BatchRejectedError, R>): Effect.Effect<RunOutcome, BatchRejectedError, R> =>
  Effect.gen(function* () {
    const startedAt = yield* Clock.currentTimeMillis
    const marked = markRunning(paths(dataDir).snapshots, startedAt)
    // A full disk may refuse the status; the run goes on (its end says what it did).
    if (typeof marked === "string") yield* Effect.logError("STATUS.json not written").pipe(Effect.annotateLogs({ error: marked }))
    const previous = typeof marked === "string" ? null : marked
    return yield* run.pipe(Effect.onExit((exit) => recordStatus(dataDir, startedAt, exit, previous)))
  })

/** Writes `running`; returns the status it replaced (a dead run's written as `killed`; null: none), or the error when it wrote nothing. */
const markRunning = (dir: string, startedAt: number): { readonly found: PipelineStatus | null } | string => {
  try {
    mkdirSync(dir, { recursive: true })
    let previous = readStatus(dir)
    if (previous?.outcome === "running") previous = killedStatus(previous) // this run holds the lock: that one is gone
    if (previous?.outcome === "killed" && readStatusFile(dir)?.outcome === "running") {
      writeStatus(dir, previous)
      console.error(`fds: warning: the previous pipeline run was killed: ${previous.reason}`)
    }
    writeStatus(dir, {
      outcome: "running",
      batch_date: previous?.batch_date ?? null,
      file: readCurrent(dir),
      reason: null,
      started_at: new Date(startedAt).toISOString(),
      finished_at: null,
      pipeline_version: PIPELINE_VERSION,
      process: thisRunProcess(),
      ...(previous?.sources === undefined ? {} : { sources: previous.sources }),
    })
    return { found: previous }
  } catch (e) {
    return String(e)
  }
}

/** What STATUS.json and the command line say of a batch published without its FI/ETF part. */
export const withoutFi = (reason: string): string =>
  `published without its FI/ETF part (the /api/fi routes and vehicle=etf|investment_fund answer 503 fi_unavailable; /health is degraded): ${reason}`

/**
 * Writes STATUS.json for /health; a run that was interrupted (daemon stopped) changed nothing and
 * puts back the status it found.
 */
const recordStatus = (
  dataDir: string,
  startedAt: number,
  exit: Exit.Exit<RunOutcome, BatchRejectedError>,
  marked: { readonly found: PipelineStatus | null } | null,
) =>
  Effect.gen(function* () {
    const dir = paths(dataDir).snapshots
    if (Exit.hasInterrupts(exit)) {
      if (marked === null) return // `running` was not written: nothing to take back
      try {
        if (marked.found !== null) writeStatus(dir, marked.found)
        else rmSync(join(dir, STATUS), { force: true })
      } catch (e) {
        yield* Effect.logError("STATUS.json not written").pipe(Effect.annotateLogs({ error: String(e) }))
      }
      return
    }
    const finishedAt = yield* Clock.currentTimeMillis
    const error = Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Fail")?.error : undefined
    const times = { started_at: new Date(startedAt).toISOString(), finished_at: new Date(finishedAt).toISOString(), pipeline_version: PIPELINE_VERSION }
    const current = existsSync(dir) ? readCurrent(dir) : null
    // A run that did not read its inputs (held, rejected, failed) keeps the last report of their freshness.
    const previous = existsSync(dir) ? readStatus(dir)?.sources : undefined
    try {
      if (Exit.isSuccess(exit)) {
        const r = exit.value
        const reason = r.outcome === "unchanged" ? (r.note ?? null) : r.fiUnavailable === null ? null : withoutFi(r.fiUnavailable)
        const sources = r.sources ?? previous
        writeStatus(dir, { outcome: r.outcome, batch_date: r.batchDate, file: r.file, reason, ...times, ...(sources === undefined ? {} : { sources }) })
      } else if (error !== undefined) {
        writeStatus(dir, {
          outcome: error.kind === "content" ? "rejected" : "failed",
          batch_date: error.batchDate,
          file: current,
          reason: error.reason,
          ...times,
          ...(previous === undefined ? {} : { sources: previous }),
        })
      } else {
        writeStatus(dir, {
          outcome: "failed",
          batch_date: null,
          file: current,
          reason: failureText(exit.cause).slice(0, 2000),
          ...times,
          ...(previous === undefined ? {} : { sources: previous }),
        })
      }
    } catch (e) {
      // A full disk may refuse the status too; the run's own outcome must still come through.
      yield* Effect.logError("STATUS.json not written").pipe(Effect.annotateLogs({ error: String(e) }))
    }
  })
