/**
 * The TAC table as the CMF publishes it (`fmdfm_excel2.php`): an XLS (BIFF8) or an XLSX written by
 * the workbook library's own writer, and an HTML table served as Excel, laid out like the real
 * December 2025 file (title, blank row, two-row merged header, `NA`, "2,5" beside 1.99, a
 * continuation row). Each is read to the records written out by hand below, as is the same table
 * converted to `;` text.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FM_TAC_COLUMNS, FmTacSource } from "../../pipeline/datasets/fm/FmTac.ts"
import { ADAPTERS as SOURCES } from "../../pipeline/datasets/Registry.ts"
import { detect } from "../../pipeline/datasets/Registry.ts"
import type { FmTacRecord } from "../../pipeline/datasets/fm/FmTac.ts"
import { type BookType, type Cell, type HtmlCell, htmlTable, workbookBytes } from "../support/workbooks.ts"

const FILE = "costos_202512.xls"
const ADM = "Administradora General De Fondos Security S.A."
// "Ñuñoa" as UTF-8 read as latin-1 (the CMF's mojibake), in a cell of the workbook.
const MOJIBAKE = Buffer.from("Fondo Mutuo Ñuñoa Renta", "utf8").toString("latin1")

const TITLE: Array<Cell> = ["Cuadro estadístico de Costos"]
const HEADER_1: Array<Cell> = [
  "Periodo", "Administradora", "Nombre Fondo", "Tipo Fondo", "Moneda", "Serie", "Caract.", "Remuneración", "", "Gastos OP.",
  "TAC Rem. Fija", "TAC Rem. Var.", "TAC Gastos Op.", "TAC Total", "Comisión de Colocación", "", "Comisión de Colocación Dif", ""
]
const HEADER_2: Array<Cell> = ["", "", "", "", "", "", "", "Rem. Fija", "Rem. Var.", "", "%", "%", "%", "%", "Condición", "Comisión", "Condición", "Comisión"]
// The real row 5 and its continuation (the second redemption tier), numbers as numeric cells.
const REAL: Array<Cell> = [
  20251231, ADM, "Fondo Mutuo Fondo Activo 2", 6, "PESOS", "B", "Serie para constituir planes", "Hasta un 2,000 % anual", "NA", "2,5",
  1.99, "NA", 0.18, 2.17, "NA", "NA", "0 a 180", "2.38%"
]
const CONTINUATION: Array<Cell> = ["", "", "", "", "", "", "", "", "", "", "", "", "", "", "NA", "NA", "181 a mas", "NA"]
const SECOND: Array<Cell> = [20251231, ADM, MOJIBAKE, 3, "DOLAR", "I", "NA", "NA", "NA", "NA", "NA", "NA", "NA", "NA", "NA", "NA", "NA", "NA"]
const NOTES: Array<Array<Cell>> = [[], ["(1) TAC: Tasa Anual de Costos."], ["(2) NA: No aplica."]]
const ROWS: Array<Array<Cell>> = [TITLE, [], HEADER_1, HEADER_2, REAL, CONTINUATION, SECOND, ...NOTES]
// The merged header cells (0-based rows): Remuneración, Comisión de Colocación, … Dif over two columns.
const MERGES = [
  { s: { r: 2, c: 7 }, e: { r: 2, c: 8 } },
  { s: { r: 2, c: 14 }, e: { r: 2, c: 15 } },
  { s: { r: 2, c: 16 }, e: { r: 2, c: 17 } }
]

const NO_FEES = { placementFeeCondition: null, placementFeeText: null, deferredFeeCondition: null, deferredFeeText: null }
/** What the rows say, written by hand (line: the row in the sheet). */
const EXPECTED: Array<Omit<FmTacRecord, "line">> = [
  {
    period: "2025-12-31", month: "2025-12", agfName: ADM, fundName: "Fondo Mutuo Fondo Activo 2", fundType: 6, currency: "PESOS",
    serie: "B", characteristics: "Serie para constituir planes", fixedFeeText: "Hasta un 2,000 % anual", variableFeeText: null,
    operatingExpensesText: "2,5", tacFixedFeePercent: 1.99, tacVariableFeePercent: null, tacOperatingExpensesPercent: 0.18,
    tacTotalPercent: 2.17, placementFeeCondition: null, placementFeeText: null, deferredFeeCondition: "0 a 180", deferredFeeText: "2.38%"
  },
  {
    period: "2025-12-31", month: "2025-12", agfName: ADM, fundName: "Fondo Mutuo Ñuñoa Renta", fundType: 3, currency: "DOLAR", serie: "I",
    characteristics: null, fixedFeeText: null, variableFeeText: null, operatingExpensesText: null, tacFixedFeePercent: null,
    tacVariableFeePercent: null, tacOperatingExpensesPercent: null, tacTotalPercent: null, ...NO_FEES
  }
]
const REPAIRS = { preambleSkipped: 1, footnotesSkipped: 2, continuationRows: 1, duplicatesSkipped: 0 }

