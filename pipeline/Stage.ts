/**
 * Staging: parsed inputs → the snapshot's tables. It only renames, casts, deduplicates and keys
 * rows; no computation. Rows after the batch date are left out (a batch is a cutoff).
 *
 * Staging knows no data set by name: each adapter of the table (`sources/Sources.ts`) stages its own
 * files, in the table's order, into one context; later steps read what earlier ones staged (the
 * quota merge reads the renames; TAC reads the funds and series).
 */
import { Effect } from "effect"
import type { DataSetName } from "../schemas/CmfRecords.ts"
import { dateToInt } from "../schemas/Dates.ts"
import type { AdministratorsTable, FundsTable, SeriesTable, SnapshotDatabase } from "../snapshots/Tables.ts"
import type { SeriesAliasesTable } from "../snapshots/tables/FmExtras.ts"
import type { IncrementBase } from "./Increment.ts"
import type { CmfFileInvalid } from "./sources/CmfFileInvalid.ts"
import type { DataSetAdapter, LoadedFile } from "./sources/DataSet.ts"
import type { QuotaCorrection, StagedQuotas } from "./staging/Quotas.ts"

export interface StageInputs {
  /** The loaded files of each data set, in the ledger's order (newest observation last). */
  readonly files: ReadonlyMap<DataSetName, ReadonlyArray<LoadedFile>>
  /** Why the FI/ETF part is unavailable in this batch; null when it is available. */
  readonly fiUnavailable: string | null
}

export interface StagedBatch {
  readonly meta: Record<string, string>
  /** The increment's previous-snapshot facts (quotas holds the rows from `base.from` on only); null: a cold build. */
  readonly base: IncrementBase | null
  readonly administrators: AdministratorsTable[]
  readonly funds: FundsTable[]
  readonly series: SeriesTable[]
  readonly quotas: StagedQuotas
  /** Every other table, ready to insert, in key order. */
  readonly tables: ReadonlyArray<readonly [keyof SnapshotDatabase, ReadonlyArray<unknown>]>
  readonly repairs: Record<string, number>
  /** Provisional values the cartola replaced with a different one (for the manifest). */
  readonly corrections: ReadonlyArray<QuotaCorrection>
}

/**
 * What the steps share. The core tables (administrators, funds, series, quotas) are built by the
 * registry, renames and daily-values steps; every other step adds tables of its own.
 */
export interface StageContext {
  readonly batchDate: string
  /** The batch date as YYYYMMDD. */
  readonly cutoff: number
  readonly fiUnavailable: string | null
  /** A daily increment: the quotas are merged from `base.from` on only (Increment.ts); null: from nothing. */
  readonly base: IncrementBase | null
  readonly files: (dataSet: DataSetName) => ReadonlyArray<LoadedFile>
  /** The records of one data set across its files, in the ledger's order (newest observation last). */
  readonly records: <R>(dataSet: DataSetName) => ReadonlyArray<R>
  readonly repairs: Record<string, number>
  readonly corrections: QuotaCorrection[]
  readonly meta: Record<string, string>
  readonly tables: Map<keyof SnapshotDatabase, ReadonlyArray<unknown>>
  /** Renamed series: "RUN|OLD LABEL" → new label (the renames step). */
  relabel: ReadonlyMap<string, string>
  /** Alias rows of the renames, before they are matched to known series. */
  renameAliases: ReadonlyArray<SeriesAliasesTable>
  /** By provider_id and by RUN; the registry step fills them, the daily-values step adds what the registry lacks. */
  readonly administrators: Map<number, AdministratorsTable>
  readonly funds: Map<number, FundsTable>
  /** Set by the daily-values step, with the series and everything keyed by them. */
  core: StagedCore | null
}

export interface StagedCore {
  readonly quotas: StagedQuotas
  readonly series: SeriesTable[]
  /** In key order. */
  readonly administrators: AdministratorsTable[]
  readonly funds: FundsTable[]
  /** Asset ids of the batch's series. */
  readonly known: ReadonlySet<number>
  /** alias_id → asset_id of the renames whose series is known. */
  readonly aliasOf: ReadonlyMap<number, number>
}

/** The core, for steps after the daily-values step. */
export const coreOf = (context: StageContext): StagedCore => {
  if (context.core === null) throw new Error("staging order: a step needs the series before the daily values were staged")
  return context.core
}

export const stage = (
  adapters: ReadonlyArray<DataSetAdapter>,
  inputs: StageInputs,
  batchDate: string,
  base: IncrementBase | null = null,
): Effect.Effect<StagedBatch, CmfFileInvalid> =>
  Effect.gen(function* () {
    const files = (dataSet: DataSetName) => inputs.files.get(dataSet) ?? []
    const context: StageContext = {
      batchDate,
      cutoff: dateToInt(batchDate),
      fiUnavailable: inputs.fiUnavailable,
      base,
      files,
      records: <R>(dataSet: DataSetName) => files(dataSet).flatMap((f) => f.data as ReadonlyArray<R>),
      repairs: {},
      corrections: [],
      meta: {},
      tables: new Map(),
      relabel: new Map(),
      renameAliases: [],
      administrators: new Map(),
      funds: new Map(),
      core: null,
    }
    for (const adapter of adapters) if (adapter.stage !== undefined) yield* adapter.stage(context)
    const core = coreOf(context)
    return {
      meta: context.meta,
      base,
      administrators: core.administrators,
      funds: core.funds,
      series: core.series,
      quotas: core.quotas,
      tables: [...context.tables],
      repairs: context.repairs,
      corrections: context.corrections,
    }
  })
