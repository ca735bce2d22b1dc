/**
 * Workbooks and HTML tables over a parse limit (pipeline/cmf/ParseLimits.ts) are refused before
 * their cells are laid out, quickly and naming the sheet or table and the limit; the real
 * workbook and ordinary spans still read as before.
 */

import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Result } from "effect"
import { describe, expect, it } from "vitest"
import { DETECT_BYTES } from "../../pipeline/cmf/CmfHtmlTable.ts"
import { FiBookValuesSource } from "../../pipeline/datasets/fi/FiBookValues.ts"
import { MAX_CELLS, MAX_COLUMNS, MAX_DEPTH, MAX_SPAN } from "../../pipeline/cmf/ParseLimits.ts"
import { readWorkbook } from "../../pipeline/cmf/Workbook.ts"
import { htmlTable, spanBomb, sparseXlsx } from "../support/workbooks.ts"

const refusal = (bytes: Uint8Array, rows?: number): { readonly message: string; readonly ms: number } => {
  const start = performance.now()
  const read = readWorkbook(bytes, rows)
  const ms = performance.now() - start
  expect(Result.isFailure(read), "refused").toBe(true)
  return { message: Result.isFailure(read) ? read.failure : "", ms }
}

describe("ParseLimits: a workbook over a limit", () => {
  it("an XLSX with one cell at column XFD on 2,000 rows is refused naming its sheet and MAX_COLUMNS, before laying out a cell", () => {
    const bytes = sparseXlsx(16_383, 2_000)
    const { message, ms } = refusal(bytes)
    expect(message).toBe(
      `refused unread: sheet part "xl/worksheets/sheet1.xml": its dimension A1:XFD2000 reaches column XFD (16,384), over the limit MAX_COLUMNS = ${MAX_COLUMNS} (README, "Formats we parse")`,
    )
    expect(ms).toBeLessThan(1000)
  })

  it("an XLSX whose dimension says nothing is refused by its cells' references", () => {
    expect(refusal(sparseXlsx(16_383, 20, { dimension: false })).message).toMatch(/sheet part "xl\/worksheets\/sheet1\.xml": a cell at XFD1 \(column 16,384\), over the limit MAX_COLUMNS = 256/)
  })

  it("an XLSX whose sheet sits outside xl/worksheets (where its relationships say) is refused all the same", () => {
    const moved = sparseXlsx(3, 5, { part: "xl/elsewhere.xml" })
    // the library reads the moved sheet: the path is a real one
    const read = readWorkbook(moved)
    expect(Result.isSuccess(read) && read.success.sheets[0]!.rows[4]!.cells).toEqual(["", "", "", 1])
    expect(refusal(sparseXlsx(16_383, 20, { part: "xl/elsewhere.xml" })).message).toMatch(
      /^refused unread: sheet part "xl\/elsewhere\.xml": its dimension A1:XFD20 reaches column XFD \(16,384\), over the limit MAX_COLUMNS = 256/,
    )
  })

  it("an XLSX laying out more than MAX_CELLS (one cell at column IV on 4,000 rows) is refused naming MAX_CELLS", () => {
    const { message } = refusal(sparseXlsx(255, 4_000))
    expect(message).toMatch(new RegExp(`sheet part "xl/worksheets/sheet1\\.xml": [\\d,]+ cells laid out by row 3907, over the limit MAX_CELLS = ${MAX_CELLS.toLocaleString("en-US")}`))
  })

  it("an HTML table of cells spanning 1,000 columns and rows is refused in milliseconds naming the table and MAX_SPAN", () => {
    const bomb = spanBomb(4, 1000, 0)
    for (const rows of [undefined, 50]) {
      const { message, ms } = refusal(bomb, rows)
      expect(message).toBe(`refused unread: table 1: row 1 has a cell spanning 1,000, over the limit MAX_SPAN = ${MAX_SPAN} (README, "Formats we parse")`)
      expect(ms).toBeLessThan(500)
    }
  })

  it("an HTML page within the limits in its head (detect) but not as a whole (parse) is refused when parsed whole", () => {
    // ~70 KB of ordinary rows, then a row spanning 1,000 columns past the 64 KB a head read looks at
    const rows = Array.from({ length: 3000 }, (_, i) => [`fila ${i}`, i])
    const page = htmlTable([["Nombre", "Valor"], ...rows, [{ v: "x", colspan: 1000 }]])
    expect(page.length).toBeGreaterThan(DETECT_BYTES)
    expect(Result.isSuccess(readWorkbook(page, 50))).toBe(true)
    expect(refusal(page).message).toMatch(/^refused unread: table 1: row 3002 has a cell spanning 1,000, over the limit MAX_SPAN = 256/)
  })

  it("an HTML table whose spans reach past MAX_COLUMNS is refused naming MAX_COLUMNS", () => {
    expect(refusal(spanBomb(2, 200, 3)).message).toMatch(/^refused unread: table 1: row 1 reaches column 400, over the limit MAX_COLUMNS = 256/)
  })
})

