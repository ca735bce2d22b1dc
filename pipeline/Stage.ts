/**
 * Staging: parsed inputs → the snapshot's tables. It only renames, casts, deduplicates and keys
 * rows; no computation. Rows after the batch date are left out (a batch is a cutoff).
 *
 * Staging knows no data set by name: each adapter of the table (`datasets/Registry.ts`) stages its own
 * files, in the table's order, into one context; later steps read what earlier ones staged (the
 * quota merge reads the renames; TAC reads the funds and series). Each step writes its tables to
 * the sink (the snapshot being built) as it stages them, and reads its files' data when it runs,
 * so that no more than one step's data is in memory at a time.
 *
 * A step that declares what it reads (`stageReads`) runs on a context that refuses anything else,
 * and gets a fingerprint of what it read: in a daily increment, a step whose fingerprint is the
 * previous snapshot's is not run, its tables are kept as they are in the copied file (see
 * pipeline/increment/Increment.ts).
 */
import { createHash } from "node:crypto"
import { Effect } from "effect"
import type { DataSetName } from "./datasets/DataSetName.ts"
import { dateToInt } from "../schemas/Dates.ts"
import type { QuotaCorrection, StagedStep } from "../snapshots/Manifest.ts"
import type { SeriesTable, SnapshotDatabase } from "../snapshots/Tables.ts"
import type { IncrementBase } from "./datasets/IncrementBase.ts"
import { coreOf, type StageContext, type StagedCore, type StageInput } from "./datasets/StageContext.ts"
import type { CmfFileInvalid } from "./cmf/CmfFileInvalid.ts"
import type { DataSetAdapter, StageReads } from "./datasets/DataSet.ts"
import type { LoadedFile } from "./datasets/LoadedFile.ts"

export type { StagedStep }

export interface StageInputs {
  /** The loaded files of each data set, in the ledger's order (newest observation last). */
  readonly files: ReadonlyMap<DataSetName, ReadonlyArray<LoadedFile>>
  /** Why the FI/ETF part is unavailable in this batch; null when it is available. */
  readonly fiUnavailable: string | null
}

/** Where the staged tables go: the snapshot being written. */
export interface StageSink {
  /** Rows of a table in key order; a table may come in several calls, each continuing the order. */
  readonly rows: <T extends keyof SnapshotDatabase>(table: T, rows: ReadonlyArray<SnapshotDatabase[T]>) => void
  /** The merged quota rows of one series; series come in asset-id order. */
  readonly quotas: StageContext["quotaSink"]
  /**
   * An increment's update of a table cut by month (`months` in its spec) instead of writing it
   * again: deletes its rows dated `from` (YYYYMMDD) or later; the rows put after it are added.
   */
  readonly deleteFrom: (table: keyof SnapshotDatabase, from: number) => void
}

export interface StageOptions {
  /** The increment's previous-snapshot facts: the quotas are merged from `base.from` on only (increment/Increment.ts); null: from nothing. */
  readonly base: IncrementBase | null
  /** The batch's inputs, in the ledger's order (the fingerprints are made of them). */
  readonly inputs: ReadonlyArray<StageInput>
  /** The previous snapshot's steps and batch date (its manifest): a step with the same fingerprint is reused, not run. */
  readonly previous: { readonly steps: Readonly<Record<string, StagedStep>>; readonly batchDate: string } | null
}

export interface StagedBatch {
  readonly meta: Record<string, string>
  /** The increment's previous-snapshot facts; null: a cold build. */
  readonly base: IncrementBase | null
  readonly series: ReadonlyArray<SeriesTable>
  readonly repairs: Record<string, number>
  /** Provisional values the cartola replaced with a different one (for the manifest). */
  readonly corrections: ReadonlyArray<QuotaCorrection>
  /** Series whose latest value is provisional, and the provisional rows (for the manifest). */
  readonly quotaSources: StagedCore["quotaSources"]
  /** Each reusable step's fingerprint, tables, repairs and meta (for the manifest: the next increment's reuse). */
  readonly steps: Record<string, StagedStep>
  /** The steps kept from the previous snapshot (not run), by data set, and their tables: left as they were. */
  readonly keptSteps: ReadonlyArray<string>
  readonly reusedTables: ReadonlyArray<string>
  /** Tables written by this build's steps. */
  readonly writtenTables: ReadonlyArray<string>
  /** Tables an increment updated from a date on (YYYYMMDD) instead of writing them again (`updateFrom`). */
  readonly updated: Readonly<Record<string, number>>
  /** Milliseconds each step took (its inserts included), by data set. */
  readonly timings: Readonly<Record<string, number>>
}