const parse = (bytes: Uint8Array) => Effect.runPromise(FmTacSource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(FmTacSource.parse(bytes, FILE)))
const xls = (rows: Array<Array<Cell>>, bookType: BookType = "biff8") => workbookBytes(rows, { bookType, merges: MERGES })
const withCell = (row: Array<Cell>, i: number, value: Cell) => row.map((c, j) => (j === i ? value : c))

// The HTML form: header cells spanning rows and columns, every value as text.
const text = (row: Array<Cell>): Array<HtmlCell> => row.map((c) => (c === null ? "" : String(c)))
const HTML_HEADER: Array<Array<HtmlCell>> = [
  [
    ...["Periodo", "Administradora", "Nombre Fondo", "Tipo Fondo", "Moneda", "Serie", "Caract."].map((v) => ({ v, rowspan: 2 })),
    { v: "Remuneración", colspan: 2 }, { v: "Gastos OP.", rowspan: 2 }, "TAC Rem. Fija", "TAC Rem. Var.", "TAC Gastos Op.", "TAC Total",
    { v: "Comisión de Colocación", colspan: 2 }, { v: "Comisión de Colocación Dif", colspan: 2 }
  ],
  ["Rem. Fija", "Rem. Var.", "%", "%", "%", "%", "Condición", "Comisión", "Condición", "Comisión"]
]
const html = (...data: Array<Array<Cell>>) =>
  htmlTable([[{ v: "Cuadro estadístico de Costos", colspan: 18 }], [], ...HTML_HEADER, ...data.map(text), ...NOTES.map(text)])

// The same table converted to `;` text, under our one-row header.
const semicolons = (...data: Array<Array<Cell>>) =>
  new Uint8Array(Buffer.from([FM_TAC_COLUMNS.join(";"), ...data.map((r) => r.map((c) => c ?? "").join(";")), ""].join("\n"), "latin1"))

