/**
 * From a batch's loaded inputs to a snapshot file: the stage, compute and write phases. Shared by
 * `pipeline run` (run/Batch.ts) and `pipeline reproduce`, so that an audit rebuilds with exactly
 * the same code.
 */
import { Effect, Schema } from "effect"
import { intToDate } from "../schemas/Dates.ts"
import { writeManifest } from "../snapshots/Manifest.ts"
import { FORMAT_VERSION, TABLES } from "../snapshots/Tables.ts"
import { type FinishedSnapshot, SnapshotWriter } from "../snapshots/Writer.ts"
import { runComputations } from "./compute/Alongside.ts"
import { ALONGSIDE, COMPUTATIONS } from "./compute/Computations.ts"
import { incrementSink } from "./increment/IncrementSink.ts"
import { computedInputsBefore, type IncrementPlan, incrementFinish, type PreviousSnapshot, planIncrement, readyForCompute } from "./increment/Increment.ts"
import type { LoadedInputs } from "./LoadedInputs.ts"
import { addCounts, collectGarbage } from "./Load.ts"
import type { RawFileObserved } from "./ledger/Ledger.ts"
import { type StagedBatch, type StageSink, stage } from "./Stage.ts"
import type { CmfFileInvalid } from "./cmf/CmfFileInvalid.ts"
import { currentOffload } from "./offload/Offload.ts"
import { ADAPTERS } from "./datasets/Registry.ts"
import type { ParsedCache } from "./ParsedCache.ts"
import { PIPELINE_VERSION } from "./Version.ts"

/** A check on the staged batch refused it (the coverage gate): a content rejection, not a failure. */
export class StagedBatchRefused extends Schema.TaggedError<StagedBatchRefused>()("StagedBatchRefused", { reason: Schema.String }) {}

export class BuildFailed extends Schema.TaggedError<BuildFailed>()("BuildFailed", { reason: Schema.String }) {}

const memory = () => {
  const m = process.memoryUsage()
  const mb = (n: number) => Math.round(n / 1e6)
  return { rss_mb: mb(m.rss), heap_mb: mb(m.heapUsed), heap_total_mb: mb(m.heapTotal), external_mb: mb(m.external), array_buffers_mb: mb(m.arrayBuffers) }
}


/**
 * The sink staging writes into: a cold build's rows, each call timed. An increment wraps it
 * (increment/IncrementSink.ts) to write over the previous snapshot's rows.
 */
const writerSink = (writer: SnapshotWriter, timing: { insertMs: number }): StageSink & { readonly written: ReadonlySet<string> } => {
  const written = new Set<string>()
  const timed = <A>(f: () => A): A => {
    const t = performance.now()
    try {
      return f()
    } finally {
      timing.insertMs += performance.now() - t
    }
  }
  return {
    written,
    rows: (table, rows) =>
      timed(() => {
        written.add(table)
        writer.insertRows(table, rows as never)
      }),
    quotas: (series, columns) => timed(() => writer.insertQuotaColumns(series.assetId, columns, series.start, series.end)),
    deleteFrom: (table, from) =>
      timed(() => {
        const column = TABLES.find((t) => t.name === table)?.months
        if (column === undefined) throw new Error(`${table} is not cut by month`)
        writer.db.prepare(`DELETE FROM ${table} WHERE ${column} >= ?`).run(from)
        written.add(table)
      }),
  }
}


/** What the stage phase hands on: the file being built, holding the staged rows, and how this build stands to the previous one. */
export interface Staging {
  readonly snapshotsDir: string
  readonly batchDate: string
  readonly writer: SnapshotWriter
  readonly plan: IncrementPlan
  /** The increment (a copy of the previous snapshot, changed in place); null: a cold build. */
  readonly increment: Extract<IncrementPlan, { kind: "increment" }> | null
  /** The increment's month (YYYYMM01): quota months from it on are hashed again, computations that can continue compute from it on; 0 cold. */
  readonly month: number
  /** What each incremental computation's rows before the month read, in the previous snapshot (before staging; increment/Increment.ts). */
  readonly inputsBefore: ReadonlyMap<string, string>
  /** The staging tables this build wrote. */
  readonly written: ReadonlySet<string>
  readonly staged: StagedBatch
  readonly stageMs: number
  readonly insertMs: number
}

