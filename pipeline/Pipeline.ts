/**
 * The daily batch: collect raw files → fold the ledger into the batch's inputs → parse → stage →
 * write the snapshot → publish. Anything wrong rejects the whole batch: a BatchRejected event is
 * appended, CURRENT is not touched, the raw files stay stored. Running the same inputs again
 * appends nothing and publishes nothing new, and neither does a run after an explicit rollback
 * until new files arrive (pipeline/Rollback.ts). Every run that ends writes STATUS.json.
 */

import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Clock, Effect, Exit, Layer, Schema } from "effect"
import { dateToInt, intToDate } from "../schemas/Dates.ts"
import { publishCurrent, readCurrent } from "../snapshots/Pointer.ts"
import { applyRetention } from "../snapshots/Retention.ts"
import { thisRunProcess } from "../snapshots/RunLiveness.ts"
import { killedStatus, type PipelineStatus, readStatus, readStatusFile, type SourceReport, STATUS, writeStatus } from "../snapshots/Status.ts"
import { buildSnapshot, loadInputs } from "./Build.ts"
import { collectFolder, collectHttp, type WaitingDataSet } from "./Collect.ts"
import { failureText } from "./Failure.ts"
import { FolderMemo } from "./FolderMemo.ts"
import type { LoadedInputs } from "./LoadedInputs.ts"
import { Ledger, type RawFileObserved } from "./ledger/Ledger.ts"
import { currentOffload, offloadLayer } from "./offload/Offload.ts"
import { type ActiveSeries, coverageGate, type Held, plan, planInputs, refuseFutureDate } from "./Plan.ts"
import { RawStore } from "./RawStore.ts"
import { rollbackHold } from "./Rollback.ts"
import type { RunOptions } from "./RunOptions.ts"
import type { StagedBatch } from "./Stage.ts"
import type { CmfFileInvalid } from "./sources/CmfFileInvalid.ts"
import { ADAPTERS } from "./sources/Sources.ts"
import { parseAhead } from "./staging/ParseAhead.ts"
import { ParsedCache } from "./staging/ParsedCache.ts"
import { PIPELINE_VERSION } from "./Version.ts"


/** A URL's user and password (`https://ops:secret@host/`) hidden wherever a message quotes it. */
const withoutUserInfo = (text: string): string => text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/giu, "$1***@")

/** SHA-256 of zero bytes: an empty file is said to be empty, not of an unknown kind. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/** What every successful run reports beside its outcome: each data set's freshness, and what waits for a drop. */
interface RunReport {
  /** Null when the run did not read its inputs (held by a rollback): STATUS.json keeps the last report. */
  readonly sources: ReadonlyArray<SourceReport> | null
  /** Data sets not fetched unattended this run, and why (said once per run). */
  readonly waiting: ReadonlyArray<WaitingDataSet>
}

export type RunOutcome = RunReport &
  (
  | {
      readonly outcome: "published"
      readonly batchDate: string
      readonly file: string
      readonly contentHash: string
      readonly rowCounts: Record<string, number>
      /** Why the batch went out without its FI/ETF part (those routes answer 503), or null. */
      readonly fiUnavailable: string | null
    }
  | { readonly outcome: "unchanged"; readonly batchDate: string; readonly file: string; readonly note?: string }
  )

/** The batch was refused; CURRENT still names the previous snapshot. */
export class BatchRejectedError extends Schema.TaggedError<BatchRejectedError>()("BatchRejectedError", {
  reason: Schema.String,
  /** content: the inputs were refused; source: the CMF could not be read (a retry may help); build: writing failed (disk). */
  kind: Schema.Literals(["content", "source", "build"]),
  batchDate: Schema.NullOr(Schema.String),
}) {}

export const paths = (dataDir: string) => ({
  raw: join(dataDir, "raw"),
  ledger: join(dataDir, "ledger.sqlite"),
  snapshots: join(dataDir, "snapshots"),
})

/** Build leftovers of a crashed run: temporary databases and the files SQLite kept beside them. */
const TEMPORARY = /\.tmp(?:-wal|-shm|-journal)?$/u

/** Removes build leftovers of a crashed run (never a published file). */
const sweepTemporaryFiles = (dir: string): void => {
  if (!existsSync(dir)) return
  for (const name of readdirSync(dir)) if (TEMPORARY.test(name)) rmSync(join(dir, name), { force: true })
}

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

