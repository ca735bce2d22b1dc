/** Reads one CMF `;` table: header check, blank and footnote lines, column count, cell decoding. */
import { Effect, Result, type Schema, type SchemaIssue } from "effect"
import { expectedOf, issueColumn } from "./CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid, quoted } from "./CmfFileInvalid.ts"
import { forEachCsvRow } from "./CmfCsv.ts"
import { decodeCmfText, headerCell, isSinInformacion } from "./CmfText.ts"

export interface CmfTable<Row> {
  readonly dataSet: string
  /** The exact CMF header, one name per column. */
  readonly columns: ReadonlyArray<string>
  /** The cell schemas, one per column, in the same order as `columns`. */
  readonly cells: ReadonlyArray<Schema.Top>
  /** Decoder of the `Schema.Tuple` of `cells`, built once per table. */
  readonly decode: (cells: ReadonlyArray<string>) => Result.Result<Row, SchemaIssue.Issue>
  /**
   * The same decoding without the schema for a row whose cells all pass their plain tests
   * (`fastRow`); undefined for any other row, which `decode` then reads.
   */
  readonly fast?: ((cells: ReadonlyArray<string>) => Row | undefined) | undefined
  /**
   * Title lines allowed before the header (a converted XLS): up to this many lines that do not
   * start with the first column's name are skipped and counted. Default: none.
   */
  readonly preambleLines?: number
  /** Further rows after the header that are notes, not data (skipped, counted as footnotes). */
  readonly isNote?: (row: ReadonlyArray<string>) => boolean
}

export interface CmfTableRead {
  /** Non-data lines of text only (notes, "Sin información") after the header. */
  readonly footnotesSkipped: number
  /** Title lines skipped before the header (only with `preambleLines`). */
  readonly preambleSkipped: number
}

/** True when `cells` (a split header line) are exactly `columns`. */
export const isHeader = (cells: ReadonlyArray<string>, columns: ReadonlyArray<string>): boolean =>
  cells.length === columns.length && cells.every((c, i) => headerCell(c) === columns[i])

const HEAD_BYTES = 8 * 1024

/** True when the first non-blank line of the bytes (latin-1, `;` cells) is exactly this header. */
export const startsWithHeader = (bytes: Uint8Array, columns: ReadonlyArray<string>): boolean => {
  const head = decodeCmfText(bytes.subarray(0, HEAD_BYTES))
  const firstLine = head.split(/\r\n|\n|\r/).find((line) => line.trim() !== "")
  return firstLine !== undefined && isHeader(firstLine.split(";"), columns)
}

/** CMF's bare "Sin información" answer (no header): a small body that says only that. */
export const isBareSinInformacion = (bytes: Uint8Array): boolean =>
  bytes.length <= HEAD_BYTES && isSinInformacion(decodeCmfText(bytes))

const isBlank = (row: ReadonlyArray<string>): boolean => row.length <= 1 && (row[0] ?? "").trim() === ""

// A footnote is a single-cell line with words in it: "(1) Cifras en ...". A single cell of digits
// (a data line cut before its first ";") is not one.
const isFootnote = (row: ReadonlyArray<string>): boolean => row.length === 1 && /\p{L}/u.test(row[0] ?? "")

const lineCount = (text: string): number => text.split(/\r\n|\n|\r/).length

/**
 * Calls `onRow` with each decoded data row and its 1-based line; `onRow` may reject the row.
 * A body that is only "Sin información" yields no rows.
 */
export const readCmfTable = <Row>(
  table: CmfTable<Row>,
  bytes: Uint8Array,
  file: string,
  onRow: (row: Row, line: number) => CmfFileInvalid | undefined
): Effect.Effect<CmfTableRead, CmfFileInvalid> =>
  Effect.gen(function* () {
    const { columns, dataSet } = table
    const problem = (line: number, field: string, detail: string) =>
      cmfFileInvalid({ dataSet, file, line, field, detail })
    const text = decodeCmfText(bytes)
    let headerSeen = false
    let sinInformacion = false
    let footnotesSkipped = 0
    let preambleSkipped = 0

    const onHeader = (raw: ReadonlyArray<string>, line: number): CmfFileInvalid | undefined => {
      if (isHeader(raw, columns)) {
        headerSeen = true
        return undefined
      }
      if (isSinInformacion(text)) {
        sinInformacion = true
        return undefined
      }
      if (table.preambleLines !== undefined && line <= table.preambleLines && headerCell(raw[0] ?? "") !== columns[0]) {
        preambleSkipped++
        return undefined
      }
      const got = raw.map(headerCell)
      const at = columns.findIndex((name, i) => got[i] !== name)
      if (at === -1 || at >= got.length) {
        const field = columns[at] ?? `column ${got.length}`
        return problem(line, field, `header has ${got.length} columns, expected ${columns.length}`)
      }
      return problem(line, columns[at]!, `missing or wrong header: expected "${columns[at]}", got "${got[at]}"`)
    }

    yield* forEachCsvRow(text, (raw, line): CmfFileInvalid | undefined => {
      if (sinInformacion || isBlank(raw)) return undefined
      if (!headerSeen) return onHeader(raw, line)
      if (isFootnote(raw) || table.isNote?.(raw) === true) {
        footnotesSkipped++
        return undefined
      }
      if (raw.length !== columns.length) {
        const truncated = !/[\r\n]$/.test(text) && line === lineCount(text) ? " (truncated last line)" : ""
        const field = columns[raw.length] ?? `column ${raw.length}`
        return problem(line, field, `expected ${columns.length} columns, got ${raw.length}${truncated}`)
      }
      // Most rows have nothing to trim: keep them as they are (one array less per row).
      const cells = raw.some((c) => c.trim().length !== c.length) ? raw.map((c) => c.trim()) : raw
      const fast = table.fast?.(cells)
      if (fast !== undefined) return onRow(fast, line)
      const decoded = table.decode(cells)
      if (Result.isFailure(decoded)) {
        const at = issueColumn(decoded.failure) ?? 0
        const expected = expectedOf(table.cells[at]!)
        return problem(line, columns[at]!, `expected ${expected}, got ${quoted(cells[at] ?? "")}`)
      }
      return onRow(decoded.success, line)
    })
    if (!headerSeen && !sinInformacion) {
      const detail = preambleSkipped > 0 ? `no header line within the first ${table.preambleLines} lines` : "the file is empty"
      return yield* problem(1, columns[0]!, `missing header: ${detail}`)
    }
    return { footnotesSkipped, preambleSkipped }
  })