/**
 * A page whose one data cell holds `nested` nested <b>: html (depth 1), body (2), table (3), tr (4),
 * td (5), so its deepest element sits at 5 + nested. The heading and header make it an FI values
 * page (data set 6).
 */
const nestedPage = (nested: number): Uint8Array =>
  new Uint8Array(
    Buffer.from(
      "<html><body><p>R.U.T.: 9251-7</p><table><tr><td>Fecha</td><td>Valor Libro</td></tr>" +
        `<tr><td>02/01/2025</td><td>${"<b>".repeat(nested)}1${"</b>".repeat(nested)}</td></tr></table></body></html>`,
    ),
  )

describe("ParseLimits: an HTML page nested too deep", () => {
  it("512 levels read; 513 are refused naming MAX_DEPTH, as 5,000 (35 KB, which overflowed the stack) and 100,000 are", () => {
    expect(MAX_DEPTH).toBe(512)
    const within = readWorkbook(nestedPage(507))
    expect(Result.isSuccess(within) && within.success.sheets[0]!.rows.map((r) => r.cells)).toEqual([
      ["Fecha", "Valor Libro"],
      ["02/01/2025", "1"],
    ])
    const message = 'refused unread: the page: elements nested 513 deep or more, over the limit MAX_DEPTH = 512 (README, "Formats we parse")'
    for (const nested of [508, 5_000, 100_000]) {
      const { message: said, ms } = refusal(nestedPage(nested))
      expect(said).toBe(message)
      expect(ms).toBeLessThan(5_000)
    }
  })

  it("an FI page nested too deep is refused by its parser as a file of its data set, naming the limit", async () => {
    const failure = await Effect.runPromise(Effect.flip(FiBookValuesSource.parse(nestedPage(5_000), "valores_9251.html")))
    expect(failure._tag).toBe("CmfFileInvalid")
    expect(failure.field).toBe("MAX_DEPTH")
    expect(failure.message).toBe(
      "fi_book_values valores_9251.html line 0 field MAX_DEPTH: page (line 0 = outside the tables): refused unread: the page: " +
        'elements nested 513 deep or more, over the limit MAX_DEPTH = 512 (README, "Formats we parse")',
    )
  })
})

describe("ParseLimits: what is within the limits reads as before", () => {
  it("a rowspan past the table's end covers the rows there are", () => {
    const read = readWorkbook(htmlTable([[{ v: "a", rowspan: 200 }, "b"], ["c"]]))
    expect(Result.isSuccess(read)).toBe(true)
    if (Result.isSuccess(read)) expect(read.success.sheets[0]!.rows.map((r) => r.cells)).toEqual([["a", "b"], ["", "c"]])
  })

  it("the real AAFM workbook (2,576 rows × 6 columns) reads whole", () => {
    const read = readWorkbook(readFileSync(join(import.meta.dirname, "fixtures", "aafm_valor_cuotas_diarias_20150903.xls")))
    expect(Result.isSuccess(read)).toBe(true)
    if (Result.isSuccess(read)) expect(read.success.sheets[0]!.rows.length).toBe(2576)
  })
})
