/**
 * Reads one CMF table out of a workbook (see Workbook.ts), with the same cell schemas as the `;`
 * text form: the sheet that has the header (titles above it allowed), notes and blank rows after it
 * skipped, then each row's cells decoded. A problem names the sheet, the row and the column:
 * `sheet "Hoja1" row 7 column N (TAC Total)`.
 */
import { Effect, Result, type Schema, type SchemaIssue } from "effect"
import { expectedOf, issueColumn } from "./CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid, quoted } from "./CmfFileInvalid.ts"
import { headerKey } from "./CmfHtmlTable.ts"
import { cellText, columnLetter, readWorkbook, type Sheet, type SheetRow, type Workbook } from "./Workbook.ts"

export interface CmfSheetTable<Row> {
  readonly dataSet: string
  /** Our name of each column, for messages. */
  readonly columns: ReadonlyArray<string>
  /** The cell schemas, one per column. */
  readonly cells: ReadonlyArray<Schema.Top>
  /** Decoder of the `Schema.Tuple` of `cells`. */
  readonly decode: (cells: ReadonlyArray<string>) => Result.Result<Row, SchemaIssue.Issue>
  /** The header rows as the CMF writes them (a merged cell's other columns blank), compared as headers. */
  readonly header: ReadonlyArray<ReadonlyArray<string>>
  /** Rows allowed above the header (titles, the query's parameters). */
  readonly preambleRows: number
  /** Rows after the header that are notes, not data (skipped, counted). */
  readonly isNote: (cells: ReadonlyArray<string>) => boolean
  /** Rows that carry more of the data row above them (skipped, counted). */
  readonly isContinuation?: (cells: ReadonlyArray<string>) => boolean
}

export interface CmfSheetRead {
  readonly sheet: Sheet
  /** The header's first row. */
  readonly headerRow: number
  /** Non-blank rows above the header. */
  readonly preambleSkipped: number
  readonly footnotesSkipped: number
  readonly continuationRows: number
}

/** The whole workbook, or a rejection of the file saying it cannot be read as one (line 0). */
export const readWorkbookOf = (dataSet: string, bytes: Uint8Array, file: string): Effect.Effect<Workbook, CmfFileInvalid> =>
  Effect.suspend(() => {
    const read = readWorkbook(bytes)
    return Result.isSuccess(read)
      ? Effect.succeed(read.success)
      : Effect.fail(cmfFileInvalid({ dataSet, file, line: 0, field: "workbook", detail: `cannot be read as a workbook: ${read.failure}`, where: "" }))
  })

/** `sheet "Hoja1" row 7 column N (TAC Total)` */
export const placeOf = (sheet: Sheet, row: number, column: number, columns: ReadonlyArray<string>): string =>
  `${sheet.label} row ${row} column ${columnLetter(column)}${columns[column] === undefined ? "" : ` (${columns[column]})`}`

/** A problem at a cell of `sheet`. */
export const sheetProblem = (
  dataSet: string,
  file: string,
  sheet: Sheet,
  row: number,
  column: number,
  columns: ReadonlyArray<string>,
  detail: string
): CmfFileInvalid =>
  cmfFileInvalid({
    dataSet,
    file,
    line: row,
    field: columns[column] ?? `column ${columnLetter(column)}`,
    detail,
    where: placeOf(sheet, row, column, columns)
  })

/** The row's cells as trimmed text. */
export const rowTexts = (row: SheetRow | undefined): Array<string> => (row?.cells ?? []).map((c) => cellText(c).trim())

/** True when the row is exactly `expected` (as headers: case, accents and spacing aside), nothing past it. */
const isHeaderRow = (cells: ReadonlyArray<string>, expected: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < Math.max(cells.length, expected.length); i++) {
    if (headerKey(cells[i] ?? "") !== headerKey(expected[i] ?? "")) return false
  }
  return true
}

/** Where the header starts in `sheet` (the index of its first row), if within the allowed rows. */
export const findHeader = (sheet: Sheet, header: ReadonlyArray<ReadonlyArray<string>>, preambleRows: number): number | undefined => {
  const limit = Math.min(sheet.rows.length, preambleRows + 1)
  for (let i = 0; i < limit; i++) {
    if (header.every((expected, k) => isHeaderRow(rowTexts(sheet.rows[i + k]), expected))) return i
  }
  return undefined
}

/** How many of the header's labels (blanks not counted) stand in place from `index` on. */
const labelsInPlace = (sheet: Sheet, index: number, header: ReadonlyArray<ReadonlyArray<string>>): number =>
  header.reduce((n, expected, k) => {
    const cells = rowTexts(sheet.rows[index + k])
    return n + expected.filter((label, i) => label.trim() !== "" && headerKey(cells[i] ?? "") === headerKey(label)).length
  }, 0)

/**
 * Why no header was found: the row holding at least half of its labels, named at its first wrong
 * cell; else the header is missing.
 */
