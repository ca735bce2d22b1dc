/**
 * The daily BPR report (`fm.fm_bpr_dia.php`): the rows of the real report of 2014-12-01 (shared/
 * realdata/more/fm_bpr_dia_20141201_rows_fragment.rb.txt: as a BIFF reader read them, numbers as
 * numbers, nil as no cell) written into an XLS by the workbook library and into an HTML table, then
 * read back; the expected values are the fragment's, scaled by hand.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FmBprDailySource, millionsToUnits } from "../../pipeline/datasets/fm/FmBprDaily.ts"
import { FmTacSource } from "../../pipeline/datasets/fm/FmTac.ts"
import { ADAPTERS as SOURCES } from "../../pipeline/datasets/Registry.ts"
import type { FmBprDailyRecord } from "../../pipeline/datasets/fm/FmBprDaily.ts"
import { BPR_NOTES, type BookType, bprDayWorkbook, type Cell, htmlTable, workbookBytes } from "../support/workbooks.ts"

const FILE = "bpr_20141201.xls"

// The fragment, verbatim ("EstadÃ­stica" is its mojibake).
const PREAMBLE: Array<Array<Cell>> = [
  ["SUPERINTENDENCIA DE VALORES Y SEGUROS"],
  ["EstadÃ\u00adstica de los Fondos Mutuos "],
  [" "],
  ["Patrimonio, Participes y Valor de la Cuota por Fecha Diaria"],
  ["Administradora : TODAS "],
  ["Tipo de fondo : TODOS "],
  ["Moneda de la consulta : TODAS "],
  ["Fecha : 1 DE DICIEMBRE DE 2014 "],
  [null]
]
const HEADER: Array<Cell> = ["  ", "RUN", "Tipo de fondo (2)", "Administradora", "Serie", "Patrimonio (1)", "Numero de participes", "Valor cuota"]
const DATA: Array<Array<Cell>> = [
  ["CAPITALES", "8038-1", 5.0, null, "PLAN3", "PESOS", 127.916504, 61.0, 1175.4482],
  ["CAPITALES", "8038-1", 5.0, null, "PLAN4", "PESOS", 386.284236, 148.0, 1270.0378],
  ["BANCHILE-ACCIONES", "8043-8", 5.0, null, "A", "PESOS", 23835.820959, 3332.0, 3321.9873],
  ["BANCHILE-ACCIONES", "8043-8", 5.0, null, "B", "PESOS", 4342.096962, 825.0, 6548.9211],
  ["BANCHILE-ACCIONES", "8043-8", 5.0, null, "C", "PESOS", 981.338272, 68.0, 832.5468],
  ["BANCHILE-ACCIONES", "8043-8", 5.0, null, "S", "PESOS", 0.0, 0.0, 1000.0],
  ["BICE ACCIONES", "8046-2", 5.0, null, "A", "PESOS", 1712.607119, 304.0, 1114.5232],
  ["BICE ACCIONES", "8046-2", 5.0, null, "B", "PESOS", 28.120071, 35.0, 1242.5327],
  ["BICE ACCIONES", "8046-2", 5.0, null, "C", "PESOS", 8820.940484, 1098.0, 1605.4733],
  ["BICE ACCIONES", "8046-2", 5.0, null, "F", "PESOS", 453.091855, 101.0, 1335.3597]
]
// The real report's notes after the data (a blank row first), as the fragment gives them.
const NOTES = BPR_NOTES
const report = (data: Array<Array<Cell>> = DATA, preamble = PREAMBLE) => [...preamble, HEADER, ...data, ...NOTES]

const row = (line: number, fundName: string, run: number, serie: string, patrimony: number, holders: number, price: number): FmBprDailyRecord => ({
  line, date: "2014-12-01", fundName, run, fundType: 5, agfName: null, serie, currencyCode: "$$", patrimony, holders, price
})
/** The fragment's rows as records, by hand: patrimony in units (millions × 10^6), the sheet's rows 11-20. */
const EXPECTED: Array<FmBprDailyRecord> = [
  row(11, "CAPITALES", 8038, "PLAN3", 127916504, 61, 1175.4482),
  row(12, "CAPITALES", 8038, "PLAN4", 386284236, 148, 1270.0378),
  row(13, "BANCHILE-ACCIONES", 8043, "A", 23835820959, 3332, 3321.9873),
  row(14, "BANCHILE-ACCIONES", 8043, "B", 4342096962, 825, 6548.9211),
  row(15, "BANCHILE-ACCIONES", 8043, "C", 981338272, 68, 832.5468),
  row(16, "BANCHILE-ACCIONES", 8043, "S", 0, 0, 1000),
  row(17, "BICE ACCIONES", 8046, "A", 1712607119, 304, 1114.5232),
  row(18, "BICE ACCIONES", 8046, "B", 28120071, 35, 1242.5327),
  row(19, "BICE ACCIONES", 8046, "C", 8820940484, 1098, 1605.4733),
  row(20, "BICE ACCIONES", 8046, "F", 453091855, 101, 1335.3597)
]
// Title rows that are not blank (" " and nil are), and the 10 notes (the blank row before them is not one).
const REPAIRS = { preambleSkipped: 7, footnotesSkipped: 10, duplicatesSkipped: 0 }

