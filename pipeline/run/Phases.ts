/**
 * The phases of a batch that surround the build (Build.ts has stage, compute and write; Load.ts
 * the parsing the load phase runs): collect the raw files, plan whether the inputs make a batch,
 * load (parse) them, decide which batch to build, and publish it. Each is an `Effect.fn` with a log span of its name; each takes what the
 * phase before it handed on and gives what the next one needs.
 */
import type { KeyObject } from "node:crypto"
import { existsSync } from "node:fs"
import { dirname, join } from "node:path"
import Database from "better-sqlite3"
import { Clock, Effect, Redacted } from "effect"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt, intToDate } from "../../schemas/Dates.ts"
import { writeParquet } from "../../snapshots/parquet/WriteParquet.ts"
import { publishCurrent, readCurrent } from "../../snapshots/Pointer.ts"
import { releaseSigningKey } from "../../snapshots/releases/ReleaseKey.ts"
import { writeRelease } from "../../snapshots/releases/WriteRelease.ts"
import { applyRetention } from "../../snapshots/Retention.ts"
import type { SourceReport } from "../../snapshots/Status.ts"
import { loadInputs } from "../Load.ts"
import { collectFolder, collectHttp, type WaitingDataSet } from "../Collect.ts"
import { FolderMemo } from "../FolderMemo.ts"
import type { LoadedInputs } from "../LoadedInputs.ts"
import { Ledger, type RawFileObserved } from "../ledger/Ledger.ts"
import { currentOffload } from "../offload/Offload.ts"
import { type ActiveSeries, coverageGate, type Decision, type Held, type PROCEED, plan, planInputs } from "../Plan.ts"
import { RawStore } from "../RawStore.ts"
import { rollbackHold } from "./RollbackHold.ts"
import type { RunOptions } from "../RunOptions.ts"
import type { StagedBatch } from "../Stage.ts"
import type { CmfFileInvalid } from "../cmf/CmfFileInvalid.ts"
import { ADAPTERS } from "../datasets/Registry.ts"
import { parseAhead } from "../ParseAhead.ts"
import { ParsedCache } from "../ParsedCache.ts"
import { PIPELINE_VERSION } from "../Version.ts"
import type { BatchRejectedError } from "./Outcome.ts"

/** Records a rejection (a BatchRejected event) and fails the run with it. */
export type Reject = (reason: string, batchDate?: string | null, kind?: BatchRejectedError["kind"]) => Effect.Effect<never, BatchRejectedError>

/** A URL's user and password (`https://ops:secret@host/`) hidden wherever a message quotes it. */
const withoutUserInfo = (text: string): string => text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/giu, "$1***@")

/** SHA-256 of zero bytes: an empty file is said to be empty, not of an unknown kind. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

/** Collect: every source's new raw files into the raw store and the ledger; the batch's inputs are the ledger's current ones. */
export const collect = Effect.fn("collect")(
  function* (options: RunOptions, reject: Reject) {
    const ledger = yield* Ledger
    const raw = yield* RawStore
    const started = performance.now()
    const waiting: WaitingDataSet[] = []
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
    yield* Effect.log("collected").pipe(Effect.annotateLogs({ stage: "collected", collect_ms: Math.round(performance.now() - started), inputs: inputs.length }))
    return { inputs, waiting }
  },
  Effect.withLogSpan("collect"),
)

/** Plan: whether the inputs make a batch at all (every required data set there, no rollback holding), before anything is parsed. */
export const planBatch = Effect.fn("plan")(
  function* (options: RunOptions, inputs: ReadonlyArray<RawFileObserved>, snapshotsDir: string) {
    const ledger = yield* Ledger
    return planInputs({
      date: options.date,
      today: options.today,
      dataSets: inputs.map((i) => i.data_set),
      required: ADAPTERS.filter((a) => a.part === "core" && a.required !== undefined).map((a) => ({ dataSet: a.name, missing: a.required! })),
      dailyValues: ADAPTERS.filter((a) => a.dailyValues === true).map((a) => a.name),
      hold: rollbackHold(ledger, snapshotsDir),
    }) satisfies Held | typeof PROCEED
  },
  Effect.withLogSpan("plan"),
)

/**
 * A refused file's message, saying how it leaves the inputs: it stays one until a file with the
 * same key replaces it, or it is withdrawn (with the raw file's hash). A file whose content gave
 * no key (keyed by its own hash) is never replaced by a corrected one.
 */
export const refusing = (inputs: ReadonlyArray<RawFileObserved>, e: CmfFileInvalid): string => {
  const input = inputs.find((i) => i.name === e.file)
  if (input === undefined) return e.message
  const sha = input.sha256.slice(0, 12)
  const withdraw = `\`./fds pipeline withdraw --sha ${sha}\` takes it out of the inputs`
  return input.key === input.sha256
    ? `${e.message} (raw ${sha}: its content gives no key, so no corrected file replaces it; ${withdraw})`
    : `${e.message} (raw ${sha}: a corrected file for the same ${input.data_set} key ${input.key} replaces it; ${withdraw})`
}

