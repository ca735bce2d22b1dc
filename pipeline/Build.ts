/**
 * From a batch's inputs (raw files by hash) to a snapshot file: parse, stage, write. Shared by
 * `pipeline run` and `pipeline reproduce`, so that an audit rebuilds with exactly the same code.
 */
import { Effect, Schema } from "effect"
import type { DataSetName } from "../schemas/CmfRecords.ts"
import { dateToInt, intToDate } from "../schemas/Dates.ts"
import { writeManifest } from "../snapshots/Manifest.ts"
import { FORMAT_VERSION, TABLES } from "../snapshots/Tables.ts"
import { type FinishedSnapshot, SnapshotWriter } from "../snapshots/Writer.ts"
import { runComputations } from "./compute/Alongside.ts"
import { COMPUTATIONS } from "./compute/Computations.ts"
import { type IncrementPlan, type PreviousSnapshot, planIncrement } from "./Increment.ts"
import type { RawFileObserved } from "./ledger/Ledger.ts"
import type { RawStore } from "./RawStore.ts"
import { type StagedBatch, stage } from "./Stage.ts"
import type { CmfFileInvalid } from "./sources/CmfFileInvalid.ts"
import type { DataSetAdapter, LoadContext, LoadedFile } from "./sources/DataSet.ts"
import { ADAPTERS } from "./sources/Sources.ts"
import type { ParsedCache } from "./staging/ParsedCache.ts"
import { PIPELINE_VERSION } from "./Version.ts"

/** A check on the staged batch refused it (the coverage gate): a content rejection, not a failure. */
export class StagedBatchRefused extends Schema.TaggedError<StagedBatchRefused>()("StagedBatchRefused", { reason: Schema.String }) {}

export class BuildFailed extends Schema.TaggedError<BuildFailed>()("BuildFailed", { reason: Schema.String }) {}

/** Reports parsing progress (a terminal bar, log lines, or nothing); ETA from bytes, not files. */
export interface Progress {
  readonly start: (files: number, bytes: number) => void
  readonly file: (name: string, rowsSoFar: number, bytes: number) => void
  readonly stop: () => void
}
export const silentProgress: Progress = { start: () => {}, file: () => {}, stop: () => {} }

