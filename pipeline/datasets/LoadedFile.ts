/**
 * One input file as a batch holds it between parsing and staging: what it says of itself (rows,
 * repairs, dates), and its data read when it is staged (from the parse cache: a batch does not
 * hold every file's records at once). An adapter's own `load` gives it (datasets/DataSet.ts); a
 * staging step reads it (StageContext.ts).
 */
export interface LoadedFile {
  readonly name: string
  /** The parsed records, or what the adapter's own `load` gives instead (the cartola's columns); read again at each call. */
  readonly data: () => unknown
  /** The adapter's repair counters for this file (named by the adapter; the manifest prefixes them with the data set). */
  readonly repairs: Readonly<Record<string, number>>
  readonly rows: number
  /** Data sets of daily values: the first and latest value dates the file holds, YYYYMMDD (0: none). */
  readonly firstDate?: number
  readonly latestDate?: number
  /** What the adapter's `summaryOf` keeps of the file, read without its records. */
  readonly extra?: unknown
}
