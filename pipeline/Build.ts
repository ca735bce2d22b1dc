/**
 * From a batch's inputs (raw files by hash) to a snapshot file: parse, stage, write. Shared by
 * `pipeline run` and `pipeline reproduce`, so that an audit rebuilds with exactly the same code.
 */
import { Effect, Schema } from "effect"
import type { CartolaRecord, DataSetName, FmRegistryRecord } from "../schemas/CmfRecords.ts"
import { intToDate } from "../schemas/Dates.ts"
import { writeManifest } from "../snapshots/Manifest.ts"
import { FORMAT_VERSION } from "../snapshots/Tables.ts"
import { type FinishedSnapshot, SnapshotWriter } from "../snapshots/Writer.ts"
import type { RawFileObserved } from "./ledger/Ledger.ts"
import type { RawStore } from "./RawStore.ts"
import { parseCartola } from "./sources/Cartola.ts"
import type { CmfFileInvalid } from "./sources/CmfFileInvalid.ts"
import { parseFmRegistry } from "./sources/FmRegistry.ts"
import { sourceOf } from "./sources/Sources.ts"
import { runComputations } from "./compute/Alongside.ts"
import { COMPUTATIONS } from "./compute/Computations.ts"
import { type StagedBatch, stage } from "./Stage.ts"
import { type CartolaInput, inMemory, summarize, toColumns } from "./staging/CartolaColumns.ts"
import type { ParsedCache } from "./staging/ParsedCache.ts"
import { PIPELINE_VERSION } from "./Version.ts"

export class BuildFailed extends Schema.TaggedError<BuildFailed>()("BuildFailed", { reason: Schema.String }) {}

/** Reports parsing progress (a terminal bar, log lines, or nothing); ETA from bytes, not files. */
export interface Progress {
  readonly start: (files: number, bytes: number) => void
  readonly file: (name: string, rowsSoFar: number, bytes: number) => void
  readonly stop: () => void
}
export const silentProgress: Progress = { start: () => {}, file: () => {}, stop: () => {} }

/** Data sets of the FI/ETF part: a failure there makes FI "unavailable" instead of rejecting the batch. */
export const FI_DATA_SETS: ReadonlySet<DataSetName> = new Set([
  "fi_registry",
  "fi_book_values",
  "fi_portfolio",
  "fi_fact_sheets",
  "etf_tickers",
])

export interface LoadedInputs {
  readonly registry: ReadonlyArray<FmRegistryRecord>
  /** Emptied by buildSnapshot once merged: a LoadedInputs builds one snapshot. */
  readonly cartolas: ReadonlyArray<CartolaInput>
  /** Records of every other data set, by data set, file by file. */
  readonly others: ReadonlyMap<DataSetName, ReadonlyArray<{ readonly name: string; readonly records: ReadonlyArray<unknown> }>>
  /** Why the FI/ETF part is unavailable in this batch; null when it is available. */
  readonly fiUnavailable: string | null
  readonly repairs: Record<string, number>
  /** The latest quota date in the inputs, YYYY-MM-DD; null when they hold no rows. */
  readonly latestQuotaDate: string | null
  /** The cartola file that holds it (named when it is refused, e.g. a date after today). */
  readonly latestQuotaFile: string | null
}

const prefixed = (dataSet: string, repairs: Readonly<Record<string, number>>): Record<string, number> =>
  Object.fromEntries(Object.entries(repairs).map(([k, v]) => [`${dataSet}.${k}`, v]))

const pushTo = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

const add = (into: Record<string, number>, from: Readonly<Record<string, number>>) => {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v
}

