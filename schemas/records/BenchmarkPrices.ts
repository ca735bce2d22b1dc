/** Parsed benchmark prices (data set `benchmark_prices`): raw daily prices of one symbol in its native currency. */

/** One trading day of one symbol. */
export interface BenchmarkPriceRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** From the file's name (`VOO.csv`, `benchmark_VOO.csv`), upper case. */
  readonly symbol: string
  /** YYYY-MM-DD */
  readonly date: string
  readonly open: number
  readonly high: number
  readonly low: number
  /** Always > 0. */
  readonly close: number
  readonly volume: number
}
