/**
 * Workbooks as the CMF serves them, for tests: real XLS (BIFF8, BIFF5) and XLSX bytes written by the
 * workbook library's own writer, and HTML tables served as Excel (latin-1, as the CMF's PHP pages).
 * `bprDayWorkbook` writes a daily BPR report (`fm.fm_bpr_dia.php`) from records, in the real
 * report's layout, so a fake CMF can serve BPR days.
 */
import * as XLSX from "@e965/xlsx"
import type { FmBprDailyRecord } from "../../pipeline/datasets/fm/FmBprDaily.ts"
import { formatRut } from "../../pipeline/cmf/CmfRut.ts"

export type Cell = string | number | null
export type BookType = "biff8" | "biff5" | "xlsx"

/** A merged range, 0-based inclusive, as the library writes it. */
export interface Merge {
  readonly s: { readonly r: number; readonly c: number }
  readonly e: { readonly r: number; readonly c: number }
}

/** One sheet of `rows` (null: no cell) written by the library as `bookType`. */
export const workbookBytes = (
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  options: { readonly bookType: BookType; readonly sheet?: string; readonly merges?: ReadonlyArray<Merge> }
): Uint8Array => {
  const sheet = XLSX.utils.aoa_to_sheet(rows.map((r) => [...r]))
  if (options.merges !== undefined) sheet["!merges"] = options.merges.map((m) => ({ s: { ...m.s }, e: { ...m.e } }))
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, sheet, options.sheet ?? "Hoja1")
  return new Uint8Array(XLSX.write(book, { bookType: options.bookType, type: "buffer" }) as Buffer)
}

const escapeHtml = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

/** A cell of `htmlTable`: text or number, optionally spanning columns/rows. */
export type HtmlCell = Cell | { readonly v: Cell; readonly colspan?: number; readonly rowspan?: number }

/** An HTML page with one table of `rows`, latin-1 with its charset declared, as CMF's PHP serves it. */
export const htmlTable = (rows: ReadonlyArray<ReadonlyArray<HtmlCell>>): Uint8Array => {
  const td = (c: HtmlCell): string => {
    if (c !== null && typeof c === "object") {
      const spans = `${c.colspan === undefined ? "" : ` colspan="${c.colspan}"`}${c.rowspan === undefined ? "" : ` rowspan="${c.rowspan}"`}`
      return `<td${spans}>${escapeHtml(String(c.v ?? ""))}</td>`
    }
    return `<td>${escapeHtml(String(c ?? ""))}</td>`
  }
  const body = rows.map((r) => `<tr>${r.map(td).join("")}</tr>`).join("\n")
  const html =
    `<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head>\n` +
    `<body><table border="1">\n${body}\n</table></body></html>\n`
  return new Uint8Array(Buffer.from(html, "latin1"))
}

const MONTHS = [
  "ENERO", "FEBRERO", "MARZO", "ABRIL", "MAYO", "JUNIO", "JULIO", "AGOSTO", "SEPTIEMBRE", "OCTUBRE", "NOVIEMBRE", "DICIEMBRE"
]
const WORD: Readonly<Record<string, string>> = { $$: "PESOS", PROM: "DOLAR", EUR: "EURO" }

/** The preamble of the real report (2014), with `date`'s "Fecha" line. */
export const bprPreamble = (date: string): Array<Array<Cell>> => [
  ["SUPERINTENDENCIA DE VALORES Y SEGUROS"],
  ["Estadística de los Fondos Mutuos "],
  [" "],
  ["Patrimonio, Participes y Valor de la Cuota por Fecha Diaria"],
  ["Administradora : TODAS "],
  ["Tipo de fondo : TODOS "],
  ["Moneda de la consulta : TODAS "],
  [`Fecha : ${Number(date.slice(8, 10))} DE ${MONTHS[Number(date.slice(5, 7)) - 1]} DE ${date.slice(0, 4)} `],
  [null]
]

export const BPR_HEADER: Array<Cell> = ["  ", "RUN", "Tipo de fondo (2)", "Administradora", "Serie", "Patrimonio (1)", "Numero de participes", "Valor cuota"]

/** The real report's notes after the data (a blank row first). */
export const BPR_NOTES: Array<Array<Cell>> = [
  [],
  [" (1)  Cifras en millones de pesos o de la moneda que corresponda "],
  ["(2) Tipo de fondo: "],
  ["    1: FM DE INV.EN INST.DE DEUDA DE C/P CON DURACION <= 90 DIAS, "],
  ["   2: FM DE INV.EN INST.DE DEUDA DE C/P CON DURACION <= 365 DIAS, "],
  ["   3: FM DE INV.EN INST.DE DEUDA DE MEDIANO Y LARGO PLAZO,  "],
  ["   4: FM MIXTO,  "],
  ["   5: FM DE INVERSION EN INSTRUMENTOS DE CAPITALIZACION,  "],
  ["   6: FM DE LIBRE INVERSION,  "],
  ["   7: FM ESTRUCTURADO,   "],
  ["   8: FM DIRIGIDO A INVERSIONISTAS CALIFICADOS, "]
]

/** A record as a report row: RUN with its check digit, the currency word, patrimony in millions (numbers, as BIFF cells). */
export const bprRow = (r: Omit<FmBprDailyRecord, "line" | "date">): Array<Cell> => [
  r.fundName,
  formatRut(r.run),
  r.fundType,
  r.agfName,
  r.serie,
  WORD[r.currencyCode] ?? r.currencyCode,
  r.patrimony / 1e6,
  r.holders,
  r.price
]

