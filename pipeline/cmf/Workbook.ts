/**
 * A workbook as the CMF serves one: an XLS (BIFF5/BIFF8 in an OLE2 container), an XLSX, or an HTML
 * table sent with an Excel content type. Which one is told by the bytes' signature, never by the
 * file's name. Each becomes sheets of rows of cells: text (mojibake repaired) or numbers (a numeric
 * BIFF cell is a number, with no decimal separator to guess). Merged cells keep their value in the
 * top-left cell and leave the others blank, in the three forms alike.
 */
import * as XLSX from "@e965/xlsx"
import { Result } from "effect"
import { DETECT_BYTES, type HtmlPage, type HtmlRow, readHtmlPage } from "./CmfHtmlTable.ts"
import { repairMojibake } from "./Mojibake.ts"
import { MAX_CELLS, MAX_COLUMNS, MAX_ROWS, MAX_SHEETS, MAX_SPAN, ParseLimitExceeded, withinLimit } from "./ParseLimits.ts"
import { printableName } from "./PrintableName.ts"
import { checkXlsx } from "./XlsxScan.ts"

export type WorkbookFormat = "xls" | "xlsx" | "html"

/** A cell: text (trimmed by nobody: as written) or a number; "" when blank. */
export type Cell = string | number

export interface SheetRow {
  /** 1-based, as a spreadsheet shows it (for HTML: the row within its table). */
  readonly number: number
  /** From column A on; trailing blank cells may be missing. */
  readonly cells: ReadonlyArray<Cell>
}

export interface Sheet {
  /** How messages name it: `sheet "Hoja1"`, or `table 2` in an HTML page. */
  readonly label: string
  readonly rows: ReadonlyArray<SheetRow>
}

export interface Workbook {
  readonly format: WorkbookFormat
  readonly sheets: ReadonlyArray<Sheet>
  /** Text outside the tables of an HTML page (a title may sit there); "" for XLS/XLSX. */
  readonly text: string
}

const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
const latin1 = new TextDecoder("latin1")

const startsWith = (bytes: Uint8Array, magic: ReadonlyArray<number>): boolean => magic.every((b, i) => bytes[i] === b)

/** XLS, XLSX or HTML by signature; null for anything else (a `;` text file, JSON, …). */
export const workbookFormat = (bytes: Uint8Array): WorkbookFormat | null => {
  if (startsWith(bytes, OLE2)) return "xls"
  // A ZIP whose entries include the workbook part (entry names are stored uncompressed).
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes("xl/workbook.xml") ? "xlsx" : null
  const head = latin1.decode(bytes.subarray(0, DETECT_BYTES))
  return /^(?:\ufeff|ï»¿)?\s*</.test(head) && /<table[\s>]/i.test(head) ? "html" : null
}

/** Column letters as a spreadsheet shows them: 0 → A, 25 → Z, 26 → AA. */
export const columnLetter = (index: number): string => {
  let s = ""
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s
  return s
}

/**
 * A cell as text for the CMF cell schemas: text as it is; a number in plain decimal digits with "."
 * (the shortest text that reads back as the same number; never an exponent).
 */
export const cellText = (cell: Cell | undefined): string => {
  if (cell === undefined) return ""
  if (typeof cell === "string") return cell
  const s = String(cell)
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s)
  if (m === null) return s
  const [, sign, lead, rest = "", exp] = m
  const digits = lead! + rest
  const point = 1 + Number(exp)
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`
  return point >= digits.length ? `${sign}${digits}${"0".repeat(point - digits.length)}` : `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

// An 8-bit BIFF string is read byte for byte (latin-1): the CMF's bytes are windows-1252, as in its
// text files, so 0x80–0x9F are that code page's characters (then mojibake is repaired as usual).
const C1 = /[\u0080-\u009f]/
const C1_ALL = /[\u0080-\u009f]/g
const cp1252 = new TextDecoder("windows-1252")
const text = (s: string): string =>
  repairMojibake(C1.test(s) ? s.replace(C1_ALL, (c) => cp1252.decode(Uint8Array.of(c.charCodeAt(0)))) : s)

// BIFF error codes (0x00, 0x07, 0x0F, 0x17, 0x1D, 0x24, 0x2A).
const ERRORS: Readonly<Record<number, string>> = {
  0: "#NULL!", 7: "#DIV/0!", 15: "#VALUE!", 23: "#REF!", 29: "#NAME?", 36: "#NUM!", 42: "#N/A"
}