/** Parses every input; parsed cartolas come from (and go to) the cache when one is given. */
export const loadInputs = (
  raw: RawStore,
  inputs: ReadonlyArray<RawFileObserved>,
  cache: ParsedCache | null,
  progress: Progress = silentProgress,
): Effect.Effect<LoadedInputs, CmfFileInvalid> =>
  Effect.gen(function* () {
    const repairs: Record<string, number> = {}
    let registry: ReadonlyArray<FmRegistryRecord> = []
    const cartolas: CartolaInput[] = []
    let latest = 0
    let latestFile: string | null = null
    let rows = 0
    const others = new Map<DataSetName, Array<{ name: string; records: ReadonlyArray<unknown> }>>()
    let fiUnavailable: string | null = inputs.some((i) => i.data_set === "fi_registry")
      ? null
      : "no FI registry among the inputs"
    // Parsed records repeat the same strings across rows and files (dates, labels, fund names,
    // fee texts); one instance of each instead of one per occurrence saves ~0.3 GB at full scale.
    const strings = new Map<string, string>()
    const intern = (records: ReadonlyArray<unknown>): void => {
      for (const record of records) {
        if (typeof record !== "object" || record === null) continue
        const fields = record as Record<string, unknown>
        for (const key in fields) {
          const value = fields[key]
          if (typeof value !== "string") continue
          const same = strings.get(value)
          if (same === undefined) strings.set(value, value)
          else fields[key] = same
        }
      }
    }
    // Parsing (a cold build, reproduce) leaves garbage faster than V8 collects it: a full GC every
    // ~256 MB of parsed input keeps the peak near what is live (it varied 1.75–2.65 GB without).
    let parsedBytes = 0
    let collectedAt = 0
    const parsedOne = (bytes: number): void => {
      parsedBytes += bytes
      if (parsedBytes - collectedAt < 256e6) return
      collectedAt = parsedBytes
      collectGarbage()
    }
    progress.start(inputs.length, inputs.reduce((n, i) => n + i.bytes, 0))
    for (const input of inputs) {
      if (input.data_set !== "fm_registry" && input.data_set !== "cartola_diaria") {
        // structuredClone: the records' strings are slices of the decoded page; copies let it go.
        const cached = cache?.getRecords(input)
        const parsed =
          cached !== undefined
            ? Effect.succeed(cached)
            : Effect.map(sourceOf(input.data_set).parse(raw.get(input.sha256), input.name), (p) => {
                const copy = { records: structuredClone(p.records), repairs: p.repairs }
                cache?.putRecords(input, copy)
                parsedOne(input.bytes)
                return copy
              })
        if (FI_DATA_SETS.has(input.data_set)) {
          const result = yield* Effect.result(parsed)
          if (result._tag === "Failure") {
            fiUnavailable ??= result.failure.message
            continue
          }
          add(repairs, prefixed(input.data_set, result.success.repairs))
          intern(result.success.records)
          pushTo(others, input.data_set, { name: input.name, records: result.success.records })
        } else {
          const p = yield* parsed
          add(repairs, prefixed(input.data_set, p.repairs))
          intern(p.records)
          pushTo(others, input.data_set, { name: input.name, records: p.records })
        }
      } else if (input.data_set === "fm_registry") {
        const p = yield* parseFmRegistry(raw.get(input.sha256), input.name)
        registry = p.records
        add(repairs, { registry_repeated_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped })
      } else if (input.data_set === "cartola_diaria") {
        const parse = (p: { records: ReadonlyArray<CartolaRecord>; duplicatesSkipped: number; footnotesSkipped: number }) =>
          toColumns(input.name, p.records, { duplicate_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped })
        // From the cache only the summary is read now; the columns are loaded when merged.
        let summary = cache?.getSummary(input)
        if (summary === undefined || !Array.isArray(summary.series)) {
          let columns = cache?.get(input)
          if (columns === undefined) {
            columns = parse(yield* parseCartola(raw.get(input.sha256), input.name))
            cache?.put(input, columns)
            parsedOne(input.bytes)
          }
          summary = summarize(columns)
          cache?.putSummary(input, summary)
          if (cache === null) cartolas.push(inMemory(columns))
        }
        add(repairs, summary.repairs)
        if (summary.latestDate > latest) {
          latest = summary.latestDate
          latestFile = input.name
        }
        rows += summary.rows
        if (cache !== null) {
          // Parsed again if the entry went away meanwhile (these bytes parsed once: it cannot fail).
          const { sha256, name } = input
          cartolas.push({
            file: summary.file,
            firstDate: summary.firstDate,
            load: () => cache.get({ sha256, name }) ?? parse(Effect.runSync(parseCartola(raw.get(sha256), name))),
            summary,
          })
        }
      }
      progress.file(input.name, rows, input.bytes)
    }
    progress.stop()
    return {
      registry,
      cartolas,
      others,
      fiUnavailable,
      repairs,
      latestQuotaDate: latest === 0 ? null : intToDate(latest),
      latestQuotaFile: latestFile,
    }
  })