const runBatch = (options: RunOptions): Effect.Effect<RunOutcome, BatchRejectedError, RunStores> =>
  Effect.gen(function* () {
    const p = paths(options.dataDir)
    mkdirSync(p.snapshots, { recursive: true })
    sweepTemporaryFiles(p.snapshots)
    const raw = yield* RawStore
    const ledger = yield* Ledger
    const reject = (reason: string, batchDate: string | null = null, kind: BatchRejectedError["kind"] = "content") =>
      Effect.sync(() =>
        ledger.append({
          type: "BatchRejected",
          payload: { batch_date: batchDate, reason, inputs: ledger.currentInputs().map((i) => i.sha256) },
        }),
      ).pipe(Effect.andThen(Effect.fail(new BatchRejectedError({ reason, kind, batchDate }))))
    const waiting: WaitingDataSet[] = []
    let sources: ReadonlyArray<SourceReport> | null = null
    /** A decision other than publishing, carried out: a rejection recorded, or the served batch left as it is. */
    const carryOut = (decision: Held): Effect.Effect<RunOutcome, BatchRejectedError> =>
      decision.kind === "reject"
        ? reject(decision.reason, decision.batchDate)
        : Effect.succeed({
            sources,
            waiting,
            outcome: "unchanged",
            batchDate: decision.batchDate,
            file: decision.file,
            ...(decision.note === undefined ? {} : { note: decision.note }),
          } satisfies RunOutcome)

    // A date in the future is refused before anything is fetched.
    const future = refuseFutureDate(options.date, options.today)
    if (future !== null) return yield* carryOut(future)

    const collectStart = performance.now()
    for (const source of options.sources) {
      const collected =
        source.kind === "folder"
          ? collectFolder(ledger, raw, source.path, new FolderMemo(join(options.dataDir, "cache", "folder-v1.json")))
          : collectHttp(ledger, raw, {
              baseUrl: source.baseUrl,
              historyStart: options.historyStart,
              until: options.date ?? options.today,
              fetch: options.fetch,
              portfolioMonths: options.portfolioMonths ?? 12,
              captcha: options.captcha ?? null,
              indicators: options.indicators ?? null,
              bprDays: options.bprDays ?? 10,
            })
      const result = yield* collected.pipe(
        Effect.catchTags({
          UnrecognizedFile: (e) =>
            reject(
              e.sha256 === ""
                ? `source folder ${e.file} does not exist`
                : `${e.file} ${e.sha256 === EMPTY_SHA256 ? "is empty" : (e.detail ?? "matches no CMF data set we read")} (stored as raw ${e.sha256.slice(0, 12)}); ` +
                  "remove it from the source, or give it the name and header of a CMF file (README, \"Formats we parse\")",
            ),
          CmfSourceError: (e) => reject(withoutUserInfo(`CMF source ${e.url}: ${e.message}`), options.date ?? null, "source"),
        }),
      )
      waiting.push(...result.waiting)
    }

    const inputs = ledger.currentInputs()
    yield* Effect.log("collected").pipe(Effect.annotateLogs({ stage: "collected", collect_ms: Math.round(performance.now() - collectStart), inputs: inputs.length }))
    const before = planInputs({
      date: options.date,
      today: options.today,
      dataSets: inputs.map((i) => i.data_set),
      required: ADAPTERS.filter((a) => a.part === "core" && a.required !== undefined).map((a) => ({ dataSet: a.name, missing: a.required! })),
      dailyValues: ADAPTERS.filter((a) => a.dailyValues === true).map((a) => a.name),
      hold: rollbackHold(ledger, p.snapshots),
    })
    if (before.kind !== "proceed") return yield* carryOut(before)

    // A refused file stays an input until a file with the same key replaces it, or it is
    // withdrawn: the message says which, with the raw file's hash. A file whose content gave no
    // key (keyed by its own hash) is never replaced by a corrected one.
    const refusing = (e: CmfFileInvalid): string => {
      const input = inputs.find((i) => i.name === e.file)
      if (input === undefined) return e.message
      const sha = input.sha256.slice(0, 12)
      const withdraw = `\`./fds pipeline withdraw --sha ${sha}\` takes it out of the inputs`
      return input.key === input.sha256
        ? `${e.message} (raw ${sha}: its content gives no key, so no corrected file replaces it; ${withdraw})`
        : `${e.message} (raw ${sha}: a corrected file for the same ${input.data_set} key ${input.key} replaces it; ${withdraw})`
    }
    const cache = yield* ParsedCache
    const offload = yield* currentOffload
    const ahead = yield* Effect.promise(() => parseAhead(offload, raw, inputs, cache))
    if (ahead !== null) yield* Effect.log("parsed ahead").pipe(Effect.annotateLogs({ stage: "parse_ahead", ...ahead }))
    const loaded = yield* loadInputs(raw, inputs, cache, options.progress).pipe(
      Effect.catchTag("CmfFileInvalid", (e) => reject(refusing(e))),
    )
    sources = reportSources(ledger, inputs, loaded, waiting)
    const published = ledger.events("BatchPublished").map((e) => e.payload)
    const current = readCurrent(p.snapshots)
    const servedDate = published.findLast((e) => e.file === current)?.batch_date
    const decision = plan({
      date: options.date,
      today: options.today,
      inputs,
      firstQuotaDate: loaded.firstQuotaDate,
      latestQuotaDate: loaded.latestQuotaDate,
      latestQuotaFile: loaded.latestQuotaFile,
      built: ledger.events("BatchBuilt").map((e) => e.payload),
      served: current === null || servedDate === undefined ? null : { batchDate: servedDate, file: current },
      onDisk: (file) => existsSync(join(p.snapshots, file)),
      wasPublished: (file) => published.some((e) => e.file === file),
      pipelineVersion: PIPELINE_VERSION,
    })
    if (decision.kind !== "publish") return yield* carryOut(decision)
    const { batchDate } = decision
    const shas = inputs.map((i) => i.sha256)

    // The coverage gate, against the batch served now (not when building an earlier day on purpose).
    const served = current === null || servedDate === undefined || batchDate < servedDate ? null : { file: current, date: servedDate }
    const active = served === null ? [] : activeSeries(join(p.snapshots, served.file), served.date)
    const gate = (staged: StagedBatch): string | null => {
      const day = dateToInt(batchDate)
      const covered = new Set(staged.series.filter((s) => s.last_date === day).map((s) => s.asset_id))
      return served === null ? null : coverageGate({ batchDate, servedDate: served.date, active, covered, minShare: options.coverageMin ?? 0.9 })
    }
    const previous = served === null || options.increment === false ? null : { dir: p.snapshots, file: served.file }
    const finished = yield* buildSnapshot(p.snapshots, inputs, loaded, batchDate, gate, previous, cache).pipe(
      Effect.catchTag("StagedBatchRefused", (e) => reject(e.reason, batchDate)),
      Effect.catchTag("CmfFileInvalid", (e) => reject(refusing(e), batchDate)),
      Effect.catchTag("BuildFailed", (e) => reject(e.reason, batchDate, "build")),
    )
    ledger.append({
      type: "BatchBuilt",
      payload: { batch_date: batchDate, file: finished.file, content_hash: finished.contentHash, pipeline_version: PIPELINE_VERSION, inputs: shas },
    })
    publishCurrent(p.snapshots, finished.file)
    ledger.append({ type: "BatchPublished", payload: { batch_date: batchDate, file: finished.file, content_hash: finished.contentHash } })
    applyRetention(p.snapshots, options.retentionDays ?? 14)
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

/**
 * Each data set's freshness from the batch's inputs: the latest date its parsed files' values are
 * of, when and how its newest file came (the ledger), and whether it waits for a drop.
 */
const reportSources = (
  ledger: Ledger["Service"],
  inputs: ReadonlyArray<RawFileObserved>,
  loaded: LoadedInputs,
  waiting: ReadonlyArray<WaitingDataSet>,
): ReadonlyArray<SourceReport> => {
  const recordedAt = new Map<string, string>()
  for (const type of ["RawFileObserved", "RawFileReinstated"] as const) {
    for (const e of ledger.events(type)) recordedAt.set(e.payload.sha256, e.recordedAt)
  }
  return ADAPTERS.map((adapter) => {
    const mine = inputs.filter((i) => i.data_set === adapter.name)
    let newest: RawFileObserved | null = null
    for (const i of mine) if (newest === null || (recordedAt.get(i.sha256) ?? "") > (recordedAt.get(newest.sha256) ?? "")) newest = i
    let latest = 0
    for (const f of loaded.files.get(adapter.name) ?? []) if ((f.latestDate ?? 0) > latest) latest = f.latestDate!
    return {
      data_set: adapter.name,
      cadence: adapter.cadence,
      how: newest === null ? null : /^https?:\/\//.test(newest.source) ? "fetched" : "dropped",
      latest_value_date: latest === 0 ? null : intToDate(latest),
      last_received_at: newest === null ? null : (recordedAt.get(newest.sha256) ?? null),
      waiting: waiting.find((w) => w.dataSet === adapter.name)?.why ?? null,
    }
  })
}

/**
 * The series that had a value on the served batch's day, with their administrator; none when the
 * file cannot be read (the gate then does not apply: a missing file is the API's concern).
 */
const activeSeries = (file: string, batchDate: string): ActiveSeries[] => {
  let db: Database.Database | null = null
  try {
    db = new Database(file, { readonly: true, fileMustExist: true })
    return db
      .prepare(
        `SELECT s.asset_id AS assetId, a.name AS administrator FROM series s
           JOIN funds f ON f.concept_id = s.concept_id JOIN administrators a ON a.provider_id = f.provider_id
          WHERE s.last_date = ?`,
      )
      .all(dateToInt(batchDate)) as ActiveSeries[]
  } catch {
    return []
  } finally {
    db?.close()
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
