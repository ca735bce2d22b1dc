/**
 * The FI/ETF part of the test snapshot; every value is chosen here (RUN check digits worked out by
 * hand with módulo 11), so tests compare the API with these values, never with its own output.
 * The FM part is fixture A of test/support/snapshotFixture.ts (batch 2026-02-06, a Friday) plus
 * one FM administrator without FI ("Epsilon AGF S.A.", RUT 76543210-3).
 *
 * | RUN    | name (abridged)  | administrator (FI list)   | type  | status   | series       | last value  |
 * | 9251-7 | ALFA RENTA INMOB | ALFA AGF S.A. = FM Alfa   | FIRES | active   | A, I (CLP)   | 2026-02-06  |
 * | 7003-3 | ETF GAMMA IPSA   | GAMMA CAPITAL … (FI only) | FIRES | active   | UNICA (USD)  | 2026-02-05  |
 * | 7010-6 | GAMMA DEUDA COL. | GAMMA CAPITAL …           | FINRE | active   | UNICA (COP)  | 2025-12-31  |
 * | 7020-3 | BETA PRIV. EQ.   | BETA AGF S.A. = FM Beta   | FINRE | active   | none         | none        |
 * | 7030-0 | DELTA SECUNDAR.  | DELTA INVERSIONES AGF S.A.| FIRES | inactive | A, B (CLP)   | 2025-08-29  |
 * | 7040-8 | DELTA INFRAEST.  | DELTA INVERSIONES AGF S.A.| FINRE | unknown  | none         | none        |
 */
import type {
  FiFactSheetsTable,
  FiInstrumentsTable,
  FiPricesTable,
  FiSeriesTable,
} from "../../snapshots/tables/Fi.ts"
import type { Article107Table } from "../../snapshots/tables/FmExtras.ts"
import { testInstrumentId, testProviderByName, testProviderByRut, testSerieId } from "./fiIds.ts"

export const ALFA = testProviderByRut(96639280)
export const BETA = testProviderByRut(97004000)
export const GAMMA_NAME = "GAMMA CAPITAL ADMINISTRADORA GENERAL DE FONDOS S.A."
export const DELTA_NAME = "DELTA INVERSIONES AGF S.A."
export const GAMMA = testProviderByName(GAMMA_NAME)
export const DELTA = testProviderByName(DELTA_NAME)
export const EPSILON = { rut: 76543210, dv: "3", name: "Epsilon AGF S.A.", providerId: testProviderByRut(76543210) }

const instrument = (
  run: number,
  name: string,
  agf: string,
  provider: number,
  type: "FIRES" | "FINRE",
  status: string,
  ticker: string | null,
  last: string | null,
): FiInstrumentsTable => ({
  instrument_id: testInstrumentId(run),
  run,
  name,
  agf_name: agf,
  provider_id: provider,
  regulatory_type: type,
  status,
  is_etf: ticker === null ? 0 : 1,
  ticker,
  last_price_date: last,
})

export const INSTRUMENTS: ReadonlyArray<FiInstrumentsTable> = [
  instrument(9251, "FONDO DE INVERSIÓN ALFA RENTA INMOBILIARIA", "ALFA AGF S.A.", ALFA, "FIRES", "active", null, "2026-02-06"),
  instrument(7003, "ETF GAMMA IPSA", GAMMA_NAME, GAMMA, "FIRES", "active", "CFIETFGAM", "2026-02-05"),
  instrument(7010, "FONDO DE INVERSIÓN GAMMA DEUDA COLOMBIA", GAMMA_NAME, GAMMA, "FINRE", "active", null, "2025-12-31"),
  instrument(7020, "FONDO DE INVERSIÓN BETA PRIVATE EQUITY", "BETA AGF S.A.", BETA, "FINRE", "active", null, null),
  instrument(7030, "FONDO DE INVERSIÓN DELTA SECUNDARIOS", DELTA_NAME, DELTA, "FIRES", "inactive", null, "2025-08-29"),
  instrument(7040, "FONDO DE INVERSIÓN DELTA INFRAESTRUCTURA", DELTA_NAME, DELTA, "FINRE", "unknown", null, null),
]

const serie = (run: number, label: string, currency: string): FiSeriesTable => ({
  serie_id: testSerieId(run, label),
  instrument_id: testInstrumentId(run),
  run,
  serie: label,
  currency,
})

