/**
 * Workbook.ts: which bytes are a workbook (by signature, never by name), and their cells. The real
 * file is `fixtures/aafm_valor_cuotas_diarias_20150903.xls`, the original bytes of an AAFM "Valor
 * Cuotas Diarias" BIFF5 workbook (ssalvatori/fondosMutuosData, valor_cuota_diaria.xls @1dd0438;
 * see shared/realdata/more/SOURCES.md): the cells checked below were read by hand from its LABEL
 * records (row and column are in each record's first bytes).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { cellText, columnLetter, readWorkbook, type Workbook, workbookFormat } from "../../pipeline/cmf/Workbook.ts"
import { htmlTable, workbookBytes } from "../support/workbooks.ts"

const AAFM = readFileSync(join(import.meta.dirname, "fixtures", "aafm_valor_cuotas_diarias_20150903.xls"))

const read = (bytes: Uint8Array, rows?: number): Workbook => {
  const r = readWorkbook(bytes, rows)
  if (Result.isFailure(r)) throw new Error(r.failure)
  return r.success
}
const rowOf = (wb: Workbook, n: number) => wb.sheets[0]!.rows.find((r) => r.number === n)?.cells

describe("Workbook: a real BIFF5 file", () => {
  it("reads the AAFM workbook: its sheet, the header row and a data row as stored, text cells as text", () => {
    expect(workbookFormat(AAFM)).toBe("xls")
    const wb = read(AAFM)
    expect(wb.sheets.map((s) => s.label)).toEqual(['sheet "Valor Cuotas Diarias"'])
    // Row 9 holds bytes EF BF BD (a UTF-8 U+FFFD) for the "í": as cp1252 they read "ï¿½", left as they are.
    expect(rowOf(wb, 9)).toEqual(["Per\u00ef\u00bf\u00bdodo: 03/09/2015"])
    expect(rowOf(wb, 12)).toEqual(["Administradora", "Run", "Fondo", "Serie", "02/09/2015", "03/09/2015"])
    expect(rowOf(wb, 13)).toEqual(["BANCHILE", "   8001-2", "CAPITALISA-ACC", "A", "318,7823", "321,0005"])
    expect(rowOf(wb, 2571)).toEqual(["ZURICH", "   9048-4", "ZURICH USA", "I", "104,3745", "105,6900"])
    const data = wb.sheets[0]!.rows.filter((r) => r.number >= 13 && r.number <= 2571 && r.cells.length === 6)
    expect(data).toHaveLength(2559)
  })

  it("is read once per bytes: detect, key and parse share the read", () => {
    expect(read(AAFM, 12)).toBe(read(AAFM))
  })
})

describe("Workbook: formats by signature", () => {
  const rows = [["Título ÑUÑOA €"], [], ["a", 1.5, 20251231, 127.916504, 1e-7, -2.5e21]]

  it("XLS (BIFF8, BIFF5) and XLSX written by the library: numbers stay numbers, text stays text", () => {
    for (const bookType of ["biff8", "xlsx"] as const) {
      const bytes = workbookBytes(rows, { bookType })
      const wb = read(bytes)
      expect(wb.format).toBe(bookType === "biff8" ? "xls" : "xlsx")
      expect(wb.sheets[0]!.rows.map((r) => r.cells)).toEqual([["Título ÑUÑOA €"], [], ["a", 1.5, 20251231, 127.916504, 1e-7, -2.5e21]])
    }
    // The library writes BIFF5 text as ASCII only ("_" for the rest); its numbers are exact.
    const biff5 = read(workbookBytes([["Fecha : 1 DE DICIEMBRE DE 2014"], [127.916504, 3332]], { bookType: "biff5" }))
    expect(biff5.format).toBe("xls")
    expect(biff5.sheets[0]!.rows.map((r) => r.cells)).toEqual([["Fecha : 1 DE DICIEMBRE DE 2014"], [127.916504, 3332]])
  })

  it("HTML served as Excel: every table a sheet, spanned cells blank, the text outside tables kept", () => {
    const bytes = htmlTable([[{ v: "A", rowspan: 2 }, { v: "B", colspan: 2 }, "C"], ["b1", "b2", "c"], ["x", "y", "z", "w"]])
    const wb = read(bytes)
    expect(wb.format).toBe("html")
    expect(wb.sheets.map((s) => s.label)).toEqual(["table 1"])
    expect(wb.sheets[0]!.rows.map((r) => r.cells)).toEqual([["A", "B", "", "C"], ["", "b1", "b2", "c"], ["x", "y", "z", "w"]])
    const titled = read(new Uint8Array(Buffer.from("<html><body><h3>Cuadro estadístico de Costos</h3><table><tr><td>1</td></tr></table></body></html>", "latin1")))
    expect(titled.text).toBe("Cuadro estadístico de Costos")
    expect(titled.sheets[0]!.rows[0]!.cells).toEqual(["1"])
    // The head of a long page: its first rows only.
    const long = htmlTable(Array.from({ length: 5000 }, (_, i) => [`row ${i + 1}`, i]))
    expect(long.length).toBeGreaterThan(64 * 1024)
    expect(read(long, 3).sheets[0]!.rows.map((r) => r.cells)).toEqual([["row 1", "0"], ["row 2", "1"], ["row 3", "2"]])
    expect(read(long).sheets[0]!.rows).toHaveLength(5000)
  })

  it("mojibake in a cell is repaired; windows-1252 bytes 0x80-0x9F are that code page's characters", () => {
    const mojibake = Buffer.from("Estratégico AÑOS", "utf8").toString("latin1")
    const wb = read(workbookBytes([[mojibake, "\u0080 100"]], { bookType: "biff8" }))
    expect(wb.sheets[0]!.rows[0]!.cells).toEqual(["Estratégico AÑOS", "€ 100"])
  })

  it("never by name, and not for other bytes", () => {
    expect(workbookFormat(new Uint8Array(Buffer.from("Periodo;Administradora\n20251231;X\n", "latin1")))).toBeNull()
    expect(workbookFormat(new Uint8Array(Buffer.from('{"a":1}')))).toBeNull()
    expect(workbookFormat(new Uint8Array(Buffer.from("<html><body><p>Sin información</p></body></html>", "latin1")))).toBeNull()
    // A ZIP that is not a workbook.
    expect(workbookFormat(new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...Buffer.from("word/document.xml")]))).toBeNull()
    expect(Result.isFailure(readWorkbook(new Uint8Array(Buffer.from("hello"))))).toBe(true)
  })
})

describe("Workbook: cell text and column letters", () => {
  it("writes numbers as plain decimals (never an exponent) that read back as the same number", () => {
    for (const [n, text] of [[127.916504, "127.916504"], [20251231, "20251231"], [1e-7, "0.0000001"], [1.5e-10, "0.00000000015"], [2.5e21, "2500000000000000000000"], [-3.25e-7, "-0.000000325"], [0, "0"]] as const) {
      expect(cellText(n)).toBe(text)
      expect(Number(cellText(n))).toBe(n)
    }
    expect(cellText("2,5")).toBe("2,5")
  })

  it("names columns as a spreadsheet does", () => {
    expect([0, 13, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual(["A", "N", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"])
  })
})