/** The core, for steps after the daily-values step. */
const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")

/** The core as a fingerprint sees it: administrators, funds, the known series and the aliases. */
const coreDigest = (core: StagedCore): string =>
  sha256(
    JSON.stringify([
      core.administrators,
      core.funds,
      [...core.known].sort((a, b) => a - b),
      [...core.aliasOf].sort((a, b) => a[0] - b[0]),
    ]),
  )

/**
 * The fingerprint of what a reusable step reads: its data sets' files (name and content, in the
 * ledger's order), the core when it reads it, whether the FI part is available when it asks, and
 * the batch date when it cuts rows by it and some of them are after it (when none is, every row is
 * staged whatever the date, and a later batch date gives the same tables).
 */
const fingerprint = (
  adapter: DataSetAdapter,
  reads: StageReads,
  context: StageContext,
  inputs: ReadonlyArray<StageInput>,
  core: () => string,
): string => {
  const dataSets = [adapter.name, ...(reads.dataSets ?? [])]
  const cut = (reads.cutoff ?? []).some((ds) => context.files(ds).some((f) => (f.latestDate ?? 0) > context.cutoff))
  return sha256(
    JSON.stringify({
      step: adapter.name,
      files: dataSets.map((ds) => [ds, inputs.filter((i) => i.data_set === ds).map((i) => [i.name, i.sha256])]),
      core: reads.core === true ? core() : null,
      fi_unavailable: reads.fiUnavailable === true ? context.fiUnavailable : null,
      cutoff: reads.cutoff === undefined ? null : cut ? context.cutoff : "every row",
    }),
  )
}

/**
 * The context of a reusable step: only what its `stageReads` declares (anything else throws), its
 * own repairs and meta, and the tables it writes recorded.
 */
const guarded = (
  context: StageContext,
  adapter: DataSetAdapter,
  reads: StageReads,
  record: { tables: Set<string>; repairs: Record<string, number>; meta: Record<string, string>; state?: unknown },
  previousStep: StageContext["previousStep"],
): StageContext => {
  const allowed = new Set<DataSetName>([adapter.name, ...(reads.dataSets ?? [])])
  const refuse = (what: string): never => {
    throw new Error(`staging step ${adapter.name} reads ${what}, which its stageReads does not declare (datasets/Registry.ts)`)
  }
  const files = (dataSet: DataSetName) => (allowed.has(dataSet) ? context.files(dataSet) : refuse(`the ${dataSet} files`))
  return {
    get batchDate() {
      return reads.cutoff === undefined ? refuse("the batch date") : context.batchDate
    },
    get cutoff() {
      return reads.cutoff === undefined ? refuse("the batch date") : context.cutoff
    },
    get fiUnavailable() {
      return reads.fiUnavailable === true ? context.fiUnavailable : refuse("whether the FI part is available")
    },
    get base() {
      return refuse("the increment's base")
    },
    files,
    records: <R>(dataSet: DataSetName) => files(dataSet).flatMap((f) => f.data() as ReadonlyArray<R>),
    repairs: record.repairs,
    get corrections() {
      return refuse("the quota corrections")
    },
    meta: record.meta,
    put: (table, rows) => {
      record.tables.add(table)
      context.put(table, rows)
    },
    inputs: (dataSet) => (allowed.has(dataSet) ? context.inputs(dataSet) : refuse(`the ${dataSet} files`)),
    previousStep,
    keep: (state) => {
      record.state = state
    },
    updateFrom: (table, from) => {
      record.tables.add(table)
      context.updateFrom(table, from)
    },
    get quotaSink() {
      return refuse("the quotas")
    },
    get relabel() {
      return refuse("the renames")
    },
    get renameAliases() {
      return refuse("the renames")
    },
    get administrators() {
      return refuse("the registry (the core's administrators are coreOf's)")
    },
    get funds() {
      return refuse("the registry (the core's funds are coreOf's)")
    },
    get core() {
      return reads.core === true ? context.core : refuse("the core")
    },
  } as StageContext
}

