/**
 * What a data set's parser gives (the port's `parse`, datasets/DataSet.ts), and what the parse
 * cache keeps of a file of records (ParsedCache.ts in pipeline/).
 */

/** A file's records, and the quirks its parser repaired or skipped. */
export interface Parsed<R> {
  readonly records: ReadonlyArray<R>
  /** Normal quirks repaired or skipped (duplicate rows, footnotes, "Sin información" rows, …), counted. */
  readonly repairs: Readonly<Record<string, number>>
}
