/**
 * Two hand-made batches a week apart, for the corrections feed: batch A (2026-03-06) and batch B
 * (2026-03-13), written with SnapshotWriter from the rows below. Every difference between them is
 * chosen here and listed in `expectedChanges` (test/changes/changes.test.ts), worked out by hand.
 *
 *   administrators  Alfa renamed; Gamma added
 *   funds           8043 renamed; 8106 ended in the registry (end_date, is_current); 9200 added; 8500 removed
 *   FM series       8043 A   January the same in both; 03-04 restated 1002 (BPR) → 1002.5 (cartola); 03-05/03-06 BPR → cartola, same values (no change)
 *                   8043 B   03-04 gap filled (→ 2500.75); 03-05 withdrawn (2501.5 →)
 *                   8043 APV stops at 03-06: ended by the grace rule (3 weekdays) in B
 *                   8043 I   last value 02-20 in A (ended), quotes again in B: resumed
 *                   8106 A   its fund ended: ended; 03-04 restated 2998 → 2998.5 (A's source unknown: BPR among cartola rows)
 *                   9105 B   renamed BPRIV (alias), and 03-03 restated 1.2345 → 1.235
 *                   9105 A   history extended back to 02-27 (first_date) — not a restated value
 *                   9200 A   appeared;  8500 A removed
 *   FM TAC          8043 A 2026-01 0.0133 → 0.0135; 2026-02 new in B (not listed); 8043 B 2025-12 withdrawn
 *   FI              instrument 9251 (FI) series UNICA 03-05 book value 10500.75 → 10501.25; its series B appeared;
 *                   ETF 9300 status active → inactive, fact sheet TAC 0.005 → 0.0045
 */
import { join } from "node:path"
import type { Manifest } from "../../snapshots/Manifest.ts"
import type { AdministratorsTable, FundsTable, QuotasTable, SeriesTable } from "../../snapshots/Tables.ts"
import type { FiFactSheetsTable, FiInstrumentsTable, FiPricesTable, FiSeriesTable } from "../../snapshots/tables/Fi.ts"
import type { QuotaSourcesTable, SeriesAliasesTable, TacTable } from "../../snapshots/tables/FmExtras.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"

export const provider = (rut: number): number => testCrc32(`agf:${rut}`)
export const concept = (run: number): number => testCrc32(`fm:${run}`)
export const asset = (run: number, serie: string): number => testCrc32(`fm:${run}:${serie}`)

export const ALFA = 96639280
export const BETA = 97004000
export const GAMMA = 76000001

/** FI/ETF ids: fixed UUID texts (the comparison never derives them). */
export const FI = {
  uno: "1b6f1a8e-0c39-5b1e-9d3a-000000009251",
  unoUnica: "2c7a2b9f-1d4a-5c2f-8e4b-000000009251",
  unoB: "3d8b3ca0-2e5b-5d30-9f5c-000000009251",
  dos: "4e9c4db1-3f6c-5e41-a06d-000000009300",
  dosUnica: "5fad5ec2-407d-5f52-b17e-000000009300",
} as const

/** Weekdays from `from` to `to`, both included, as YYYYMMDD integers. */
const weekdays = (from: string, to: string): number[] => {
  const out: number[] = []
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const d = new Date(t)
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(Number(d.toISOString().slice(0, 10).replaceAll("-", "")))
  }
  return out
}

/** Prices from `start`, up by `step` each weekday, with per-date overrides (a value, or null: no row). */
const quotas = (
  assetId: number,
  from: string,
  to: string,
  start: number,
  step: number,
  overrides: Record<number, number | null> = {},
): QuotasTable[] =>
  weekdays(from, to).flatMap((date, k) => {
    const price = date in overrides ? overrides[date]! : start + step * k
    return price === null ? [] : [{ asset_id: assetId, date, price, patrimony: null, holders: null, factor_ajuste: null, factor_reparto: null }]
  })