const xls = (rows: Array<Array<Cell>>, bookType: BookType = "biff8") => workbookBytes(rows, { bookType })
// The HTML form: every value as text, as a page writes it.
const html = (rows: Array<Array<Cell>>) => htmlTable(rows.map((r) => r.map((c) => (c === null ? "" : String(c)))))
const parse = (bytes: Uint8Array) => Effect.runPromise(FmBprDailySource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(FmBprDailySource.parse(bytes, FILE)))
const withCell = (r: Array<Cell>, i: number, value: Cell) => r.map((c, j) => (j === i ? value : c))
const withRow = (i: number, r: Array<Cell>) => DATA.map((d, j) => (j === i ? r : d))

describe("FmBprDailySource: the real report's rows", () => {
  for (const [label, bytes] of [
    ["XLS (BIFF8)", xls(report())],
    ["XLS (BIFF5)", xls(report(), "biff5")],
    ["HTML table served as .xls", html(report())]
  ] as const) {
    it(`${label}: every series with its day, RUN, currency code and patrimony in units`, async () => {
      const { records, repairs } = await parse(bytes)
      expect(records).toEqual(EXPECTED)
      expect(repairs).toEqual(REPAIRS)
    })
  }

  it("scales millions by moving the decimal point in the text (a float multiply is off)", async () => {
    expect(2.013632 * 1e6).not.toBe(2013632)
    expect(millionsToUnits("2.013632")).toBe(2013632)
    expect(millionsToUnits("127.916504")).toBe(127916504)
    expect(millionsToUnits("0,5")).toBe(500000)
    expect(millionsToUnits("0.0000005")).toBe(0.5)
    const { records } = await parse(xls(report(withRow(0, withCell(DATA[0]!, 6, 2.013632)))))
    expect(records[0]!.patrimony).toBe(2013632)
  })

  it("maps DOLAR and EURO to the cartola's PROM and EUR, and keeps a named administrator", async () => {
    const data = [withCell(withCell(DATA[0]!, 5, "DOLAR"), 3, "BICE INVERSIONES AGF S.A."), withCell(DATA[1]!, 5, "EURO")]
    const { records } = await parse(xls(report(data)))
    expect(records.map((r) => [r.currencyCode, r.agfName])).toEqual([["PROM", "BICE INVERSIONES AGF S.A."], ["EUR", null]])
  })

  it("skips a row repeated verbatim, counted; rejects the same RUN and serie with other values", async () => {
    const twice = await parse(xls(report([...DATA, DATA[2]!])))
    expect(twice.repairs.duplicatesSkipped).toBe(1)
    const error = await failure(xls(report([...DATA, withCell(DATA[2]!, 8, 3321.9874)])))
    expect(error.message).toBe(
      `fm_bpr_daily ${FILE} sheet "Hoja1" row 21 column I (Valor cuota): conflicts with row 13 for RUN 8043 SERIE A: 3321.9873 vs 3321.9874`
    )
  })
})

