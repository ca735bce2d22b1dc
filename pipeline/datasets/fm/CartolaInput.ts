/**
 * A cartola file's daily values as the quota merge reads them (Quotas.ts): typed columns,
 * their series and summary, loaded when the merge asks. Shapes only: the parse cache, the
 * increment and the merge share them without the cartola's parser (CartolaColumns.ts).
 */

/** A cartola series: its fund's RUN, its label, its currency and its administrator. */
export interface CartolaSeriesInfo {
  readonly run: number
  /** Upper case, trimmed: the label as ids use it. */
  readonly serie: string
  readonly currencyCode: string
  readonly agfRut: number
  readonly agfName: string
}

/** One cartola file's rows as columns, a row's series an index into `series`. */
export interface CartolaColumns {
  readonly file: string
  readonly series: ReadonlyArray<CartolaSeriesInfo>
  readonly seriesIndex: Int32Array
  /** YYYYMMDD */
  readonly date: Int32Array
  readonly price: Float64Array
  readonly patrimony: Float64Array
  readonly holders: Float64Array
  readonly factorAjuste: Float64Array
  readonly factorReparto: Float64Array
  /** CUOTAS_APORTADAS: units subscribed that day (NaN when blank or not reported, as in the BPR). */
  readonly unitsSubscribed: Float64Array
  /** CUOTAS_RESCATADAS: units redeemed that day. */
  readonly unitsRedeemed: Float64Array
  readonly line: Int32Array
  readonly repairs: Readonly<Record<string, number>>
}

/**
 * A cartola input as the merge reads it: twice (count, then copy), loading its columns each time.
 * From the parse cache it is loaded (deserialized) again rather than kept, so the per-file columns
 * of the whole history (~52 B a row) never sit in memory beside the merged ones.
 */
export interface CartolaInput {
  readonly file: string
  /** The first row's date, YYYYMMDD (0 when none): files merge in date order. */
  readonly firstDate: number
  readonly load: () => CartolaColumns
  /** When known: the merge counts rows per series from it instead of loading the columns twice. */
  readonly summary?: CartolaSummary
  /**
   * A provisional source (the daily BPR report): a row of it gives way to a cartola row of the same
   * series and date, and its series' values say where they came from.
   */
  readonly provisional?: { readonly dataSet: string; readonly decimals: number }
}

/**
 * A cartola's row count, first and latest dates (YYYYMMDD, 0 when empty), repairs, and its series
 * with their row counts (what the merge's first pass needs when no row is after the batch date).
 */
export interface CartolaSummary {
  readonly file: string
  readonly rows: number
  readonly firstDate: number
  readonly latestDate: number
  readonly repairs: Readonly<Record<string, number>>
  readonly series: ReadonlyArray<CartolaSeriesInfo>
  readonly seriesRows: Int32Array
}