interface Batch {
  readonly batchDate: string
  readonly administrators: AdministratorsTable[]
  readonly funds: FundsTable[]
  readonly quotas: QuotasTable[]
  readonly tac: TacTable[]
  readonly quotaSources: QuotaSourcesTable[]
  readonly aliases: SeriesAliasesTable[]
  readonly fiInstruments: FiInstrumentsTable[]
  readonly fiSeries: FiSeriesTable[]
  readonly fiPrices: FiPricesTable[]
  readonly fiFactSheets: FiFactSheetsTable[]
  /** Series: run, label, currency (first and last dates come from the quotas). */
  readonly series: Array<[number, string, string]>
}

const admin = (rut: number, name: string): AdministratorsTable => ({ provider_id: provider(rut), rut, name })
const fund = (run: number, rut: number, name: string, endDate: string | null = null): FundsTable => ({
  concept_id: concept(run),
  run,
  provider_id: provider(rut),
  name,
  short_name: null,
  fund_type: 1,
  currency: "$$",
  start_date: "2020-01-02",
  end_date: endDate,
  is_current: endDate === null ? 1 : 0,
})
const tac = (run: number, serie: string, month: string, value: number): TacTable => ({
  asset_id: asset(run, serie),
  month,
  tac: value,
  tac_fixed: null,
  tac_variable: null,
  tac_expenses: null,
})
const instrument = (id: string, run: number, name: string, isEtf: boolean, status: string): FiInstrumentsTable => ({
  instrument_id: id,
  run,
  name,
  agf_name: "Alfa AGF S.A.",
  provider_id: provider(ALFA),
  regulatory_type: "FINRE",
  status,
  is_etf: isEtf ? 1 : 0,
  ticker: isEtf ? "DOS" : null,
  last_price_date: null,
})
const fiPrices = (serieId: string, from: string, to: string, start: number, overrides: Record<number, number> = {}): FiPricesTable[] =>
  weekdays(from, to).map((date, k) => ({
    serie_id: serieId,
    date,
    book_value: overrides[date] ?? start + 0.25 * k,
    economic_value: null,
    patrimony: null,
    total_assets: null,
    holders: null,
    institutional_holders: null,
  }))

export const batchA = (): Batch => ({
  batchDate: "2026-03-06",
  administrators: [admin(ALFA, "Alfa AGF S.A."), admin(BETA, "Beta AGF S.A.")],
  funds: [
    fund(8043, ALFA, "Fondo Mutuo Alfa Ahorro"),
    fund(8106, ALFA, "Fondo Mutuo Alfa Renta"),
    fund(9105, BETA, "Fondo Mutuo Beta Dólar"),
    fund(8500, BETA, "Fondo Mutuo Beta Cerrado"),
  ],
  series: [
    [8043, "A", "$$"],
    [8043, "B", "$$"],
    [8043, "APV", "$$"],
    [8043, "I", "$$"],
    [8106, "A", "$$"],
    [9105, "B", "PROM"],
    [9105, "A", "PROM"],
    [8500, "A", "$$"],
  ],
  quotas: [
    // January, the same in both batches (its quota month digest too); 03-02 1000, 03-03 1001, 03-04 1002 (BPR), 03-05 1003 (BPR), 03-06 1004 (BPR)
    ...quotas(asset(8043, "A"), "2026-01-05", "2026-01-09", 990, 1),
    ...quotas(asset(8043, "A"), "2026-03-02", "2026-03-06", 1000, 1),
    ...quotas(asset(8043, "B"), "2026-03-02", "2026-03-06", 2500, 0.5, { 20260304: null }),
    ...quotas(asset(8043, "APV"), "2026-03-02", "2026-03-06", 1500, 0.25),
    ...quotas(asset(8043, "I"), "2026-02-16", "2026-02-20", 1200, 1),
    ...quotas(asset(8106, "A"), "2026-03-02", "2026-03-06", 3000, -1),
    ...quotas(asset(9105, "B"), "2026-03-02", "2026-03-06", 1.2341, 0.0004, { 20260303: 1.2345 }),
    ...quotas(asset(9105, "A"), "2026-03-02", "2026-03-06", 1.1, 0.001),
    ...quotas(asset(8500, "A"), "2026-03-02", "2026-03-06", 800, 2),
  ],
  tac: [
    tac(8043, "A", "2025-12", 0.0132),
    tac(8043, "A", "2026-01", 0.0133),
    tac(8043, "B", "2025-11", 0.011),
    tac(8043, "B", "2025-12", 0.011),
    tac(8043, "B", "2026-01", 0.0112),
    tac(9105, "B", "2026-01", 0.02),
  ],
  quotaSources: [
    { asset_id: asset(8043, "A"), source: "fm_bpr_daily", rows: 3, first_date: 20260304, last_date: 20260306, latest_from_source: 1 },
    // one BPR row among the three from 03-03 to 03-05: which one the snapshot does not say
    { asset_id: asset(8106, "A"), source: "fm_bpr_daily", rows: 1, first_date: 20260303, last_date: 20260305, latest_from_source: 0 },
  ],
  aliases: [],
  fiInstruments: [instrument(FI.uno, 9251, "Fondo de Inversión Uno", false, "active"), instrument(FI.dos, 9300, "ETF Dos", true, "active")],
  fiSeries: [
    { serie_id: FI.unoUnica, instrument_id: FI.uno, run: 9251, serie: "UNICA", currency: "CLP" },
    { serie_id: FI.dosUnica, instrument_id: FI.dos, run: 9300, serie: "UNICA", currency: "USD" },
  ],
  fiPrices: [...fiPrices(FI.unoUnica, "2026-03-02", "2026-03-06", 10500), ...fiPrices(FI.dosUnica, "2026-03-02", "2026-03-06", 20)],
  fiFactSheets: [{ serie_id: FI.dosUnica, tac: 0.005, review: "REVISADA", sheet_date: "2025-12-31" }],
})

