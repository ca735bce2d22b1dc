/**
 * How big a workbook or an HTML table may be before it is refused unread: a file is recognised and
 * parsed in the pipeline's own process (and in the parse-ahead child), so a few kilobytes that
 * expand into billions of cells (one cell at column XFD on every row, `colspan=1000 rowspan=1000`)
 * must be stopped before the cells are laid out, not after. The largest real CMF workbook we hold
 * (the AAFM daily values, 2,576 rows × 6 columns, 15,369 cells) and the widest layout (the TAC's 18
 * columns) sit far below every limit: the margins are in README "Formats we parse".
 */

/** Rows of one sheet or one HTML table (the XLS format itself stops at 65,536). */
export const MAX_ROWS = 100_000
/** Columns of one row, spans included (the XLS format's own width: column IV). */
export const MAX_COLUMNS = 256
/** Cells laid out for one sheet or table, blanks and spanned cells included (about 16 MB of cells). */
export const MAX_CELLS = 1_000_000
/** An HTML cell's `colspan` or `rowspan`. */
export const MAX_SPAN = 256
/**
 * Elements nested in one HTML page. The page's text is gathered by walking its tree (ours and the
 * HTML library's), one call per level: 5,000 nested elements in 35 KB overflowed the stack and
 * failed the whole run.
 */
export const MAX_DEPTH = 512
/** Sheets of one workbook. */
export const MAX_SHEETS = 64
/** Bytes of an XLSX once inflated, all its parts together (a ZIP bomb is refused while inflating). */
export const MAX_XLSX_INFLATED_BYTES = 128 * 1024 * 1024
/**
 * Old-space heap of a child process that recognises or parses files (`--max-old-space-size`): a
 * file the limits above let through costs far less, so a child over it is a fault, and its part is
 * done again in the parent (offload/ChildProcess.ts), under the same limits.
 */
export const PARSE_CHILD_HEAP_MB = 1024

/** A workbook or table over one of the limits above; the message names where and which limit. */
export class ParseLimitExceeded extends Error {
  /** Where: `sheet "Hoja1"`, `table 2`, a ZIP part. */
  readonly where: string
  /** The constant's name, e.g. `MAX_COLUMNS`. */
  readonly limit: string

  constructor(where: string, limit: string, max: number, found: string) {
    super(`${where}: ${found}, over the limit ${limit} = ${max.toLocaleString("en-US")} (README, "Formats we parse")`)
    this.where = where
    this.limit = limit
  }
}

/** Throws `ParseLimitExceeded` when `value` is over `max`. */
export const withinLimit = (where: string, limit: string, max: number, value: number, found: (value: string) => string): void => {
  if (value > max) throw new ParseLimitExceeded(where, limit, max, found(value.toLocaleString("en-US")))
}