export const stage = (
  adapters: ReadonlyArray<DataSetAdapter>,
  inputs: StageInputs,
  batchDate: string,
  sink: StageSink,
  options: StageOptions,
): Effect.Effect<StagedBatch, CmfFileInvalid> =>
  Effect.gen(function* () {
    const files = (dataSet: DataSetName) => inputs.files.get(dataSet) ?? []
    const written = new Set<string>()
    const updated: Record<string, number> = {}
    const context: StageContext = {
      batchDate,
      cutoff: dateToInt(batchDate),
      fiUnavailable: inputs.fiUnavailable,
      base: options.base,
      files,
      records: <R>(dataSet: DataSetName) => files(dataSet).flatMap((f) => f.data() as ReadonlyArray<R>),
      repairs: {},
      corrections: [],
      meta: {},
      put: (table, rows) => {
        written.add(table)
        sink.rows(table, rows)
      },
      inputs: (dataSet) => options.inputs.filter((i) => i.data_set === dataSet),
      previousStep: null,
      keep: () => {
        throw new Error("staging: only a reusable step keeps state")
      },
      updateFrom: (table, from) => {
        if (options.base === null) throw new Error(`staging: ${table} updated from a date in a build from nothing`)
        written.add(table)
        updated[table] = from
        sink.deleteFrom(table, from)
      },
      quotaSink: sink.quotas,
      relabel: new Map(),
      renameAliases: [],
      administrators: new Map(),
      funds: new Map(),
      core: null,
    }
    const steps: Record<string, StagedStep> = {}
    const kept: string[] = []
    const reused: string[] = []
    let core: string | null = null
    const digestOfCore = () => (core ??= coreDigest(coreOf(context)))
    // One step: run, or kept when it is reusable and what it reads is what it read last time.
    const stageStep = (adapter: DataSetAdapter, step: NonNullable<DataSetAdapter["stage"]>) =>
      Effect.gen(function* () {
      const reads = adapter.stageReads
      if (reads === undefined) {
        yield* step(context)
        return
      }
      const print = fingerprint(adapter, reads, context, options.inputs, digestOfCore)
      const before = options.base === null ? undefined : options.previous?.steps[adapter.name]
      if (before !== undefined && before.fingerprint === print) {
        steps[adapter.name] = before
        kept.push(adapter.name)
        reused.push(...before.tables)
        Object.assign(context.repairs, before.repairs)
        Object.assign(context.meta, before.meta)
        return
      }
      const record: { tables: Set<string>; repairs: Record<string, number>; meta: Record<string, string>; state?: unknown } = {
        tables: new Set<string>(),
        repairs: {},
        meta: {},
      }
      const previousStep = before === undefined || options.previous === null ? null : { step: before, batchDate: options.previous.batchDate }
      yield* step(guarded(context, adapter, reads, record, previousStep))
      steps[adapter.name] = {
        fingerprint: print,
        tables: [...record.tables],
        repairs: record.repairs,
        meta: record.meta,
        ...(record.state === undefined ? {} : { state: record.state }),
      }
      Object.assign(context.repairs, record.repairs)
      Object.assign(context.meta, record.meta)
    })
    const timings: Record<string, number> = {}
    for (const adapter of adapters) {
      if (adapter.stage === undefined) continue
      const started = performance.now()
      yield* stageStep(adapter, adapter.stage)
      timings[adapter.name] = Math.round(performance.now() - started)
    }
    const staged = coreOf(context)
    return {
      meta: context.meta,
      base: options.base,
      series: staged.series,
      repairs: context.repairs,
      corrections: context.corrections,
      quotaSources: staged.quotaSources,
      steps,
      keptSteps: kept,
      reusedTables: reused,
      writtenTables: [...written],
      updated,
      timings,
    }
  })