describe("FmBprDailySource: rejections name the sheet, row and column", () => {
  it("a RUN whose check digit is wrong", async () => {
    const error = await failure(xls(report(withRow(2, withCell(DATA[2]!, 1, "8043-9")))))
    expect(error).toMatchObject({ dataSet: "fm_bpr_daily", file: FILE, line: 13, field: "RUN" })
    expect(error.message).toBe(`fm_bpr_daily ${FILE} sheet "Hoja1" row 13 column B (RUN): expected a RUN like 8038-1 (its check digit right), got "8043-9"`)
  })

  it("a valor cuota that is not a number (XLS and HTML)", async () => {
    const bad = report(withRow(3, withCell(DATA[3]!, 8, "6548,92x")))
    expect((await failure(xls(bad))).message).toBe(`fm_bpr_daily ${FILE} sheet "Hoja1" row 14 column I (Valor cuota): expected a positive number, got "6548,92x"`)
    expect((await failure(html(bad))).message).toBe(`fm_bpr_daily ${FILE} table 1 row 14 column I (Valor cuota): expected a positive number, got "6548,92x"`)
  })

  it("an unknown currency word", async () => {
    const error = await failure(xls(report(withRow(0, withCell(DATA[0]!, 5, "YEN")))))
    expect(error.message).toBe(`fm_bpr_daily ${FILE} sheet "Hoja1" row 11 column F (Moneda): expected PESOS, DOLAR or EURO, got "YEN"`)
  })

  it("a fund type outside 1-8, a fractional count of participants", async () => {
    expect(await failure(xls(report(withRow(0, withCell(DATA[0]!, 2, 9)))))).toMatchObject({ line: 11, field: "Tipo de fondo" })
    expect(await failure(xls(report(withRow(0, withCell(DATA[0]!, 7, 61.5)))))).toMatchObject({ line: 11, field: "Numero de participes" })
  })

  it("no Fecha line, an unknown month, two different days", async () => {
    const noDate = await failure(xls(report(DATA, PREAMBLE.filter((r) => !String(r[0]).startsWith("Fecha")))))
    expect(noDate.message).toBe(`fm_bpr_daily ${FILE} sheet "Hoja1": no "Fecha : <day> DE <month> DE <year>" line above the header`)
    const month = await failure(xls(report(DATA, PREAMBLE.map((r) => (String(r[0]).startsWith("Fecha") ? ["Fecha : 1 DE DICIEMBR DE 2014"] : r)))))
    expect(month.message).toBe(`fm_bpr_daily ${FILE} sheet "Hoja1" row 8 column A: unknown month "DICIEMBR" in "Fecha : 1 DE DICIEMBR DE 2014"`)
    const day = await failure(xls(report(DATA, PREAMBLE.map((r) => (String(r[0]).startsWith("Fecha") ? ["Fecha : 31 DE NOVIEMBRE DE 2014"] : r)))))
    expect(day.message).toContain("no such day")
    const two = await failure(xls(report(DATA, [...PREAMBLE, ["Fecha : 2 DE DICIEMBRE DE 2014"]])))
    expect(two).toMatchObject({ line: 10, field: "Fecha" })
  })

  it("a header changed", async () => {
    const error = await failure(xls([...PREAMBLE, withCell(HEADER, 7, "Valor"), ...DATA]))
    expect(error).toMatchObject({ line: 10, field: "Valor cuota" })
    expect(error.message).toBe(`fm_bpr_daily ${FILE} sheet "Hoja1" row 10 column H: missing or wrong header: expected "Valor cuota", got "Valor"`)
  })

  it("a damaged workbook", async () => {
    const whole = xls(report())
    const error = await failure(whole.subarray(0, whole.length / 2))
    expect(error.message).toMatch(new RegExp(`^fm_bpr_daily ${FILE}: cannot be read as a workbook: damaged XLS: `))
  })
})

describe("FmBprDailySource: detect and key", () => {
  it("detects the report in each form, which no other data set takes; keys it by its day", () => {
    for (const bytes of [xls(report()), xls(report(), "xlsx"), html(report()), xls(report(DATA, PREAMBLE.slice(4)))]) {
      expect(FmBprDailySource.detect(bytes)).toBe(true)
      expect(SOURCES.filter((s) => s.name !== "fm_bpr_daily" && s.detect(bytes)).map((s) => s.name)).toEqual([])
      expect(FmBprDailySource.key("whatever.xls", bytes, "sha")).toBe("day_20141201")
    }
  })

  it("reads the Fecha line in any case, accented or not, SETIEMBRE too", () => {
    for (const [line, key] of [
      ["fecha : 9 de septiembre de 2015", "day_20150909"],
      ["Fecha: 30 de Setiembre de 2015", "day_20150930"],
      ["FECHA : 01 DE ENERO DE 2026", "day_20260101"]
    ] as const) {
      const preamble = PREAMBLE.map((r) => (String(r[0]).startsWith("Fecha") ? [line] : r))
      expect(FmBprDailySource.key("x", xls(report(DATA, preamble)), "sha")).toBe(key)
    }
  })

  it("is not detected in the TAC workbook or in text files; the TAC source does not take the report", () => {
    const tac = xls([["Cuadro estadístico de Costos"], [], ["Periodo", "Administradora", "Nombre Fondo"]])
    expect(FmBprDailySource.detect(tac)).toBe(false)
    expect(FmBprDailySource.detect(new Uint8Array(Buffer.from("RUN;SERIE\n8038-1;A\n")))).toBe(false)
    expect(FmTacSource.detect(xls(report()))).toBe(false)
    // A real workbook of quota values that is neither (the AAFM's, BIFF5).
    const aafm = readFileSync(join(import.meta.dirname, "fixtures", "aafm_valor_cuotas_diarias_20150903.xls"))
    expect([FmBprDailySource, ...SOURCES].filter((s) => s.detect(aafm))).toEqual([])
  })
})

describe("bprDayWorkbook (test support for a fake CMF)", () => {
  it("writes records as the report; the parser reads them back (XLS and HTML)", async () => {
    const records = [
      { fundName: "FONDO ÑUÑOA", run: 8038, fundType: 5, agfName: null, serie: "A", currencyCode: "$$", patrimony: 2013632, holders: 12, price: 1175.4482 },
      { fundName: "DÓLAR PLUS", run: 8043, fundType: 1, agfName: "AGF X", serie: "B", currencyCode: "PROM", patrimony: 23835820959, holders: 3332, price: 1.0001 }
    ]
    for (const format of ["xls", "html"] as const) {
      const bytes = bprDayWorkbook("2026-03-09", records, format)
      expect(FmBprDailySource.key("x", bytes, "sha")).toBe("day_20260309")
      const parsed = await parse(bytes)
      expect(parsed.records).toEqual(records.map((r, i) => ({ line: 11 + i, date: "2026-03-09", ...r })))
    }
  })
})
