/**
 * What a staging step is given (the port's `stage`, datasets/DataSet.ts): the batch, its files,
 * what earlier steps staged, and where its tables go. Stage.ts makes it and runs the steps; a
 * reusable step gets one that refuses what its `stageReads` does not declare.
 */
import type { DataSetName } from "./DataSetName.ts"
import type { StagedStep } from "../../snapshots/Manifest.ts"
import type { AdministratorsTable, FundsTable, SeriesTable, SnapshotDatabase } from "../../snapshots/Tables.ts"
import type { SeriesAliasesTable } from "../../snapshots/tables/FmExtras.ts"
import type { IncrementBase } from "./IncrementBase.ts"
import type { LoadedFile } from "./LoadedFile.ts"
import type { QuotaCorrection, QuotaSink } from "./fm/Quotas.ts"
import { assetId } from "../../schemas/Ids.ts"

/** An input file as the fingerprints name it: its data set, name and content. */
export interface StageInput {
  readonly data_set: string
  readonly name: string
  readonly sha256: string
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
  /** A daily increment: the quotas are merged from `base.from` on only (increment/Increment.ts); null: from nothing. */
  readonly base: IncrementBase | null
  readonly files: (dataSet: DataSetName) => ReadonlyArray<LoadedFile>
  /** The records of one data set across its files, in the ledger's order (newest observation last). */
  readonly records: <R>(dataSet: DataSetName) => ReadonlyArray<R>
  readonly repairs: Record<string, number>
  readonly corrections: QuotaCorrection[]
  readonly meta: Record<string, string>
  /** Writes a staged table's rows, in key order. */
  readonly put: <T extends keyof SnapshotDatabase>(table: T, rows: ReadonlyArray<SnapshotDatabase[T]>) => void
  /** The batch's input files of a data set (name and content), in the ledger's order. */
  readonly inputs: (dataSet: DataSetName) => ReadonlyArray<StageInput>
  /**
   * A reusable step's own record in the previous snapshot, with that batch's date, when this
   * build is an increment of it (the step may then update its tables instead of writing them
   * again); null otherwise.
   */
  readonly previousStep: { readonly step: StagedStep; readonly batchDate: string } | null
  /** Keeps a value in the step's record for the next build (`previousStep.step.state`). */
  readonly keep: (state: unknown) => void
  /** An increment: the table keeps its rows before `from` (YYYYMMDD); the step's rows put after this are added to them. */
  readonly updateFrom: (table: keyof SnapshotDatabase, from: number) => void
  /** Where the merged quotas go (the daily-values step). */
  readonly quotaSink: QuotaSink
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

/** The core a step keyed by fund or series reads; staged by the daily values, before it. */
export const coreOf = (context: StageContext): StagedCore => {
  if (context.core === null) throw new Error("staging order: a step needs the series before the daily values were staged")
  return context.core
}

export interface StagedCore {
  readonly series: ReadonlyArray<SeriesTable>
  /** In key order. */
  readonly administrators: ReadonlyArray<AdministratorsTable>
  readonly funds: ReadonlyArray<FundsTable>
  /** Asset ids of the batch's series. */
  readonly known: ReadonlySet<number>
  /** alias_id → asset_id of the renames whose series is known. */
  readonly aliasOf: ReadonlyMap<number, number>
  /** Series whose latest value is provisional, and the provisional rows. */
  readonly quotaSources: { readonly bpr_series: number; readonly bpr_rows: number }
}

/** The asset id of a series the core knows, by its label or a renamed label's alias; null when it knows none. */
export const knownSeriesId = (run: number, serie: string, known: ReadonlySet<number>, aliasOf: ReadonlyMap<number, number>): number | null => {
  const raw = assetId(run, serie)
  const id = aliasOf.get(raw) ?? raw
  return known.has(id) ? id : null
}