const insertStaged = (writer: SnapshotWriter, batch: StagedBatch): void => {
  writer.insertMeta(batch.meta)
  writer.insertAdministrators(batch.administrators)
  writer.insertFunds(batch.funds)
  writer.insertSeries(batch.series)
  for (const s of batch.quotas.series) writer.insertQuotaColumns(s.assetId, batch.quotas, s.start, s.end)
  for (const [table, rows] of batch.tables) writer.insertRows(table, rows as never)
}

/**
 * A full garbage collection when Node runs with --expose-gc (`./fds` passes it to the pipeline):
 * at the two points where the build lets ~1 GB go (parsed records, staged rows), so that compute
 * and packing do not run on top of it. Without the flag V8 collects when it sees fit.
 */
const collectGarbage = (): void => (globalThis as { gc?: () => void }).gc?.()

const memory = () => {
  const m = process.memoryUsage()
  return { rss_mb: Math.round(m.rss / 1e6), heap_mb: Math.round(m.heapUsed / 1e6), array_buffers_mb: Math.round(m.arrayBuffers / 1e6) }
}

/** Stages and writes the snapshot of `batchDate` into `snapshotsDir`, with its manifest. */
export const buildSnapshot = (
  snapshotsDir: string,
  inputs: ReadonlyArray<RawFileObserved>,
  loaded: LoadedInputs,
  batchDate: string,
): Effect.Effect<FinishedSnapshot, CmfFileInvalid | BuildFailed> =>
  Effect.gen(function* () {
    let t = performance.now()
    let staged: StagedBatch | null = yield* stage(loaded, batchDate)
    // Everything parsed is staged now: let the per-file columns (~56 B per row of the whole
    // history) and the records go; a LoadedInputs builds one snapshot.
    ;(loaded.cartolas as CartolaInput[]).length = 0
    ;(loaded.others as Map<DataSetName, unknown>).clear()
    collectGarbage()
    const repairs: Record<string, number> = { ...staged.repairs }
    const stageMs = Math.round(performance.now() - t)
    console.error(JSON.stringify({ level: "info", stage: "staged", ...memory() }))
    const writer = new SnapshotWriter(snapshotsDir)
    const computed: Record<string, number> = {}
    const finished = yield* Effect.try({
      try: () => {
        t = performance.now()
        insertStaged(writer, staged!)
        // Compute, VACUUM and the checks run without the staged history in the heap.
        staged = null
        collectGarbage()
        const insertMs = Math.round(performance.now() - t)
        t = performance.now()
        const counters = runComputations(writer.db, writer.tmpPath, COMPUTATIONS, batchDate)
        for (const c of COMPUTATIONS) {
          for (const [k, v] of Object.entries(counters[c.name] ?? {})) computed[`${c.name}.${k}`] = v
        }
        const computeMs = Math.round(performance.now() - t)
        const done = writer.finish(batchDate)
        console.error(
          JSON.stringify({
            level: "info",
            stage: "build",
            batch_date: batchDate,
            stage_ms: stageMs,
            insert_ms: insertMs,
            compute_ms: computeMs,
            ...done.timings,
            ...memory(),
          }),
        )
        return done
      },
      catch: (e) => {
        writer.abort()
        return new BuildFailed({ reason: `snapshot build failed: ${String(e)}` })
      },
    })
    add(repairs, loaded.repairs)
    add(repairs, computed)
    writeManifest(snapshotsDir, {
      format_version: FORMAT_VERSION,
      pipeline_version: PIPELINE_VERSION,
      batch_date: batchDate,
      file: finished.file,
      content_hash: finished.contentHash,
      inputs: inputs.map((i) => ({ data_set: i.data_set, name: i.name, sha256: i.sha256, bytes: i.bytes })),
      row_counts: finished.rowCounts,
      repairs,
      options: {},
    })
    return finished
  })