export const SERIES: ReadonlyArray<FiSeriesTable> = [
  serie(9251, "A", "CLP"),
  serie(9251, "I", "CLP"),
  serie(7003, "UNICA", "USD"),
  serie(7010, "UNICA", "COP"),
  serie(7030, "A", "CLP"),
  serie(7030, "B", "CLP"),
]

/** [date, book value, economic value, patrimony, total assets, holders, institutional holders] */
type P = [string, number, number | null, number | null, number | null, number | null, number | null]
const prices = (run: number, label: string, rows: ReadonlyArray<P>): FiPricesTable[] =>
  rows.map(([date, book, eco, patrimony, assets, holders, inst]) => ({
    serie_id: testSerieId(run, label),
    date: Number(date.replaceAll("-", "")),
    book_value: book,
    economic_value: eco,
    patrimony,
    total_assets: assets,
    holders,
    institutional_holders: inst,
  }))

export const PRICES: ReadonlyArray<FiPricesTable> = [
  ...prices(9251, "A", [
    ["2026-02-02", 10500.25, 10610.5, 2_100_000_000, 3_050_000_000, 310, 4],
    ["2026-02-03", 10501.5, 10611.75, 2_101_000_000, 3_051_000_000, 311, 4],
    ["2026-02-04", 10502.75, null, 2_102_000_000, 3_052_000_000, 311, 4],
    ["2026-02-05", 10504, 10613, null, null, null, null],
    ["2026-02-06", 10505.25, 10614.5, 2_110_000_000, 3_060_000_000, 315, 5],
  ]),
  ...prices(9251, "I", [
    ["2026-02-03", 10800.5, 10900.25, 900_000_000, 3_051_000_000, 12, 9],
    ["2026-02-06", 10803.25, 10903, 905_000_000, 3_060_000_000, 12, 10],
  ]),
  ...prices(7003, "UNICA", [
    ["2026-02-04", 101.5, 101.25, 40_000_000, 40_100_000, 850, 20],
    ["2026-02-05", 102.25, 102, 40_300_000, 40_400_000, 851, 20],
  ]),
  ...prices(7010, "UNICA", [
    ["2025-12-30", 9500.5, null, 55_000_000_000, 56_000_000_000, 40, 2],
    ["2025-12-31", 9510.75, null, 55_060_000_000, 56_060_000_000, 40, 2],
  ]),
  // 7030: B reports a day after A, so B is the main series although A comes first by label.
  ...prices(7030, "A", [
    ["2025-08-27", 5000.5, null, 300_000_000, null, 30, 0],
    ["2025-08-28", 5001.25, null, 300_100_000, null, 30, 0],
  ]),
  ...prices(7030, "B", [
    ["2025-08-28", 5100.5, null, 100_000_000, null, 8, 1],
    ["2025-08-29", 5101.75, null, 100_050_000, null, 8, 1],
  ]),
]

const sheet = (run: number, label: string, tac: number | null, review: string, date: string | null): FiFactSheetsTable => ({
  serie_id: testSerieId(run, label),
  tac,
  review,
  sheet_date: date,
})

/** 9251 A: reviewed 129 days before the cutoff (available); I: pending; 7003: conflict; 7010: no TAC; 7030: old or undated. */
export const FACT_SHEETS: ReadonlyArray<FiFactSheetsTable> = [
  sheet(9251, "A", 0.0125, "REVISADA", "2025-09-30"),
  sheet(9251, "I", 0.008, "PENDIENTE", "2025-12-31"),
  sheet(7003, "UNICA", 0.004, "CONFLICTO", "2025-11-30"),
  sheet(7010, "UNICA", null, "NO_INFORMADA", "2025-10-31"),
  sheet(7030, "A", 0.017, "REVISADA", null),
  sheet(7030, "B", 0.018, "REVISADA", "2024-06-30"),
]

export const ARTICLE107: ReadonlyArray<Article107Table> = [
  {
    run: 9251,
    status: "declares_eligible",
    regulation_date: "2025-03-01",
    evidence: JSON.stringify([{ line: 12, text: "El Fondo se acogerá al artículo 107." }]),
    series_exception: JSON.stringify(["I"]),
  },
]