/** The daily BPR report of `date` (YYYY-MM-DD) holding `records`, as an XLS (BIFF8) or an HTML table. */
export const bprDayWorkbook = (
  date: string,
  records: ReadonlyArray<Omit<FmBprDailyRecord, "line" | "date">>,
  format: "xls" | "html" = "xls"
): Uint8Array => {
  const rows = [...bprPreamble(date), BPR_HEADER, ...records.map(bprRow), ...BPR_NOTES]
  return format === "xls" ? workbookBytes(rows, { bookType: "biff8" }) : htmlTable(rows)
}

/** The TAC workbook's title, as the CMF writes it. */
export const TAC_TITLE: Array<Cell> = ["Cuadro estadístico de Costos"]
/** The real two-row merged header of the TAC workbook (`fmdfm_excel2.php`, December 2025). */
export const TAC_HEADER_1: Array<Cell> = [
  "Periodo", "Administradora", "Nombre Fondo", "Tipo Fondo", "Moneda", "Serie", "Caract.", "Remuneración", "", "Gastos OP.",
  "TAC Rem. Fija", "TAC Rem. Var.", "TAC Gastos Op.", "TAC Total", "Comisión de Colocación", "", "Comisión de Colocación Dif", ""
]
export const TAC_HEADER_2: Array<Cell> = ["", "", "", "", "", "", "", "Rem. Fija", "Rem. Var.", "", "%", "%", "%", "%", "Condición", "Comisión", "Condición", "Comisión"]
/** The merged header cells (0-based rows): Remuneración, Comisión de Colocación, … Dif over two columns. */
export const TAC_MERGES: ReadonlyArray<Merge> = [
  { s: { r: 2, c: 7 }, e: { r: 2, c: 8 } },
  { s: { r: 2, c: 14 }, e: { r: 2, c: 15 } },
  { s: { r: 2, c: 16 }, e: { r: 2, c: 17 } }
]

/**
 * The TAC workbook of `rows` (18 cells each, Periodo as a number as the CMF's cells hold it), as an
 * XLS (BIFF8) written by the library, in the real layout: title, blank row, the two header rows.
 */
export const tacWorkbook = (rows: ReadonlyArray<ReadonlyArray<Cell>>, notes: ReadonlyArray<string> = []): Uint8Array =>
  workbookBytes([TAC_TITLE, [], TAC_HEADER_1, TAC_HEADER_2, ...rows, ...(notes.length === 0 ? [] : [[], ...notes.map((n) => [n])])], {
    bookType: "biff8",
    merges: TAC_MERGES
  })

/**
 * An XLSX of one cell (the number 1) at `column` (0-based) on each of `rows` rows: the library's own one-cell
 * workbook with its sheet part replaced through the library's ZIP writer (its sheet writer walks
 * every cell of the range, 327 million for XFD × 20,000). `dimension: false` leaves out the
 * `<dimension>` that says the sheet's extent, so only the cells' references tell it; `part` puts the
 * sheet at another path of the ZIP (the workbook's relationships and content types say where).
 */
export const sparseXlsx = (column: number, rows: number, options: { readonly dimension?: boolean; readonly part?: string } = {}): Uint8Array => {
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[0]]), "Hoja1")
  const zip = XLSX.CFB.read(XLSX.write(book, { bookType: "xlsx", type: "buffer" }) as Buffer, { type: "buffer" })
  const letters = XLSX.utils.encode_col(column)
  const cells = Array.from({ length: rows }, (_, r) => `<row r="${r + 1}"><c r="${letters}${r + 1}"><v>1</v></c></row>`).join("")
  const sheet =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    `${options.dimension === false ? "" : `<dimension ref="A1:${letters}${rows}"/>`}<sheetData>${cells}</sheetData></worksheet>`
  const part = options.part ?? "xl/worksheets/sheet1.xml"
  XLSX.CFB.utils.cfb_del(zip, "/xl/worksheets/sheet1.xml")
  XLSX.CFB.utils.cfb_add(zip, `/${part}`, Buffer.from(sheet))
  for (const [file, from, to] of [
    ["/xl/_rels/workbook.xml.rels", "worksheets/sheet1.xml", part.replace(/^xl\//, "")],
    ["/[Content_Types].xml", "/xl/worksheets/sheet1.xml", `/${part}`],
  ] as const) {
    const entry = XLSX.CFB.find(zip, file)!
    const text = Buffer.from(entry.content as Uint8Array).toString("utf8")
    XLSX.CFB.utils.cfb_del(zip, file)
    XLSX.CFB.utils.cfb_add(zip, file, Buffer.from(text.replace(from, to)))
  }
  return new Uint8Array(XLSX.CFB.write(zip, { type: "buffer", fileType: "zip", compression: true }) as Buffer)
}

/** A page whose one row holds `cells` cells of `colspan=span rowspan=span`, then `rows` rows more. */
export const spanBomb = (cells: number, span: number, rows: number): Uint8Array =>
  htmlTable([Array.from({ length: cells }, () => ({ v: "x", colspan: span, rowspan: span })), ...Array.from({ length: rows }, () => ["y"])])