/** What the compute phase hands on. */
export interface Computed {
  /** Each computation's counters, as `<computation>.<counter>`. */
  readonly counters: Readonly<Record<string, number>>
  /** What each computation keeps for the next build (the manifest's `compute_state`). */
  readonly states: Readonly<Record<string, unknown>>
  /** The computations that continued from the increment's month. */
  readonly continuedFrom: ReadonlyArray<string>
  readonly timings: Readonly<Record<string, number>>
  readonly computeMs: number
}


/**
 * The stage phase: opens the file being built (an increment's first write is the copy of the
 * previous snapshot: a full disk fails it here), stages every data set into it, and holds the
 * staged batch against `gate`. The file is deleted on any failure.
 */
export const stageBatch = Effect.fn("stage")(
  function* (
    snapshotsDir: string,
    inputs: ReadonlyArray<RawFileObserved>,
    loaded: LoadedInputs,
    batchDate: string,
    /** Refuses the staged batch with a reason, or passes it (null). */
    gate: (staged: StagedBatch) => string | null,
    /** The published batch to start from (a daily increment, increment/Increment.ts); null: build from nothing. */
    previous: PreviousSnapshot | null,
    cache: ParsedCache["Service"] | null,
  ): Effect.fn.Return<Staging, CmfFileInvalid | BuildFailed | StagedBatchRefused> {
    // what parsing left behind goes before staging holds its buffers
    collectGarbage()
    yield* Effect.log("loaded").pipe(
      Effect.annotateLogs({
        stage: "loaded",
        ...(loaded.loadMs === undefined ? {} : { load_by_ms: loaded.loadMs.byDataSet, load_gc_ms: loaded.loadMs.gc }),
        ...memory(),
      }),
    )
    const t = performance.now()
    const plan: IncrementPlan = planIncrement(previous, inputs, loaded, batchDate, cache)
    const increment = plan.kind === "increment" ? plan : null
    const writer = yield* Effect.try({
      try: () => new SnapshotWriter(snapshotsDir, increment?.path),
      catch: (e) => new BuildFailed({ reason: `snapshot build failed: ${String(e)}` }),
    })
    const month = increment === null ? 0 : Math.floor(increment.base.from / 100) * 100 + 1
    const inputsBefore = increment === null ? new Map<string, string>() : computedInputsBefore(writer.db, month)
    const timing = { insertMs: 0 }
    const cold = writerSink(writer, timing)
    const sink = increment === null ? cold : incrementSink(writer, increment.base, cold)
    const staged = yield* stage(ADAPTERS, loaded, batchDate, sink, {
      base: increment?.base ?? null,
      inputs,
      previous:
        increment?.manifest.staging === undefined ? null : { steps: increment.manifest.staging, batchDate: increment.manifest.batch_date },
    }).pipe(Effect.onError(() => Effect.sync(() => writer.abort())))
    const refused = gate(staged)
    if (refused !== null) {
      writer.abort()
      return yield* new StagedBatchRefused({ reason: refused })
    }
    collectGarbage()
    const insertMs = Math.round(timing.insertMs)
    const stageMs = Math.round(performance.now() - t) - insertMs
    yield* Effect.log("staged").pipe(Effect.annotateLogs({ stage: "staged", ...memory() }))
    return { snapshotsDir, batchDate, writer, plan, increment, month, inputsBefore, written: sink.written, staged, stageMs, insertMs }
  },
  Effect.withLogSpan("stage"),
)

/** A step of the compute or write phase on the file being built: a throw deletes the file and fails the build. */
const onFile = <A>(writer: SnapshotWriter, step: () => A): Effect.Effect<A, BuildFailed> =>
  Effect.try({
    try: step,
    catch: (e) => {
      writer.abort()
      return new BuildFailed({ reason: `snapshot build failed: ${String(e)}` })
    },
  })

/**
 * The compute phase: the computed tables from the staged ones. In an increment, a staged table
 * this build neither wrote nor kept is emptied, and each computation that can continues from the
 * month (its rows before it kept) when what they read is the same as in the previous snapshot.
 */