describe("FmTacSource: the CMF's workbook", () => {
  it("reads an XLS (BIFF8) written by the library: merged header, numeric cells, NA, '2,5', a continuation row", async () => {
    const { records, repairs } = await parse(xls(ROWS))
    expect(records).toEqual([{ line: 5, ...EXPECTED[0] }, { line: 7, ...EXPECTED[1] }])
    expect(repairs).toEqual(REPAIRS)
  })

  it("reads the same table as an XLSX", async () => {
    const { records, repairs } = await parse(xls(ROWS, "xlsx"))
    expect(records).toEqual([{ line: 5, ...EXPECTED[0] }, { line: 7, ...EXPECTED[1] }])
    expect(repairs).toEqual(REPAIRS)
  })

  it("reads the same table as an HTML table served as .xls (rowspan/colspan header, latin-1)", async () => {
    const { records, repairs } = await parse(html(REAL, CONTINUATION, SECOND))
    expect(records).toEqual([{ line: 5, ...EXPECTED[0] }, { line: 7, ...EXPECTED[1] }])
    expect(repairs).toEqual(REPAIRS)
  })

  it("reads the same rows converted to ';' text to the same records (the continuation row skipped and counted)", async () => {
    const { records, repairs } = await parse(semicolons(REAL, CONTINUATION, SECOND))
    expect(records).toEqual([{ line: 2, ...EXPECTED[0] }, { line: 4, ...EXPECTED[1] }])
    expect(repairs).toEqual({ preambleSkipped: 0, footnotesSkipped: 0, continuationRows: 1, duplicatesSkipped: 0 })
  })

  it("rejects a bad cell naming the sheet, the row and the column", async () => {
    const bad = [TITLE, [], HEADER_1, HEADER_2, REAL, withCell(SECOND, 13, "2,17%")]
    const error = await failure(xls(bad))
    expect(error).toMatchObject({ dataSet: "fm_tac", file: FILE, line: 6, field: "TAC Total" })
    expect(error.message).toBe(
      `fm_tac ${FILE} sheet "Hoja1" row 6 column N (TAC Total): expected a percentage 0-100, NA or blank, got "2,17%"`
    )
    // A continuation row with no data row above it is a data row without its Periodo.
    const orphan = await failure(xls([TITLE, [], HEADER_1, HEADER_2, CONTINUATION, REAL]))
    expect(orphan.message).toBe(`fm_tac ${FILE} sheet "Hoja1" row 5 column A (Periodo): expected a date YYYYMMDD (or YYYYMMDD.0), got ""`)
    const htmlError = await failure(html(REAL, withCell(SECOND, 0, "2025-12-31")))
    expect(htmlError.message).toBe(`fm_tac ${FILE} table 1 row 6 column A (Periodo): expected a date YYYYMMDD (or YYYYMMDD.0), got "2025-12-31"`)
  })

  it("rejects a cell past the 18 columns, a second period and a conflicting repeat, naming where", async () => {
    const wide = await failure(xls([TITLE, [], HEADER_1, HEADER_2, [...REAL, "x"]]))
    expect(wide.message).toBe(`fm_tac ${FILE} sheet "Hoja1" row 5 column S: expected 18 columns (A to R), got a value in column S: "x"`)
    const period = await failure(xls([TITLE, [], HEADER_1, HEADER_2, REAL, withCell(SECOND, 0, 20251130)]))
    expect(period.message).toBe(`fm_tac ${FILE} sheet "Hoja1" row 6 column A (Periodo): expected the file's period 2025-12-31 (row 5), got 2025-11-30`)
    const repeat = await failure(xls([TITLE, [], HEADER_1, HEADER_2, REAL, withCell(REAL, 13, 2.18)]))
    expect(repeat).toMatchObject({ line: 6, field: "TAC Total" })
    expect(repeat.message).toContain(`sheet "Hoja1" row 6 column N (TAC Total): conflicts with row 5`)
  })

  it("rejects a wrong header naming its cell, and a workbook without the header", async () => {
    const error = await failure(xls([TITLE, [], withCell(HEADER_1, 13, "TAC"), HEADER_2, REAL]))
    expect(error).toMatchObject({ line: 3, field: "TAC Total" })
    expect(error.message).toBe(`fm_tac ${FILE} sheet "Hoja1" row 3 column N: missing or wrong header: expected "TAC Total", got "TAC"`)
    const sub = await failure(xls([TITLE, [], HEADER_1, withCell(HEADER_2, 15, "Monto"), REAL]))
    expect(sub.message).toBe(`fm_tac ${FILE} sheet "Hoja1" row 4 column P: missing or wrong header: expected "Comisión", got "Monto"`)
    const none = await failure(xls([["Otro cuadro"], [], ["Periodo", "Administradora"], [20251231, ADM]]))
    expect(none.message).toBe(
      `fm_tac ${FILE} sheet "Hoja1": missing header: no row within the first 11 rows reads "Periodo", "Administradora", "Nombre Fondo", "Tipo Fondo", …`
    )
  })

  it("rejects a truncated or corrupt workbook naming the file", async () => {
    const whole = xls(ROWS)
    const xlsx = xls(ROWS, "xlsx")
    const cases: Array<[Uint8Array, string]> = [
      [whole.subarray(0, 100), "damaged XLS: CFB file size 100 < 512"],
      [whole.subarray(0, whole.length / 2), "damaged XLS: "],
      // The library reads this one as a workbook with fewer rows: the container says the stream is longer.
      [whole.subarray(0, whole.length - 600), "(the file is cut short)"],
      [xlsx.subarray(0, xlsx.length - 100), "damaged XLSX: "]
    ]
    for (const [bytes, reason] of cases) {
      const error = await failure(bytes)
      expect(error).toMatchObject({ dataSet: "fm_tac", file: FILE, line: 0, field: "workbook" })
      expect(error.message).toMatch(new RegExp(`^fm_tac ${FILE}: cannot be read as a workbook: damaged XLSX?: `))
      expect(error.message).toContain(reason)
    }
  })
})

describe("FmTacSource: detecting and keying a workbook", () => {
  const forms: Array<[string, Uint8Array]> = [
    ["XLS", xls(ROWS)],
    ["XLSX", xls(ROWS, "xlsx")],
    ["HTML", html(REAL, SECOND)],
    ["XLS without its title", xls(ROWS.slice(2))]
  ]
  for (const [label, bytes] of forms) {
    it(`${label}: detected as fm_tac and by no other data set; keyed by its Periodo's month`, () => {
      expect(SOURCES.filter((s) => s.detect(bytes)).map((s) => s.name)).toEqual(["fm_tac"])
      expect(detect(bytes)?.name).toBe("fm_tac")
      expect(FmTacSource.key("anything.xls", bytes, "sha")).toBe("2025-12")
    })
  }

  it("a workbook that is not the TAC table is not detected as it", () => {
    expect(FmTacSource.detect(xls([["Otro cuadro"], [], ["Periodo", "Administradora"], [20251231, ADM]]))).toBe(false)
    expect(FmTacSource.detect(htmlTable([["R.U.T.", "Entidad", "Administradora"], ["9251-7", "FONDO", "AGF"]]))).toBe(false)
  })
})