const headerProblem = <Row>(table: CmfSheetTable<Row>, workbook: Workbook, file: string): CmfFileInvalid => {
  const { dataSet, columns, header } = table
  const labels = header.flat().filter((l) => l.trim() !== "")
  let near: { sheet: Sheet; index: number; score: number } | undefined
  for (const sheet of workbook.sheets) {
    for (let i = 0; i < Math.min(sheet.rows.length, table.preambleRows + 1); i++) {
      const score = labelsInPlace(sheet, i, header)
      if (near === undefined || score > near.score) near = { sheet, index: i, score }
    }
  }
  if (near === undefined || near.score * 2 < labels.length) {
    const first = labels.slice(0, 4).map((l) => `"${l}"`).join(", ")
    return cmfFileInvalid({
      dataSet, file, line: 1, field: columns[0]!,
      detail: `missing header: no row within the first ${table.preambleRows + 1} rows reads ${first}, …`,
      where: workbook.sheets[0]?.label ?? "(no sheet)"
    })
  }
  const { sheet, index } = near
  const wrong = header.flatMap((expected, k) => {
    const row = sheet.rows[index + k]
    const cells = rowTexts(row)
    const at = Array.from({ length: Math.max(cells.length, expected.length) }, (_, i) => i)
      .find((i) => headerKey(cells[i] ?? "") !== headerKey(expected[i] ?? ""))
    return at === undefined ? [] : [{ row: row?.number ?? index + k + 1, at, cells, expected }]
  })[0]!
  const label = wrong.expected[wrong.at]?.trim() ?? ""
  const detail = wrong.at >= wrong.expected.length
    ? `header has a cell past its ${wrong.expected.length} columns: ${quoted(wrong.cells[wrong.at]!)}`
    : `missing or wrong header: expected ${quoted(label)}, got ${quoted(wrong.cells[wrong.at] ?? "")}`
  // Named by the CMF's label: a header cell need not stand over the column of our name (BPR).
  return cmfFileInvalid({
    dataSet,
    file,
    line: wrong.row,
    field: label === "" ? `column ${columnLetter(wrong.at)}` : label,
    detail,
    where: placeOf(sheet, wrong.row, wrong.at, [])
  })
}

/** The sheet holding the table and the index of its header's first row. */
export interface LocatedTable {
  readonly sheet: Sheet
  readonly start: number
}

/** The first sheet whose header is within its first rows; else the problem with the nearest one. */
export const locateTable = <Row>(table: CmfSheetTable<Row>, workbook: Workbook, file: string): Effect.Effect<LocatedTable, CmfFileInvalid> =>
  Effect.suspend(() => {
    for (const sheet of workbook.sheets) {
      const start = findHeader(sheet, table.header, table.preambleRows)
      if (start !== undefined) return Effect.succeed({ sheet, start })
    }
    return Effect.fail(headerProblem(table, workbook, file))
  })

/** Where a named column of a row is, for problems raised about whole records (`UniqueRows`). */
export const columnPlace = (sheet: Sheet, columns: ReadonlyArray<string>) => (row: number, column: string): string =>
  placeOf(sheet, row, columns.indexOf(column), columns)

/**
 * Calls `onRow` with each decoded data row of the located table and its sheet row number; `onRow`
 * may reject the row (naming the place with `placeOf`).
 */
export const readCmfSheet = <Row>(
  table: CmfSheetTable<Row>,
  { sheet, start }: LocatedTable,
  file: string,
  onRow: (row: Row, rowNumber: number) => CmfFileInvalid | undefined
): Effect.Effect<CmfSheetRead, CmfFileInvalid> =>
  Effect.suspend(() => {
    const { columns, dataSet } = table
    const preambleSkipped = sheet.rows.slice(0, start).filter((r) => rowTexts(r).some((c) => c !== "")).length
    let footnotesSkipped = 0
    let continuationRows = 0
    for (const row of sheet.rows.slice(start + table.header.length)) {
      const cells = rowTexts(row)
      if (cells.every((c) => c === "")) continue
      if (table.isNote(cells)) {
        footnotesSkipped++
        continue
      }
      if (table.isContinuation?.(cells) === true) {
        continuationRows++
        continue
      }
      const last = cells.findLastIndex((c) => c !== "")
      if (last >= columns.length) {
        const detail = `expected ${columns.length} columns (A to ${columnLetter(columns.length - 1)}), got a value in column ${columnLetter(last)}: ${quoted(cells[last]!)}`
        return Effect.fail(sheetProblem(dataSet, file, sheet, row.number, last, columns, detail))
      }
      const padded = cells.length === columns.length ? cells : Array.from(columns, (_, i) => cells[i] ?? "")
      const decoded = table.decode(padded)
      if (Result.isFailure(decoded)) {
        const at = issueColumn(decoded.failure) ?? 0
        const detail = `expected ${expectedOf(table.cells[at]!)}, got ${quoted(padded[at] ?? "")}`
        return Effect.fail(sheetProblem(dataSet, file, sheet, row.number, at, columns, detail))
      }
      const error = onRow(decoded.success, row.number)
      if (error !== undefined) return Effect.fail(error)
    }
    return Effect.succeed({ sheet, headerRow: sheet.rows[start]?.number ?? start + 1, preambleSkipped, footnotesSkipped, continuationRows })
  })