export interface LoadedInputs {
  /** The loaded files of each data set, in the ledger's order. Emptied by buildSnapshot once staged: a LoadedInputs builds one snapshot. */
  readonly files: ReadonlyMap<DataSetName, ReadonlyArray<LoadedFile>>
  /** Why the FI/ETF part is unavailable in this batch; null when it is available. */
  readonly fiUnavailable: string | null
  readonly repairs: Record<string, number>
  /** The first and latest value dates of the daily-values data sets, YYYY-MM-DD; null when they hold no rows. */
  readonly firstQuotaDate: string | null
  readonly latestQuotaDate: string | null
  /** The file that holds the latest (named when it is refused, e.g. a date after today), with its data set. */
  readonly latestQuotaFile: { readonly dataSet: DataSetName; readonly name: string } | null
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

/** The default load of an adapter: its records, parsed once and cached by content. */
const loadRecords = (adapter: DataSetAdapter, context: LoadContext): Effect.Effect<LoadedFile, CmfFileInvalid> => {
  const cached = context.cache?.getRecords(context)
  const parsed =
    cached !== undefined
      ? Effect.succeed(cached)
      : Effect.map(adapter.parse(context.bytes(), context.name), (p) => {
          // structuredClone: the records' strings are slices of the decoded page; copies let it go.
          const copy = { records: structuredClone(p.records), repairs: p.repairs }
          context.cache?.putRecords(context, copy)
          context.parsed(context.size)
          return copy
        })
  return Effect.map(parsed, (p) => {
    const dates = adapter.datesOf?.(p.records) ?? null
    return {
      name: context.name,
      data: p.records,
      repairs: p.repairs,
      rows: p.records.length,
      ...(dates === null ? {} : { firstDate: dateToInt(dates.first), latestDate: dateToInt(dates.latest) }),
    }
  })
}

/** Parses every input through its adapter (from and to the parse cache when one is given). */
export const loadInputs = (
  raw: RawStore["Service"],
  inputs: ReadonlyArray<RawFileObserved>,
  cache: ParsedCache["Service"] | null,
  progress: Progress = silentProgress,
  adapters: ReadonlyArray<DataSetAdapter> = ADAPTERS,
): Effect.Effect<LoadedInputs, CmfFileInvalid> =>
  Effect.gen(function* () {
    const repairs: Record<string, number> = {}
    let first = 0
    let latest = 0
    let latestFile: LoadedInputs["latestQuotaFile"] = null
    let rows = 0
    const files = new Map<DataSetName, LoadedFile[]>()
    // A required FI data set missing: the batch goes out without its FI/ETF part (a core one rejects it: Pipeline.ts).
    const missingFi = adapters.find((a) => a.part === "fi" && a.required !== undefined && !inputs.some((i) => i.data_set === a.name))
    let fiUnavailable: string | null = missingFi?.required ?? null
    // Parsed records repeat the same strings across rows and files (dates, labels, fund names,
    // fee texts); one instance of each instead of one per occurrence saves ~0.3 GB at full scale.
    const strings = new Map<string, string>()
    const intern = (records: unknown): void => {
      if (!Array.isArray(records)) return
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
    const parsed = (bytes: number): void => {
      parsedBytes += bytes
      if (parsedBytes - collectedAt < 256e6) return
      collectedAt = parsedBytes
      collectGarbage()
    }
    const byName = new Map(adapters.map((a) => [a.name, a]))
    progress.start(inputs.length, inputs.reduce((n, i) => n + i.bytes, 0))
    for (const input of inputs) {
      const adapter = byName.get(input.data_set)
      if (adapter === undefined) return yield* Effect.die(new Error(`no adapter for data set ${input.data_set}`))
      const context: LoadContext = {
        sha256: input.sha256,
        name: input.name,
        size: input.bytes,
        bytes: () => raw.get(input.sha256),
        cache,
        parsed,
      }
      const load = adapter.load === undefined ? loadRecords(adapter, context) : adapter.load(context)
      let file: LoadedFile
      if (adapter.part === "fi") {
        const result = yield* Effect.result(load)
        if (result._tag === "Failure") {
          fiUnavailable ??= result.failure.message
          continue
        }
        file = result.success
      } else {
        file = yield* load
      }
      add(repairs, prefixed(input.data_set, file.repairs))
      intern(file.data)
      pushTo(files, input.data_set, file)
      if (adapter.dailyValues === true) {
        if (file.firstDate !== undefined && file.firstDate > 0 && (first === 0 || file.firstDate < first)) first = file.firstDate
        if (file.latestDate !== undefined && file.latestDate > latest) {
          latest = file.latestDate
          latestFile = { dataSet: input.data_set, name: input.name }
        }
      }
      rows += file.rows
      progress.file(input.name, rows, input.bytes)
    }
    progress.stop()
    return {
      files,
      fiUnavailable,
      repairs,
      firstQuotaDate: first === 0 ? null : intToDate(first),
      latestQuotaDate: latest === 0 ? null : intToDate(latest),
      latestQuotaFile: latestFile,
    }
  })

/**
 * An increment's writes into the copy of the previous snapshot: every staged table rewritten, the
 * quota rows from `from` on replaced by the merged region's, the computed tables emptied (they
 * are computed again).
 */
const replaceStaged = (writer: SnapshotWriter, batch: StagedBatch): void => {
  const base = batch.base!
  // Last table first: a table's foreign keys name tables before it (series → funds → administrators).
  for (const table of [...TABLES].reverse()) if (table.name !== "quotas") writer.clearTable(table.name)
  writer.insertMeta({ format_version: String(FORMAT_VERSION) })
  writer.deleteQuotasFrom(
    base.series.filter((s) => s.last_date >= base.from).map((s) => s.asset_id),
    base.from,
  )
  insertStaged(writer, batch)
}

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
  /** Refuses the staged batch with a reason, or passes it (null). */
  gate: (staged: StagedBatch) => string | null = () => null,
  /** The published batch to start from (a daily increment, Increment.ts); null: build from nothing. */
  previous: PreviousSnapshot | null = null,
  cache: ParsedCache["Service"] | null = null,
): Effect.Effect<FinishedSnapshot, CmfFileInvalid | BuildFailed | StagedBatchRefused> =>
  Effect.gen(function* () {
    let t = performance.now()
    const plan: IncrementPlan = planIncrement(previous, inputs, loaded, batchDate, cache)
    const base = plan.kind === "increment" ? plan.base : null
    let staged: StagedBatch | null = yield* stage(ADAPTERS, loaded, batchDate, base)
    const refused = gate(staged)
    if (refused !== null) return yield* new StagedBatchRefused({ reason: refused })
    // Everything parsed is staged now: let the per-file columns (~56 B per row of the whole
    // history) and the records go; a LoadedInputs builds one snapshot.
    ;(loaded.files as Map<DataSetName, unknown>).clear()
    collectGarbage()
    const repairs: Record<string, number> = { ...staged.repairs }
    const { corrections } = staged
    const provisional = staged.tables.find(([t]) => t === "quota_sources")?.[1] as ReadonlyArray<{ rows: number; latest_from_source: number }> | undefined
    const quotaSources = {
      bpr_series: (provisional ?? []).filter((s) => s.latest_from_source === 1).length,
      bpr_rows: (provisional ?? []).reduce((n, s) => n + s.rows, 0),
    }
    const stageMs = Math.round(performance.now() - t)
    console.error(JSON.stringify({ level: "info", stage: "staged", ...memory() }))
    // An increment's first write is the copy of the previous snapshot: a full disk fails it here.
    const writer = yield* Effect.try({
      try: () => new SnapshotWriter(snapshotsDir, plan.kind === "increment" ? plan.path : undefined),
      catch: (e) => new BuildFailed({ reason: `snapshot build failed: ${String(e)}` }),
    })
    const computed: Record<string, number> = {}
    const finished = yield* Effect.try({
      try: () => {
        t = performance.now()
        if (plan.kind === "increment") replaceStaged(writer, staged!)
        else insertStaged(writer, staged!)
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
        const done = writer.finish(
          batchDate,
          plan.kind === "increment"
            ? {
                increment: {
                  quotaMonths: plan.manifest.quota_month_digests!,
                  quotasFrom: Math.floor(plan.base.from / 100) * 100 + 1,
                  tables: {},
                },
              }
            : {},
        )
        console.error(
          JSON.stringify({
            level: "info",
            stage: "build",
            batch_date: batchDate,
            kind: plan.kind,
            ...(plan.kind === "increment" ? { from: intToDate(plan.base.from) } : { cold_reason: plan.reason }),
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
      corrections,
      quota_sources: quotaSources,
      table_digests: finished.digests.tables,
      quota_month_digests: finished.digests.quotaMonths,
      build:
        plan.kind === "increment"
          ? { kind: "increment", base: previous!.file, from: intToDate(plan.base.from) }
          : { kind: "cold", ...(previous === null ? {} : { cold_reason: plan.reason }) },
    })
    return finished
  })