const cellOf = (c: XLSX.CellObject | undefined): Cell => {
  if (c === undefined || c.v === undefined || c.v === null) return ""
  switch (c.t) {
    case "n":
      return c.v as number
    case "s":
      return text(c.v as string)
    case "b":
      return c.v === true ? "TRUE" : "FALSE"
    case "e":
      return ERRORS[c.v as number] ?? "#ERROR"
    default:
      return text(String(c.v))
  }
}

interface CfbEntry {
  readonly name: string
  /** 2: a stream. */
  readonly type: number
  readonly size: number
  readonly content?: { readonly length: number }
}

/**
 * A cut-off XLS can still be read by the library, as a workbook with fewer rows or none: the OLE2
 * directory says how long each stream is, so a stream holding fewer bytes means the file is short.
 */
const checkWhole = (bytes: Uint8Array): void => {
  const container = XLSX.CFB.read(bytes, { type: "buffer" }) as { readonly FileIndex: ReadonlyArray<CfbEntry> }
  const short = container.FileIndex.find((f) => f.type === 2 && (f.content?.length ?? 0) < f.size)
  if (short !== undefined) {
    throw new Error(`its stream "${printableName(short.name)}" holds ${short.content?.length ?? 0} of its ${short.size} bytes (the file is cut short)`)
  }
}

/**
 * A sheet as the library read it, checked against the parse limits before its rows are laid out
 * as cells here (a row's length is its last cell's column, however few cells it holds).
 */
const sheetRows = (name: string, data: ReadonlyArray<ReadonlyArray<XLSX.CellObject> | undefined>): Array<SheetRow> => {
  const where = `sheet "${printableName(name)}"`
  withinLimit(where, "MAX_ROWS", MAX_ROWS, data.length, (n) => `${n} rows or more`)
  let laid = 0
  data.forEach((row, i) => {
    const width = row?.length ?? 0
    withinLimit(where, "MAX_COLUMNS", MAX_COLUMNS, width, (n) => `row ${i + 1} reaches column ${columnLetter(width - 1)} (${n})`)
    laid += width
    withinLimit(where, "MAX_CELLS", MAX_CELLS, laid, (n) => `${n} cells laid out by row ${i + 1}`)
  })
  return Array.from(data, (row, i) => ({ number: i + 1, cells: Array.from(row ?? [], cellOf) }))
}

const fromSheetJs = (bytes: Uint8Array, format: WorkbookFormat): Workbook => {
  if (format === "xls") checkWhole(bytes)
  else checkXlsx(bytes)
  const book = XLSX.read(bytes, {
    // One row past the limit is enough to refuse the sheet.
    sheetRows: MAX_ROWS + 1,
    type: "buffer",
    dense: true,
    cellDates: false,
    cellFormula: false,
    cellHTML: false,
    cellNF: false,
    cellStyles: false,
    cellText: false,
    bookVBA: false
  })
  withinLimit("the workbook", "MAX_SHEETS", MAX_SHEETS, book.SheetNames.length, (n) => `${n} sheets`)
  const sheets = book.SheetNames.map((name): Sheet => {
    const data = (book.Sheets[name] as XLSX.DenseWorkSheet | undefined)?.["!data"] ?? []
    return { label: `sheet "${printableName(name)}"`, rows: sheetRows(name, data) }
  })
  return { format, sheets, text: "" }
}

/**
 * An HTML table's rows laid on a grid: a cell spanning columns or rows leaves the covered cells
 * blank. The spans are checked against the parse limits before the cells they cover are noted:
 * 60 cells of `colspan=1000 rowspan=1000` in 2 KB once noted 60 million of them (29 s, 2.7 GB).
 */