export const batchB = (): Batch => ({
  batchDate: "2026-03-13",
  administrators: [admin(ALFA, "Alfa Administradora General de Fondos S.A."), admin(BETA, "Beta AGF S.A."), admin(GAMMA, "Gamma AGF S.A.")],
  funds: [
    fund(8043, ALFA, "Fondo Mutuo Alfa Ahorro Plus"),
    fund(8106, ALFA, "Fondo Mutuo Alfa Renta", "2026-03-10"),
    fund(9105, BETA, "Fondo Mutuo Beta Dólar"),
    fund(9200, GAMMA, "Fondo Mutuo Gamma Nuevo"),
  ],
  series: [
    [8043, "A", "$$"],
    [8043, "B", "$$"],
    [8043, "APV", "$$"],
    [8043, "I", "$$"],
    [8106, "A", "$$"],
    [9105, "BPRIV", "PROM"],
    [9105, "A", "PROM"],
    [9200, "A", "$$"],
  ],
  quotas: [
    // 03-04 restated by the cartola: 1002.5; 03-12 and 03-13 from the BPR
    ...quotas(asset(8043, "A"), "2026-01-05", "2026-01-09", 990, 1),
    ...quotas(asset(8043, "A"), "2026-03-02", "2026-03-13", 1000, 1, { 20260304: 1002.5 }),
    // 03-04 now there (2500.75), 03-05 withdrawn
    ...quotas(asset(8043, "B"), "2026-03-02", "2026-03-13", 2500, 0.5, { 20260304: 2500.75, 20260305: null }),
    ...quotas(asset(8043, "APV"), "2026-03-02", "2026-03-06", 1500, 0.25),
    ...quotas(asset(8043, "I"), "2026-02-16", "2026-02-20", 1200, 1),
    ...quotas(asset(8043, "I"), "2026-03-09", "2026-03-13", 1210, 1),
    ...quotas(asset(8106, "A"), "2026-03-02", "2026-03-10", 3000, -1, { 20260304: 2998.5 }),
    ...quotas(asset(9105, "BPRIV"), "2026-03-02", "2026-03-13", 1.2341, 0.0004, { 20260303: 1.235 }),
    ...quotas(asset(9105, "A"), "2026-02-27", "2026-02-27", 1.099, 0),
    ...quotas(asset(9105, "A"), "2026-03-02", "2026-03-13", 1.1, 0.001),
    ...quotas(asset(9200, "A"), "2026-03-09", "2026-03-13", 100, 0.5),
  ],
  tac: [
    tac(8043, "A", "2025-12", 0.0132),
    tac(8043, "A", "2026-01", 0.0135),
    tac(8043, "A", "2026-02", 0.014),
    tac(8043, "B", "2025-11", 0.011),
    tac(8043, "B", "2026-01", 0.0112),
    tac(9105, "BPRIV", "2026-01", 0.02),
  ],
  quotaSources: [
    { asset_id: asset(8043, "A"), source: "fm_bpr_daily", rows: 2, first_date: 20260312, last_date: 20260313, latest_from_source: 1 },
  ],
  aliases: [
    {
      alias_id: asset(9105, "B"),
      asset_id: asset(9105, "BPRIV"),
      run: 9105,
      previous_serie: "B",
      current_serie: "BPRIV",
      first_current_date: 20260309,
    },
  ],
  fiInstruments: [instrument(FI.uno, 9251, "Fondo de Inversión Uno", false, "active"), instrument(FI.dos, 9300, "ETF Dos", true, "inactive")],
  fiSeries: [
    { serie_id: FI.unoUnica, instrument_id: FI.uno, run: 9251, serie: "UNICA", currency: "CLP" },
    { serie_id: FI.unoB, instrument_id: FI.uno, run: 9251, serie: "B", currency: "CLP" },
    { serie_id: FI.dosUnica, instrument_id: FI.dos, run: 9300, serie: "UNICA", currency: "USD" },
  ],
  fiPrices: [
    ...fiPrices(FI.unoUnica, "2026-03-02", "2026-03-13", 10500, { 20260305: 10501.25 }),
    ...fiPrices(FI.unoB, "2026-03-09", "2026-03-13", 900),
    ...fiPrices(FI.dosUnica, "2026-03-02", "2026-03-13", 20),
  ],
  fiFactSheets: [{ serie_id: FI.dosUnica, tac: 0.0045, review: "REVISADA", sheet_date: "2026-02-28" }],
})

