/**
 * What the parse cache holds and gives (ParsedCache.ts in pipeline/ keeps it on disk or in memory): a
 * shape only, so that the data-set port (datasets/DataSet.ts) hands it to an adapter's `load`
 * without the cache's storage.
 */
import type { Parsed } from "./Parsed.ts"
import type { CartolaColumns, CartolaSummary } from "./fm/CartolaInput.ts"

/**
 * Which file an entry is of: its bytes and its name. What a file yields can depend on its name
 * (the month of a portfolio, the symbol of a benchmark, the range of a cartola), so the same bytes
 * under another name are parsed again, never read back with the first name's month or symbol.
 */
export interface CacheEntry {
  readonly sha256: string
  readonly name: string
}

/**
 * What a parsed file of records says of itself (its summary, cached beside its records): a batch
 * reads it instead of the records until the file is staged. `firstDate`/`latestDate` are its
 * adapter's `datesOf` (YYYYMMDD), absent for undated data sets.
 */
export interface RecordsSummary {
  readonly rows: number
  readonly repairs: Readonly<Record<string, number>>
  readonly firstDate?: number
  readonly latestDate?: number
  /** What the adapter's `summaryOf` keeps of the file (the FI book values: each series' first row). */
  readonly extra?: unknown
}

/** Parsed files by content and name, so that a batch parses only the files that changed. */
export interface ParsedFiles {
  /** The data folder an on-disk cache is under (<dataDir>/cache/), which a child process can open; null in memory. */
  readonly dataDir: string | null
  /** True when the file's summary is cached (a cartola's or a file of records'): it was parsed before. */
  readonly hasSummary: (entry: CacheEntry) => boolean
  /** Parsed records of any data set but the cartola. */
  readonly getRecords: (entry: CacheEntry) => Parsed<unknown> | undefined
  readonly putRecords: (entry: CacheEntry, parsed: Parsed<unknown>) => void
  /** What a file of records says of itself (rows, repairs, dates), read without its records. */
  readonly getRecordsSummary: (entry: CacheEntry) => RecordsSummary | undefined
  readonly putRecordsSummary: (entry: CacheEntry, summary: RecordsSummary) => void
  /** What a batch needs of a cartola before merging. */
  readonly getSummary: (entry: CacheEntry) => CartolaSummary | undefined
  readonly putSummary: (entry: CacheEntry, summary: CartolaSummary) => void
  /** A cartola's columns. */
  readonly get: (entry: CacheEntry) => CartolaColumns | undefined
  readonly put: (entry: CacheEntry, columns: CartolaColumns) => void
}
