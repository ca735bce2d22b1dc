/**
 * Keeps one row per natural key, for every data set's tables: an identical repeat is skipped and
 * counted (a quirk), a repeat with different values rejects the file naming both lines.
 */
import { type CmfFileInvalid, cmfFileInvalid } from "./CmfFileInvalid.ts"

export interface UniqueRows<R> {
  /** One record per key, at its first line, in file order. */
  readonly records: Array<R>
  /** Sets the row's line and keeps it, skips it, or returns the conflict. */
  readonly onRow: (row: R & { line: number }, line: number) => CmfFileInvalid | undefined
  readonly duplicatesSkipped: () => number
}

export const uniqueRows = <R extends { readonly line: number }>(options: {
  readonly dataSet: string
  readonly file: string
  /** The natural key and how to name it in a message, e.g. `RUN 8001 SERIE A`. */
  readonly keyOf: (row: R) => string
  /** How to name the key in a message when `keyOf` is a compact form (a hot path: millions of rows). */
  readonly describe?: (row: R) => string
  /** Record fields compared on a repeat, with their column names. */
  readonly compared: ReadonlyArray<readonly [keyof R, string]>
  /** How a null value is written in the file (default "blank"). */
  readonly nullAs?: string
  /**
   * In a workbook or an HTML table: where a row's column is (`sheet "Hoja1" row 7 column N (TAC Total)`,
   * `line 3 field Entidad: row 3 of the funds table (row 1 = its header)`); lines are then rows.
   */
  readonly where?: (line: number, column: string) => string
  /** In JSON: the array the records are in (`Series.Obs`); a line is then an index in it, a field its path (`Series.Obs[3].value`). */
  readonly array?: string
}): UniqueRows<R> => {
  const records: Array<R> = []
  const seen = new Map<string, R>()
  let duplicates = 0
  const show = (v: unknown): string => (v === null ? (options.nullAs ?? "blank") : String(v))
  const onRow = (row: R & { line: number }, line: number): CmfFileInvalid | undefined => {
    row.line = line
    const key = options.keyOf(row)
    const earlier = seen.get(key)
    if (earlier === undefined) {
      seen.set(key, row)
      records.push(row)
      return undefined
    }
    const differing = options.compared.find(([field]) => earlier[field] !== row[field])
    if (differing === undefined) {
      duplicates++
      return undefined
    }
    const [field, column] = differing
    const { where, array } = options
    const before = array !== undefined ? `${array}[${earlier.line}]` : `${where === undefined ? "line" : "row"} ${earlier.line}`
    return cmfFileInvalid({
      dataSet: options.dataSet,
      file: options.file,
      line,
      field: array === undefined ? column : `${array}[${line}].${column}`,
      detail:
        `conflicts with ${before} for ${options.describe?.(row) ?? key}: ${show(earlier[field])} vs ${show(row[field])}` +
        (array === undefined ? "" : ` (line ${line} is the index in ${array})`),
      ...(where === undefined ? {} : { where: where(line, column) })
    })
  }
  return { records, onRow, duplicatesSkipped: () => duplicates }
}