const grid = (rows: ReadonlyArray<HtmlRow>, where: string): Array<SheetRow> => {
  withinLimit(where, "MAX_ROWS", MAX_ROWS, rows.length, (n) => `${n} rows`)
  const covered = new Map<number, Set<number>>()
  // Cells noted as covered by spans, and cells laid out in rows: each bounded by MAX_CELLS.
  let spanned = 0
  let laid = 0
  return rows.map((row, r) => {
    const taken = covered.get(r) ?? new Set<number>()
    const cells: Array<Cell> = []
    let col = 0
    row.cells.forEach((value, i) => {
      while (taken.has(col)) cells[col++] = ""
      const [colspan, asked] = row.spans?.[i] ?? [1, 1]
      withinLimit(where, "MAX_SPAN", MAX_SPAN, Math.max(colspan, asked), (n) => `row ${row.number} has a cell spanning ${n}`)
      // A rowspan past the table's last row covers no more rows than there are, as a browser lays it out.
      const rowspan = Math.min(asked, rows.length - r)
      withinLimit(where, "MAX_COLUMNS", MAX_COLUMNS, col + colspan, (n) => `row ${row.number} reaches column ${n}`)
      spanned += colspan * (rowspan - 1)
      withinLimit(where, "MAX_CELLS", MAX_CELLS, spanned, (n) => `spans up to row ${row.number} cover ${n} cells`)
      cells[col] = value
      for (let dc = 1; dc < colspan; dc++) cells[col + dc] = ""
      for (let dr = 1; dr < rowspan; dr++) {
        const below = covered.get(r + dr) ?? new Set<number>()
        for (let dc = 0; dc < colspan; dc++) below.add(col + dc)
        covered.set(r + dr, below)
      }
      col += colspan
    })
    for (const c of taken) if (c >= cells.length) cells[c] = ""
    laid += cells.length
    withinLimit(where, "MAX_CELLS", MAX_CELLS, laid, (n) => `${n} cells laid out by row ${row.number}`)
    return { number: row.number, cells: Array.from(cells, (c) => c ?? "") }
  })
}

// The start of a page as a head read parses it, by bytes object: detection asks each data set in
// turn (the TAC's and the BPR report's detect, then their key) of the same bytes, and an FI page
// (thousands in a cold build) was parsed twice before its own data set recognised it.
const heads = new WeakMap<Uint8Array, HtmlPage>()

const fromHtml = (bytes: Uint8Array, rows: number | undefined): Workbook => {
  // A head read (detect, key) parses the start of the page only, its last table closed.
  const whole = rows === undefined || bytes.length <= DETECT_BYTES
  let page = rows === undefined ? undefined : heads.get(bytes)
  if (page === undefined) {
    page = readHtmlPage(whole ? bytes : Buffer.concat([bytes.subarray(0, DETECT_BYTES), Buffer.from("</td></tr></table>")]))
    if (rows !== undefined) heads.set(bytes, page)
  }
  const sheets = page.tables.map((table, i): Sheet => ({
    label: `table ${i + 1}`,
    rows: grid(rows === undefined ? table : table.slice(0, rows), `table ${i + 1}`)
  }))
  return { format: "html", sheets, text: page.heading }
}

// The library reads a whole XLS even when asked for its first rows (~0.2 s for 2,500 rows here), and
// detect, key and parse each read the same bytes: one read per bytes object.
const read = new WeakMap<Uint8Array, Result.Result<Workbook, string>>()

const failure = (format: WorkbookFormat, e: unknown): Result.Result<never, string> =>
  e instanceof ParseLimitExceeded
    ? Result.fail(`refused unread: ${e.message}`)
    : // The library's own words for a damaged container ("CFB file size 10 < 512", "Unsupported ZIP file").
      Result.fail(`damaged ${format.toUpperCase()}: ${e instanceof Error ? e.message : String(e)}`)

/**
 * Reads a workbook, or says why it cannot (not a workbook by signature, a damaged one, or one over
 * a parse limit: ParseLimits.ts). With `rows`, only the first rows are needed (detect, key): an
 * HTML page is then read only in its first 64 KB, at most `rows` rows per table; an XLS/XLSX is
 * read whole anyway, once per bytes object.
 */
export const readWorkbook = (bytes: Uint8Array, rows?: number): Result.Result<Workbook, string> => {
  const format = workbookFormat(bytes)
  if (format === null) return Result.fail("not an XLS, XLSX or HTML table (by its first bytes)")
  if (format === "html" && rows !== undefined) {
    try {
      return Result.succeed(fromHtml(bytes, rows))
    } catch (e) {
      return failure(format, e)
    }
  }
  const known = read.get(bytes)
  if (known !== undefined) return known
  let result: Result.Result<Workbook, string>
  try {
    result = Result.succeed(format === "html" ? fromHtml(bytes, undefined) : fromSheetJs(bytes, format))
  } catch (e) {
    result = failure(format, e)
  }
  read.set(bytes, result)
  return result
}
