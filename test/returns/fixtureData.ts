/**
 * Hand-chosen data for the returns routes, batch 2026-03-31 (a Tuesday, a month end). Every
 * number the tests expect is worked out from the values below, never from the code's output.
 * Ids are the test's own CRC32 of the natural keys (test/support/snapshotFixture.ts).
 *
 * Funds (RUN check digits as in the catalog fixture): 8043-8 (CLP), 9105-7 (USD "PROM"), 8106-K
 * (EUR, and one series without a currency).
 */
import { testCrc32, weekdays } from "../support/snapshotFixture.ts"

export const BATCH_DATE = "2026-03-31"

/** [YYYY-MM-DD, price, FACTOR DE REPARTO?, FACTOR DE AJUSTE?] */
export type QuotaRow = readonly [string, number, (number | null)?, (number | null)?]

export interface SeriesData {
  readonly run: number
  readonly serie: string
  readonly currency: string | null
  readonly assetId: number
  readonly quotas: ReadonlyArray<QuotaRow>
}

const series = (run: number, serie: string, currency: string | null, quotas: ReadonlyArray<QuotaRow>): SeriesData => ({
  run,
  serie,
  currency,
  assetId: testCrc32(`fm:${run}:${serie}`),
  quotas,
})

/**
 * 8043 A, CLP: one base quote per window at the batch cutoff (targets in brackets), plus traps:
 * 2026-03-03 (what a JS Date would make of 31 Mar − 1 month), 2023-03-01 (of 29 Feb 2024 − 1y).
 */
export const ALL_WINDOWS = series(8043, "A", "$$", [
  ["2021-03-31", 66.55], // 5y [2021-03-31]
  ["2023-02-28", 90], // 1y base at the 2024-02-29 cutoff [2023-02-28]
  ["2023-03-01", 80], // trap
  ["2023-03-31", 100], // 3y [2023-03-31]
  ["2024-02-29", 99], // D at the 2024-02-29 cutoff
  ["2024-12-31", 97.6], // ytd base at the 2026-01-01 cutoff [2024-12-31]
  ["2025-03-31", 121], // 1y [2025-03-31]
  ["2025-09-30", 125], // 6m [2025-09-30]
  ["2025-11-28", 120], // 1m base at the 2026-01-01 cutoff [2025-11-30, a Sunday]
  ["2025-12-31", 122], // 3m and ytd [2025-12-31]
  ["2026-02-27", 132], // 1m and last_closed_month [2026-02-28, a Saturday]
  ["2026-03-03", 140], // trap
  ["2026-03-27", 133.98], // D at the Sunday 2026-03-29 cutoff (132 × 1.015)
  ["2026-03-31", 133.1], // D
])

/** 8043 B, CLP, first quota 2025-06-30: too young for 1y, 3y and 5y. */
export const YOUNG = series(8043, "B", "$$", [
  ["2025-06-30", 50],
  ["2025-09-30", 52],
  ["2025-12-31", 54],
  ["2026-02-27", 55],
  ["2026-03-31", 56.1],
])

/**
 * 8043 DIST, CLP: a distribution (FACTOR DE REPARTO 1.04) on 2026-03-16 and an adjustment
 * (FACTOR DE AJUSTE 2, the quota halves) on 2026-03-23, quotes at most 7 days apart from
 * 2026-02-27; nothing between 2025-12-31 and 2026-02-27 (58 days: no coverage).
 */
export const DISTRIBUTING = series(8043, "DIST", "$$", [
  ["2025-12-31", 95],
  ["2026-02-27", 100],
  ["2026-03-06", 100.5],
  ["2026-03-13", 101],
  ["2026-03-16", 97, 1.04],
  ["2026-03-20", 97.5],
  ["2026-03-23", 48.75, null, 2],
  ["2026-03-27", 49],
  ["2026-03-31", 49.5],
])

/** 8043 C renamed CPRIV from 2026-01-02; the merged history is stored under CPRIV, quotes weekly. */
export const RENAME = { previous: "C", current: "CPRIV", firstCurrentDate: "2026-01-02" }
export const RENAMED = series(8043, "CPRIV", "$$", [
  ["2025-12-26", 49.8],
  ["2025-12-31", 50],
  ["2026-01-02", 50.5],
  ["2026-01-09", 50.6],
  ["2026-01-16", 50.8],
  ["2026-01-23", 51],
  ["2026-01-30", 51.2],
  ["2026-02-06", 51.4],
  ["2026-02-13", 51.6],
  ["2026-02-20", 51.8],
  ["2026-02-27", 52],
  ["2026-03-06", 52.5],
  ["2026-03-13", 53],
  ["2026-03-20", 53.6],
  ["2026-03-27", 54.1],
  ["2026-03-31", 54.6],
])
export const RENAMED_ALIAS_ID = testCrc32(`fm:8043:${RENAME.previous}`)

/** 9105 A, USD: 10 → 11 over the last month. */
export const DOLLAR = series(9105, "A", "PROM", [
  ["2026-02-27", 10],
  ["2026-03-31", 11],
])

/** 8106 A in EUR, 8106 X without a currency (CMF "MONEDA NO DEF."). */
export const EURO = series(8106, "A", "EUR", [
  ["2026-02-27", 20],
  ["2026-03-31", 21],
])
export const NO_CURRENCY = series(8106, "X", null, [
  ["2026-02-27", 20],
  ["2026-03-31", 21],
])

/** Weekdays from 2023-03-01 to 2026-03-31, prices alternating 100, 101, 100, … (see risk tests). */
export const DAILY = series(
  8043,
  "R",
  "$$",
  weekdays("2023-03-01", "2026-03-31").map((date, i): QuotaRow => [date, i % 2 === 0 ? 100 : 101]),
)

export const ALL_SERIES: ReadonlyArray<SeriesData> = [ALL_WINDOWS, YOUNG, DISTRIBUTING, RENAMED, DOLLAR, EURO, NO_CURRENCY, DAILY]

/** Observed dollar (CLP per USD): nothing on 2026-03-31, so that quote uses 2026-03-30's rate. */
export const USD_RATES: ReadonlyArray<readonly [string, number]> = [
  ["2026-02-27", 900],
  ["2026-03-30", 950],
]

/** UF on some dates only: the windows whose base date has none are missing_start_uf. */
export const UF_VALUES: ReadonlyArray<readonly [string, number]> = [
  ["2025-03-31", 38000],
  ["2025-12-31", 38800],
  ["2026-02-27", 39000],
  ["2026-03-31", 39390], // 39000 × 1.01
]

/** TAC (decimal fractions, as the pipeline stores them) by series and month. */
export const TAC: ReadonlyArray<readonly [SeriesData, string, number]> = [
  [ALL_WINDOWS, "2025-12", 0.0132],
  [ALL_WINDOWS, "2026-01", 0.0135],
  [ALL_WINDOWS, "2026-02", 0.014],
  [RENAMED, "2026-02", 0.0099],
]

/** CMF spheres of 8043 A, rated on 2026-02-27. */
export const SPHERES = { series: ALL_WINDOWS, family: "Deuda Nacional", investorType: "Público general", spheres: 4, asOf: "2026-02-27" }
