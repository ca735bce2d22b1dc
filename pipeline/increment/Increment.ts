/**
 * The daily increment: a batch built from the previous batch's snapshot instead of from nothing.
 *
 * The quota merge (datasets/fm/Quotas.ts) decides each (series, date) from the rows of that series and
 * date alone, except a provisional value, judged against the series' previous kept value. So if
 * every input with a row before a date `from` is the same in both batches, and the previous
 * batch's cutoff was at least the day before `from`, the rows before `from` are the same in both
 * batches, and so are the previous snapshot's. The increment copies that file, deletes its quota
 * rows from `from` on, and merges again only the rows from `from` on (with each series' last value
 * before `from` as the provisional check's previous value); the series' names and currencies are
 * settled over every input's series list, as the cold merge does. Every other table is staged
 * again from its inputs and rewritten; the computed tables are computed again. The content hash
 * is canonical (the same rows give the same hash, however built): it re-hashes the quota months
 * from `from`'s month and every other table, and takes the earlier months' digests from the
 * previous manifest. `pipeline reproduce` builds from nothing and must give the same hash
 * (test/pipeline/Increment.test.ts checks increments against cold builds).
 *
 * `from` is the earliest of: the day after the previous batch date, the first date of every new or
 * withdrawn daily-values file, and the first provisional (BPR) value the previous snapshot holds
 * (so that every provisional row is merged again). The build falls back to a cold one, saying why
 * in the manifest, when: no previous snapshot is published (or it is of this date or later), its
 * manifest lacks the digests or is of another format or pipeline version, the renames or the FM
 * registry changed (they relabel and describe the whole history), a withdrawn file's dates are
 * unknown, or `from` is more than MAX_REGION_MONTHS before the batch date (a restatement that old
 * rewrites most of the history: the cold build does it faster).
 */

import { existsSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { dateToInt, intToDate } from "../../schemas/Dates.ts"
import { type Manifest, readManifest } from "../../snapshots/Manifest.ts"
import { FORMAT_VERSION, type SnapshotDatabase, TABLES } from "../../snapshots/Tables.ts"
import { COMPUTED_TABLES } from "../../snapshots/tables/Computed.ts"
import type { IncrementFinish, SnapshotWriter } from "../../snapshots/Writer.ts"
import type { ComputeIncrement } from "../compute/Computation.ts"
import { COMPUTATIONS } from "../compute/Computations.ts"
import type { BaseSeries, IncrementBase } from "../datasets/IncrementBase.ts"
import type { LoadedInputs } from "../LoadedInputs.ts"
import type { RawFileObserved } from "../ledger/Ledger.ts"
import type { DataSetAdapter } from "../datasets/DataSet.ts"
import { ADAPTERS } from "../datasets/Registry.ts"
import type { ParsedCache } from "../ParsedCache.ts"
import { printableName } from "../cmf/PrintableName.ts"
import { PIPELINE_VERSION } from "../Version.ts"

/** A restatement further back than this rebuilds from nothing. */
export const MAX_REGION_MONTHS = 24

/** Data sets whose inputs must be the same for an increment (they relabel or describe the whole history). */
const WHOLE_HISTORY: ReadonlyArray<DataSetAdapter> = ADAPTERS.filter((a) => a.wholeHistory === true)
/** Data sets merged into the quotas. */
const DAILY_VALUES: ReadonlyArray<DataSetAdapter> = ADAPTERS.filter((a) => a.dailyValues === true)

/** The previous published snapshot a daily build may start from. */
export interface PreviousSnapshot {
  readonly dir: string
  readonly file: string
}

export type IncrementPlan =
  | { readonly kind: "increment"; readonly path: string; readonly manifest: Manifest; readonly base: IncrementBase }
  | { readonly kind: "cold"; readonly reason: string }

const cold = (reason: string): IncrementPlan => ({ kind: "cold", reason })

const shasOf = (inputs: ReadonlyArray<{ readonly data_set: string; readonly sha256: string }>, dataSet: string): string =>
  inputs
    .filter((i) => i.data_set === dataSet)
    .map((i) => i.sha256)
    .join(",")

/** YYYYMMDD `months` calendar months before `date`'s month, on its first day. */
const monthsBefore = (date: number, months: number): number => {
  const y = Math.floor(date / 10000)
  const m = Math.floor(date / 100) % 100
  const k = y * 12 + (m - 1) - months
  return Math.floor(k / 12) * 10000 + ((k % 12) + 1) * 100 + 1
}

/** The first date a withdrawn daily-values file held, from the parse cache; null when unknown. */
const firstDateOf = (
  adapter: DataSetAdapter,
  input: { readonly name: string; readonly sha256: string },
  cache: ParsedCache["Service"] | null,
): number | null => {
  if (cache === null) return null
  const entry = { sha256: input.sha256, name: input.name }
  if (adapter.firstDates !== undefined) return adapter.firstDates.cached(cache, entry)
  const parsed = cache.getRecords(entry)
  if (parsed === undefined) return null
  let first: number | null = null
  for (const r of parsed.records as ReadonlyArray<{ readonly date?: unknown }>) {
    if (typeof r.date !== "string") return null
    const d = dateToInt(r.date)
    if (first === null || d < first) first = d
  }
  return first ?? 0
}

/**
 * Whether the batch of `batchDate` can be built from `previous`, and from which date on; read-only
 * (the previous snapshot is opened read-only for its series and provisional values).
 */
export const planIncrement = (
  previous: PreviousSnapshot | null,
  inputs: ReadonlyArray<RawFileObserved>,
  loaded: LoadedInputs,
  batchDate: string,
  cache: ParsedCache["Service"] | null,
): IncrementPlan => {
  if (previous === null) return cold("no previous snapshot")
  const path = join(previous.dir, previous.file)
  if (!existsSync(path)) return cold(`the previous snapshot ${previous.file} is not on disk`)
  let manifest: Manifest
  try {
    manifest = readManifest(previous.dir, previous.file)
  } catch (e) {
    return cold(`the previous snapshot's manifest cannot be read (${String(e)})`)
  }
  if (manifest.batch_date >= batchDate) return cold(`the previous snapshot is of ${manifest.batch_date}, not before ${batchDate}`)
  if (manifest.format_version !== FORMAT_VERSION) return cold(`the previous snapshot is of format ${manifest.format_version}`)
  if (manifest.pipeline_version !== PIPELINE_VERSION) return cold(`the previous snapshot was built by pipeline ${manifest.pipeline_version}`)
  if (manifest.table_digests === undefined || manifest.quota_month_digests === undefined) return cold("the previous manifest has no table digests")
  for (const { name } of WHOLE_HISTORY) {
    if (shasOf(manifest.inputs, name) !== shasOf(inputs, name)) return cold(`the ${name} inputs changed`)
  }
  const cutoff = dateToInt(batchDate)
  let from = dateToInt(manifest.batch_date) + 1
  const before = new Set(manifest.inputs.map((i) => i.sha256))
  const now = new Set(inputs.map((i) => i.sha256))
  // New daily-values files: their first date (as loaded).
  for (const adapter of DAILY_VALUES) {
    for (const file of loaded.files.get(adapter.name) ?? []) {
      const input = inputs.find((i) => i.data_set === adapter.name && i.name === file.name && !before.has(i.sha256))
      if (input === undefined) continue
      const first = adapter.firstDates?.loaded(file) ?? file.firstDate ?? 0
      if (first > 0) from = Math.min(from, first)
    }
  }
  // Withdrawn or replaced daily-values files: their first date, from the parse cache.
  for (const input of manifest.inputs) {
    const adapter = DAILY_VALUES.find((a) => a.name === input.data_set)
    if (adapter === undefined || now.has(input.sha256)) continue
    const first = firstDateOf(adapter, input, cache)
    if (first === null) return cold(`the dates of the withdrawn ${input.data_set} file ${printableName(input.name)} are unknown`)
    if (first > 0) from = Math.min(from, first)
  }
  let db: Database.Database | null = null
  try {
    db = new Database(path, { readonly: true, fileMustExist: true })
    const provisional = db.prepare("SELECT min(first_date) FROM quota_sources").pluck().get() as number | null
    if (provisional !== null) from = Math.min(from, provisional)
    if (from < monthsBefore(cutoff, MAX_REGION_MONTHS)) {
      return cold(`values from ${intToDate(from)} on changed, more than ${MAX_REGION_MONTHS} months before ${batchDate}`)
    }
    const last = db.prepare("SELECT date, price FROM quotas WHERE asset_id = ? AND date < ? ORDER BY date DESC LIMIT 1").raw(true)
    const seed = new Map<number, number>()
    const series: BaseSeries[] = []
    for (const s of db.prepare("SELECT asset_id, first_date, last_date FROM series ORDER BY asset_id").all() as Array<Omit<BaseSeries, "lastBefore">>) {
      const row = last.get(s.asset_id, from) as [number, number] | undefined
      if (row !== undefined) seed.set(s.asset_id, row[1])
      series.push({ ...s, lastBefore: row?.[0] ?? null })
    }
    return { kind: "increment", path, manifest, base: { from, seed, series } }
  } catch (e) {
    return cold(`the previous snapshot cannot be read (${String(e)})`)
  } finally {
    db?.close()
  }
}

/**
 * How the writer ends an increment (Writer.ts's IncrementFinish): the previous snapshot's digests
 * and row counts of what this build did not change (the tables it kept, the quota months before
 * `month`, each month-cut table's months before the day it was updated from), so that only the
 * rest is hashed again.
 */
export const incrementFinish = (
  previous: Manifest,
  /** YYYYMM01: the increment's month. */
  month: number,
  /** The tables this build kept as they were. */
  reused: ReadonlySet<string>,
  /** The tables updated from a day (YYYYMMDD), by name. */
  updated: Readonly<Record<string, number>>,
): IncrementFinish => {
  const kept = (from: Readonly<Record<string, string | number>> | undefined) =>
    Object.fromEntries([...reused].flatMap((name) => (from?.[name] === undefined ? [] : [[name, from[name]]])))
  return {
    quotaMonths: previous.quota_month_digests!,
    quotasFrom: month,
    tables: kept(previous.table_digests) as Record<string, string>,
    counts: kept(previous.row_counts) as Record<string, number>,
    quotaRows: previous.row_counts.quotas ?? null,
    months: keptMonths(previous, reused, updated),
  }
}

/**
 * The month digests an increment takes from the previous manifest for each table cut by month:
 * all of them for a table it kept, those before the month it was updated from otherwise (none
 * for a table written again).
 */
const keptMonths = (
  previous: Manifest,
  reused: ReadonlySet<string>,
  updated: Readonly<Record<string, number>>,
): NonNullable<IncrementFinish["months"]> => {
  const out: Record<string, { digests: Readonly<Record<string, string>>; from: number }> = {}
  for (const table of TABLES) {
    const digests = previous.table_month_digests?.[table.name]
    if (table.months === undefined || digests === undefined) continue
    const from = updated[table.name]
    if (reused.has(table.name)) out[table.name] = { digests, from: Number.MAX_SAFE_INTEGER }
    else if (from !== undefined) out[table.name] = { digests, from: Math.floor(from / 100) * 100 + 1 }
  }
  return out
}

/** The tables staging writes (every table but the quotas, meta and the computed ones). */
const STAGED_TABLES: ReadonlyArray<keyof SnapshotDatabase> = TABLES.map((t) => t.name).filter(
  (name) => name !== "quotas" && name !== "meta" && !COMPUTED_TABLES.some((c) => c.name === name),
)

const INCREMENTAL = COMPUTATIONS.flatMap((c) => (c.incremental === undefined ? [] : [{ c, spec: c.incremental }]))

/** What each incremental computation's rows before `month` read, in the previous snapshot (the copy, before staging). */
export const computedInputsBefore = (db: Database.Database, month: number): ReadonlyMap<string, string> =>
  new Map(INCREMENTAL.map(({ c, spec }) => [c.name, spec.inputsBefore(db, month)]))

/**
 * Readies the copy for the compute phase: a staged table this build neither wrote nor kept is
 * emptied; a computation continues from `month` (its rows before it kept) when what those rows
 * read is the same as in the previous snapshot (`before`, computedInputsBefore's) and it can,
 * every other computed table emptied; the meta table starts again. Gives the computations that
 * continue, by name.
 */
export const readyForCompute = (
  writer: SnapshotWriter,
  previous: Manifest,
  month: number,
  written: ReadonlySet<string>,
  reused: ReadonlySet<string>,
  before: ReadonlyMap<string, string>,
): Record<string, ComputeIncrement> => {
  const increments: Record<string, ComputeIncrement> = {}
  for (const table of STAGED_TABLES) if (!written.has(table) && !reused.has(table)) writer.clearTable(table)
  const continued = new Set<string>()
  for (const { c, spec } of INCREMENTAL) {
    const state = previous.compute_state?.[c.name]
    if (spec.inputsBefore(writer.db, month) !== before.get(c.name) || !spec.canContinue(writer.db, month, state)) continue
    spec.deleteFrom(writer.db, month)
    increments[c.name] = { from: month, state }
    for (const table of spec.tables) continued.add(table)
  }
  for (const table of COMPUTED_TABLES) if (!continued.has(table.name)) writer.clearTable(table.name as keyof SnapshotDatabase)
  writer.clearTable("meta")
  writer.insertMeta({ format_version: String(FORMAT_VERSION) })
  return increments
}
