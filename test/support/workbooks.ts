/**
 * Workbooks as the CMF serves them, for tests: real XLS (BIFF8, BIFF5) and XLSX bytes written by the
 * workbook library's own writer, and HTML tables served as Excel (latin-1, as the CMF's PHP pages).
 */
import * as XLSX from "@e965/xlsx"

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
