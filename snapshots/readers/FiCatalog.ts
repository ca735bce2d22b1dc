/**
 * The investment-fund (FI/ETF) catalog of one snapshot: whether the batch has FI data, its shared
 * cutoff, instruments, series, last book values and fact sheets. The catalog tables are small
 * (hundreds to a few thousand rows), so they are read once per snapshot and kept with it; the
 * per-series statements are prepared once per snapshot too. The catalog is kept on the snapshot's
 * memo (../SnapshotMemo.ts), so it goes away when the snapshot closes.
 */
import type { SnapshotData } from "../Reader.ts"
import { memoOf } from "../SnapshotMemo.ts"
import type { FiFactSheetsTable, FiInstrumentsTable, FiPricesTable, FiSeriesTable } from "../tables/Fi.ts"

/** Whether the batch carries FI data; when not, the pipeline's reason (meta `fi_unavailable_reason`). */
export type FiAvailability = { readonly available: true } | { readonly available: false; readonly reason: string }

export interface FiCatalog {
  readonly availability: FiAvailability
  /** YYYY-MM-DD: the latest book-value date of any instrument (the batch date when there is none). */
  readonly cutoff: string
  /** Every instrument, ordered by name, then RUN. */
  readonly instruments: ReadonlyArray<FiInstrumentsTable>
  readonly instrument: (instrumentId: string) => FiInstrumentsTable | undefined
  /** The instrument's series, ordered by label. */
  readonly seriesOf: (instrumentId: string) => ReadonlyArray<FiSeriesTable>
  readonly serie: (serieId: string) => FiSeriesTable | undefined
  /** The series' last book-value row (the batch holds none after the batch date). */
  readonly lastPrice: (serieId: string) => FiPricesTable | undefined
  readonly factSheet: (serieId: string) => FiFactSheetsTable | undefined
}

const byNameThenRun = (a: FiInstrumentsTable, b: FiInstrumentsTable): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.run - b.run

const groupBy = <K, V>(rows: ReadonlyArray<V>, key: (v: V) => K): Map<K, V[]> => {
  const out = new Map<K, V[]>()
  for (const row of rows) {
    const list = out.get(key(row))
    if (list === undefined) out.set(key(row), [row])
    else list.push(row)
  }
  return out
}

const load = (reader: SnapshotData): FiCatalog => {
  const db = reader.db
  const meta = new Map(
    (db.prepare("SELECT key, value FROM meta WHERE key IN ('fi_status', 'fi_unavailable_reason')").all() as Array<{
      key: string
      value: string
    }>).map((r) => [r.key, r.value]),
  )
  const status = meta.get("fi_status")
  // A snapshot that does not say it has FI data (an older or partial batch) is treated as without it.
  const availability: FiAvailability =
    status === "available"
      ? { available: true }
      : { available: false, reason: meta.get("fi_unavailable_reason") ?? (status === undefined ? "not_in_batch" : status) }
  const instruments = (db.prepare("SELECT * FROM fi_instruments").all() as FiInstrumentsTable[]).sort(byNameThenRun)
  const series = db.prepare("SELECT * FROM fi_series ORDER BY instrument_id, serie").all() as FiSeriesTable[]
  const byInstrument = groupBy(series, (s) => s.instrument_id)
  const instrumentById = new Map(instruments.map((i) => [i.instrument_id, i]))
  const serieById = new Map(series.map((s) => [s.serie_id, s]))
  const lastPriceStmt = db.prepare("SELECT * FROM fi_prices WHERE serie_id = ? ORDER BY date DESC LIMIT 1")
  const factSheetStmt = db.prepare("SELECT * FROM fi_fact_sheets WHERE serie_id = ?")
  const cutoff =
    (db.prepare("SELECT max(last_price_date) AS d FROM fi_instruments").get() as { d: string | null }).d ?? reader.batchDate
  return {
    availability,
    cutoff,
    instruments,
    instrument: (id) => instrumentById.get(id),
    seriesOf: (id) => byInstrument.get(id) ?? [],
    serie: (id) => serieById.get(id),
    lastPrice: (id) => lastPriceStmt.get(id) as FiPricesTable | undefined,
    factSheet: (id) => factSheetStmt.get(id) as FiFactSheetsTable | undefined,
  }
}

/** The FI catalog of `reader`'s snapshot, read on first use. */
export const fiCatalog = (reader: SnapshotData): FiCatalog => memoOf(reader.db).memo("fi-catalog", () => load(reader))

/** The FI/ETF data's shared cutoff date (YYYY-MM-DD) of the snapshot: price and TAC statuses are relative to it. */
export const fiCutoff = (reader: SnapshotData): string => fiCatalog(reader).cutoff
