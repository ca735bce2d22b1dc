/** Small hand-made series for the compute tests: rows of [YYYYMMDD, price, FR?, FA?]. */
import type { QuotaSeries, RateSeries } from "../../snapshots/compute/Series.ts"

/** A quota series from rows; FR/FA null (or omitted) mean "no event". */
export const seriesOf = (rows: ReadonlyArray<readonly [number, number, (number | null)?, (number | null)?]>): QuotaSeries => ({
  dates: Int32Array.from(rows.map((r) => r[0])),
  prices: Float64Array.from(rows.map((r) => r[1])),
  factorReparto: rows.map((r) => r[2] ?? null),
  factorAjuste: rows.map((r) => r[3] ?? null),
})

/** An indicator series from [YYYYMMDD, value] rows. */
export const ratesOf = (rows: ReadonlyArray<readonly [number, number]>): RateSeries => ({
  dates: rows.map((r) => r[0]),
  values: rows.map((r) => r[1]),
})