/** Load: every input parsed (half ahead on the second core when many are new), and each data set's freshness. */
export const load = Effect.fn("load")(
  function* (options: RunOptions, inputs: ReadonlyArray<RawFileObserved>, waiting: ReadonlyArray<WaitingDataSet>, reject: Reject) {
    const raw = yield* RawStore
    const ledger = yield* Ledger
    const cache = yield* ParsedCache
    const offload = yield* currentOffload
    const ahead = yield* Effect.promise(() => parseAhead(offload, raw, inputs, cache))
    if (ahead !== null) yield* Effect.log("parsed ahead").pipe(Effect.annotateLogs({ stage: "parse_ahead", ...ahead }))
    const loaded = yield* loadInputs(raw, inputs, cache, options.progress).pipe(Effect.catchTag("CmfFileInvalid", (e) => reject(refusing(inputs, e))))
    return { loaded, cache, sources: reportSources(ledger, inputs, loaded, waiting) }
  },
  Effect.withLogSpan("load"),
)

/** What `decide` hands on: the decision, and the batch now served that a new one is held against. */
export interface Decided {
  readonly decision: Decision
  /** The batch served now, when the new one is not earlier (the coverage gate and the increment start from it). */
  readonly served: { readonly file: string; readonly date: string } | null
  /** Refuses a staged batch that drops too many of the served batch's series (the coverage gate). */
  readonly gate: (staged: StagedBatch) => string | null
}

/** Decide: which batch the loaded inputs make (or none: unchanged, held, refused), once the quota dates are known. */
export const decide = Effect.fn("decide")(
  function* (options: RunOptions, inputs: ReadonlyArray<RawFileObserved>, loaded: LoadedInputs, snapshotsDir: string) {
    const ledger = yield* Ledger
    const published = ledger.events("BatchPublished").map((e) => e.payload)
    const current = readCurrent(snapshotsDir)
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
      onDisk: (file) => existsSync(join(snapshotsDir, file)),
      wasPublished: (file) => published.some((e) => e.file === file),
      pipelineVersion: PIPELINE_VERSION,
    })
    if (decision.kind !== "publish") return { decision, served: null, gate: () => null } satisfies Decided
    const { batchDate } = decision
    // The coverage gate, against the batch served now (not when building an earlier day on purpose).
    const served = current === null || servedDate === undefined || batchDate < servedDate ? null : { file: current, date: servedDate }
    const active = served === null ? [] : activeSeries(join(snapshotsDir, served.file), served.date)
    const gate = (staged: StagedBatch): string | null => {
      const day = dateToInt(batchDate)
      const covered = new Set(staged.series.filter((s) => s.last_date === day).map((s) => s.asset_id))
      return served === null ? null : coverageGate({ batchDate, servedDate: served.date, active, covered, minShare: options.coverageMin ?? 0.9 })
    }
    return { decision, served, gate } satisfies Decided
  },
  Effect.withLogSpan("decide"),
)

/**
 * The release signing key, read (and checked: an Ed25519 private key, the one the releases so far
 * were signed with) before the build, so that a key that cannot be used stops the run before any
 * work is spent and before CURRENT moves. Its failure is a defect naming the setting or the file.
 */
export const signingKey = Effect.fn("signingKey")(function* (snapshotsDir: string) {
  // the data folder holds snapshots/; the generated key sits beside them, not among the served files
  return yield* releaseSigningKey(dirname(snapshotsDir), snapshotsDir).pipe(
    Effect.mapError((e) => new Error(`release signing key: ${e._tag === "ReleaseKeyUnusable" ? e.message : String(e)}`)),
    Effect.orDie,
  )
})

/**
 * Publish: the built batch recorded, its Parquet files written beside it (snapshots/parquet/), its
 * release signed (snapshots/releases/: its files' SHA-256, chained to the release of the batch
 * published before it), CURRENT pointed at it, and old
 * snapshot files let go by the retention. A signing key that cannot be used stops the run before
 * CURRENT moves (the data folder's key is generated once and reused: snapshots/releases/ReleaseKey.ts;
 * it is read by signingKey before the build).
 */
export const publish = Effect.fn("publish")(
  function* (
    snapshotsDir: string,
    inputs: ReadonlyArray<RawFileObserved>,
    batchDate: string,
    finished: { readonly file: string; readonly contentHash: string },
    retentionDays: number,
    key: Redacted.Redacted<KeyObject>,
  ) {
    const ledger = yield* Ledger
    ledger.append({
      type: "BatchBuilt",
      payload: {
        batch_date: batchDate,
        file: finished.file,
        content_hash: finished.contentHash,
        pipeline_version: PIPELINE_VERSION,
        inputs: inputs.map((i) => i.sha256),
      },
    })
    const previous = ledger.events("BatchPublished").findLast((e) => e.payload.file !== finished.file)?.payload.file ?? null
    const now = yield* Clock.currentTimeMillis
    const parquet = writeParquet(snapshotsDir, batchIdOfFile(finished.file))
    if (parquet.length > 0) yield* Effect.log("parquet written").pipe(Effect.annotateLogs({ stage: "parquet", files: parquet.length }))
    writeRelease({
      snapshotsDir,
      batchId: batchIdOfFile(finished.file),
      previousBatchId: previous === null ? null : batchIdOfFile(previous),
      key: Redacted.value(key),
      now: new Date(now),
    })
    publishCurrent(snapshotsDir, finished.file)
    ledger.append({ type: "BatchPublished", payload: { batch_date: batchDate, file: finished.file, content_hash: finished.contentHash } })
    applyRetention(snapshotsDir, retentionDays)
  },
  Effect.withLogSpan("publish"),
)

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