export const computeBatch = Effect.fn("compute")(
  function* (staging: Staging): Effect.fn.Return<Computed, BuildFailed> {
    const offload = yield* currentOffload
    const { writer, increment, month, staged, batchDate } = staging
    return yield* onFile(writer, () => {
      const t = performance.now()
      const increments =
        increment === null ? {} : readyForCompute(writer, increment.manifest, month, staging.written, new Set(staged.reusedTables), staging.inputsBefore)
      writer.insertMeta(staged.meta)
      const timings: Record<string, number> = {}
      const states: Record<string, unknown> = {}
      // When the job's computations continue from the month (an increment's: short), it takes half the returns.
      const split = increment !== null && [...ALONGSIDE].every((name) => increments[name] !== undefined) ? ["returns"] : []
      const byComputation = runComputations(writer.db, writer.tmpPath, COMPUTATIONS, batchDate, {
        timings,
        incremental: { increments, states },
        split,
        offload,
      })
      const counters: Record<string, number> = {}
      for (const c of COMPUTATIONS) {
        for (const [k, v] of Object.entries(byComputation[c.name] ?? {})) counters[`${c.name}.${k}`] = v
      }
      return { counters, states, continuedFrom: Object.keys(increments), timings, computeMs: Math.round(performance.now() - t) }
    })
  },
  Effect.withLogSpan("compute"),
)

/**
 * The write phase: packs, checks and hashes the file and names it (the writer's `finish`; the hash
 * beside this thread through the Offload), then writes its manifest. Not yet published.
 */
export const writeBatch = Effect.fn("write")(
  function* (
    staging: Staging,
    computed: Computed,
    inputs: ReadonlyArray<RawFileObserved>,
    loaded: LoadedInputs,
    previous: PreviousSnapshot | null,
  ): Effect.fn.Return<FinishedSnapshot, BuildFailed> {
    const offload = yield* currentOffload
    const { writer, plan, increment, month, staged, batchDate, snapshotsDir } = staging
    const finished = yield* onFile(writer, () =>
      writer.finish(
        batchDate,
        increment !== null
          ? { beside: offload.beside, increment: incrementFinish(increment.manifest, month, new Set(staged.reusedTables), staged.updated) }
          : { beside: offload.beside },
      ),
    )
    yield* Effect.log("built").pipe(
      Effect.annotateLogs({
        stage: "build",
        batch_date: batchDate,
        kind: plan.kind,
        ...(plan.kind === "increment"
          ? { from: intToDate(plan.base.from), kept: staged.keptSteps, updated_from: staged.updated, computed_from_month: computed.continuedFrom }
          : { cold_reason: plan.reason }),
        stage_ms: staging.stageMs,
        insert_ms: staging.insertMs,
        stage_by_ms: staged.timings,
        compute_ms: computed.computeMs,
        compute_by_ms: computed.timings,
        ...finished.timings,
        ...memory(),
      }),
    )
    const repairs: Record<string, number> = { ...staged.repairs }
    addCounts(repairs, loaded.repairs)
    addCounts(repairs, computed.counters)
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
      corrections: staged.corrections,
      quota_sources: staged.quotaSources,
      table_digests: finished.digests.tables,
      quota_month_digests: finished.digests.quotaMonths,
      table_month_digests: finished.digests.tableMonths,
      staging: staged.steps,
      compute_state: computed.states,
      build:
        plan.kind === "increment"
          ? {
              kind: "increment",
              base: previous!.file,
              from: intToDate(plan.base.from),
              kept: [...staged.keptSteps],
              computed_from: { month: intToDate(month).slice(0, 7), computations: [...computed.continuedFrom] },
              updated_from: Object.fromEntries(Object.entries(staged.updated).map(([table, from]) => [table, intToDate(from)])),
            }
          : { kind: "cold", ...(previous === null ? {} : { cold_reason: plan.reason }) },
    })
    return finished
  },
  Effect.withLogSpan("write"),
)

/** Stages, computes and writes the snapshot of `batchDate` into `snapshotsDir`, with its manifest: the three phases in turn. */
export const buildSnapshot = (
  snapshotsDir: string,
  inputs: ReadonlyArray<RawFileObserved>,
  loaded: LoadedInputs,
  batchDate: string,
  /** Refuses the staged batch with a reason, or passes it (null). */
  gate: (staged: StagedBatch) => string | null = () => null,
  /** The published batch to start from (a daily increment, increment/Increment.ts); null: build from nothing. */
  previous: PreviousSnapshot | null = null,
  cache: ParsedCache["Service"] | null = null,
): Effect.Effect<FinishedSnapshot, CmfFileInvalid | BuildFailed | StagedBatchRefused> =>
  Effect.gen(function* () {
    const staging = yield* stageBatch(snapshotsDir, inputs, loaded, batchDate, gate, previous, cache)
    const computed = yield* computeBatch(staging)
    return yield* writeBatch(staging, computed, inputs, loaded, previous)
  })