const byKey = <T>(key: (row: T) => string | number) => (a: T, b: T) => {
  const x = key(a)
  const y = key(b)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Writes the batch as a snapshot file in `dir`: its path, and its manifest's digests (as the pipeline writes them). */
export const writeBatch = (
  dir: string,
  batch: Batch,
): { readonly path: string; readonly parts: Pick<Manifest, "content_hash" | "table_digests" | "quota_month_digests"> } => {
  const writer = new SnapshotWriter(dir)
  try {
    writer.insertAdministrators(batch.administrators)
    writer.insertFunds(batch.funds)
    const rows = [...batch.quotas].sort((a, b) => a.asset_id - b.asset_id || a.date - b.date)
    const series: SeriesTable[] = batch.series.map(([run, serie, currency]) => {
      const id = asset(run, serie)
      const dates = rows.filter((q) => q.asset_id === id).map((q) => q.date)
      return { asset_id: id, concept_id: concept(run), run, serie, currency, first_date: dates[0]!, last_date: dates[dates.length - 1]! }
    })
    writer.insertSeries(series)
    writer.insertQuotas(rows)
    writer.insertRows("tac", [...batch.tac].sort(byKey((t) => `${String(t.asset_id).padStart(10, "0")}${t.month}`)))
    writer.insertRows("quota_sources", batch.quotaSources)
    writer.insertRows("series_aliases", batch.aliases)
    writer.insertRows("fi_instruments", batch.fiInstruments)
    writer.insertRows("fi_series", batch.fiSeries)
    writer.insertRows("fi_prices", [...batch.fiPrices].sort(byKey((p) => `${p.serie_id}${p.date}`)))
    writer.insertRows("fi_fact_sheets", batch.fiFactSheets)
    const finished = writer.finish(batch.batchDate)
    return {
      path: join(dir, finished.file),
      parts: { content_hash: finished.contentHash, table_digests: finished.digests.tables, quota_month_digests: finished.digests.quotaMonths },
    }
  } catch (e) {
    writer.abort()
    throw e
  }
}
