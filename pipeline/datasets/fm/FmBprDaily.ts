/**
 * The daily BPR report (`fm.fm_bpr_dia.php?…&out=excel`): every series of every mutual fund on one
 * day, no captcha. An XLS or an HTML table served as Excel: title and query rows, the day only in a
 * Spanish line ("Fecha : 1 DE DICIEMBRE DE 2014"), a header row of 8 cells over 9-cell rows (the
 * currency column has no header), notes after the data. Patrimony is in millions.
 */
import { Effect, Result, Schema, SchemaParser } from "effect"
import { AnyText, cell, cmfRow, Code, isCalendarDate, Name, PositiveDecimal, toNumber } from "../../cmf/CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { headerKey } from "../../cmf/CmfHtmlTable.ts"
import { readRut } from "../../cmf/CmfRut.ts"
import { type CmfSheetTable, columnPlace, findHeader, type LocatedTable, locateTable, placeOf, readCmfSheet, readWorkbookOf, rowTexts } from "../../cmf/CmfSheet.ts"
import type { DataSetSource } from "../DataSet.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"
import { readWorkbook, type Workbook, workbookFormat } from "../../cmf/Workbook.ts"

/*
 * Parsed daily BPR (data set `fm_bpr_daily`, CMF `fm.fm_bpr_dia.php`): patrimony, participants and
 * quota value of every series of every mutual fund on one day, without a captcha. The CMF writes
 * the patrimony in millions; here it is in units of the fund's currency, like the cartola's.
 */

/** One series of one fund on the report's day. */
export interface FmBprDailyRecord {
  /** The sheet's row (an HTML table's row) the series was read from. */
  readonly line: number
  /** The report's day (its "Fecha : 1 DE DICIEMBRE DE 2014" line), YYYY-MM-DD. */
  readonly date: string
  /** Fund name as published (short), mojibake repaired. */
  readonly fundName: string
  /** Fund RUN without check digit (the check digit was verified). */
  readonly run: number
  /** CMF fund type 1–8 ("Tipo de fondo"). */
  readonly fundType: number
  /** Administradora; null when the report leaves it blank (it does when asked for all of them). */
  readonly agfName: string | null
  readonly serie: string
  /** The currency as the cartola codes it: "$$" (PESOS), "PROM" (DOLAR), "EUR" (EURO). */
  readonly currencyCode: string
  /** Patrimony of the series in units of its currency (the CMF's millions × 1,000,000). */
  readonly patrimony: number
  /** Número de partícipes. */
  readonly holders: number
  /** Valor cuota, > 0. */
  readonly price: number
}

/** Our names of the 9 columns, for messages (the CMF's header names 8 of them). */
export const FM_BPR_DAILY_COLUMNS = [
  "Fondo", "RUN", "Tipo de fondo", "Administradora", "Serie", "Moneda", "Patrimonio", "Numero de participes", "Valor cuota"
] as const

/** The header row as the CMF writes it: a blank over the fund names, none over the currency. */
export const FM_BPR_DAILY_HEADER = [
  ["  ", "RUN", "Tipo de fondo (2)", "Administradora", "Serie", "Patrimonio (1)", "Numero de participes", "Valor cuota"]
] as const

const TITLE = "Patrimonio, Participes y Valor de la Cuota por Fecha Diaria"

/** Rows allowed above the header (the real report has nine). */
const PREAMBLE_ROWS = 20

/** The currency words of the report, as the cartola's MONEDA codes. */
const CURRENCY: Readonly<Record<string, string>> = { PESOS: "$$", DOLAR: "PROM", EURO: "EUR" }
const currencyOf = (s: string): string | undefined => CURRENCY[headerKey(s).toUpperCase()]

const UNSIGNED = /^(?:\d+(?:[.,]\d*)?|[.,]\d+)$/
const valid = (ok: (s: string) => boolean) => Schema.String.check(Schema.makeFilter((s: string) => ok(s)))

const Run = cell("a RUN like 8038-1 (its check digit right)", valid((s) => readRut(s)?.valid === true))
const FundType = cell("a fund type 1-8", valid((s) => /^[1-8](?:\.0+)?$/.test(s)))
const Currency = cell("PESOS, DOLAR or EURO", valid((s) => currencyOf(s) !== undefined))
const Millions = cell("a number of millions, 0 or more", valid((s) => UNSIGNED.test(s) && Number.isFinite(toNumber(s))))
const Count = cell("a whole number", valid((s) => /^\d+(?:\.0+)?$/.test(s) && Number.isSafeInteger(toNumber(s))))

const cells = [Name, Run, FundType, AnyText, Code, Currency, Millions, Count, PositiveDecimal] as const

/**
 * Millions (as decimal text) to units, exactly: the decimal point moves six places in the text, so
 * "127.916504" is 127916504 (a float multiply gives 127916503.99999999).
 */
export const millionsToUnits = (s: string): number => {
  const [whole = "", fraction = ""] = s.replace(",", ".").split(".")
  const digits = fraction.padEnd(6, "0")
  return Number(`${whole === "" ? "0" : whole}${digits.slice(0, 6)}.${digits.slice(6) === "" ? "0" : digits.slice(6)}`)
}

type Draft = { -readonly [K in keyof FmBprDailyRecord]: FmBprDailyRecord[K] }

const Row = cmfRow(cells, (c): Draft => ({
  line: 0,
  date: "",
  fundName: c[0],
  run: readRut(c[1])!.body,
  fundType: toNumber(c[2]),
  agfName: c[3] === "" ? null : c[3],
  serie: c[4],
  currencyCode: currencyOf(c[5])!,
  patrimony: millionsToUnits(c[6]),
  holders: toNumber(c[7]),
  price: toNumber(c[8])
}))

const isNote = (row: ReadonlyArray<string>): boolean => {
  const filled = row.filter((c) => c !== "")
  return filled.length === 1 && /\p{L}/u.test(filled[0]!)
}

const table: CmfSheetTable<Draft> = {
  dataSet: "fm_bpr_daily",
  columns: FM_BPR_DAILY_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(Row),
  header: FM_BPR_DAILY_HEADER,
  preambleRows: PREAMBLE_ROWS,
  isNote
}

const COMPARED: ReadonlyArray<readonly [keyof Draft, string]> = [
  ["fundName", "Fondo"], ["fundType", "Tipo de fondo"], ["agfName", "Administradora"], ["currencyCode", "Moneda"],
  ["patrimony", "Patrimonio"], ["holders", "Numero de participes"], ["price", "Valor cuota"]
]

const MONTHS = [
  "ENERO", "FEBRERO", "MARZO", "ABRIL", "MAYO", "JUNIO", "JULIO", "AGOSTO", "SEPTIEMBRE", "OCTUBRE", "NOVIEMBRE", "DICIEMBRE"
]
const FECHA = /FECHA\s*:\s*(\d{1,2})\s+DE\s+(\p{L}+)\s+DE\s+(\d{4})/u

/** "Fecha : 1 DE DICIEMBRE DE 2014" (any case, accents or not) → 2014-12-01; a string saying what is wrong otherwise. */
export const dateOfFechaLine = (text: string): Result.Result<string, string> | undefined => {
  const m = FECHA.exec(headerKey(text).toUpperCase())
  if (m === null) return undefined
  const month = m[2] === "SETIEMBRE" ? 9 : MONTHS.indexOf(m[2]!) + 1
  if (month === 0) return Result.fail(`unknown month "${m[2]}" in ${JSON.stringify(text.trim())}`)
  const iso = `${m[3]}-${String(month).padStart(2, "0")}-${m[1]!.padStart(2, "0")}`
  return isCalendarDate(iso) ? Result.succeed(iso) : Result.fail(`no such day: ${JSON.stringify(text.trim())}`)
}

interface Found {
  readonly where: string
  readonly line: number
  readonly date: Result.Result<string, string>
}

/** Every "Fecha :" line above the table: page text, earlier tables/sheets, the sheet's rows above the header. */
const fechaLines = (workbook: Workbook, { sheet, start }: LocatedTable): Array<Found> => {
  const found: Array<Found> = []
  const fromText = dateOfFechaLine(workbook.text)
  if (fromText !== undefined) found.push({ where: "", line: 0, date: fromText })
  for (const s of workbook.sheets.slice(0, workbook.sheets.indexOf(sheet) + 1)) {
    const rows = s === sheet ? s.rows.slice(0, start) : s.rows
    for (const row of rows) {
      rowTexts(row).forEach((c, i) => {
        const date = dateOfFechaLine(c)
        if (date !== undefined) found.push({ where: placeOf(s, row.number, i, []), line: row.number, date })
      })
    }
  }
  return found
}

/** The report's one day, or the problem with its Fecha line(s). */
const reportDate = (workbook: Workbook, located: LocatedTable, file: string): Result.Result<string, CmfFileInvalid> => {
  const problem = (where: string, line: number, detail: string) =>
    Result.fail(cmfFileInvalid({ dataSet: "fm_bpr_daily", file, line, field: "Fecha", detail, where }))
  const found = fechaLines(workbook, located)
  const first = found[0]
  if (first === undefined) {
    return problem(located.sheet.label, 0, 'no "Fecha : <day> DE <month> DE <year>" line above the header')
  }
  for (const f of found) if (Result.isFailure(f.date)) return problem(f.where, f.line, f.date.failure)
  const day = Result.getOrThrow(first.date)
  const other = found.find((f) => Result.getOrThrow(f.date) !== day)
  if (other !== undefined) {
    return problem(other.where, other.line, `a second day ${Result.getOrThrow(other.date)}, after ${day}`)
  }
  return Result.succeed(day)
}

const parse = Effect.fn("FmBprDailySource.parse")(function* (bytes: Uint8Array, file: string) {
  const workbook = yield* readWorkbookOf("fm_bpr_daily", bytes, file)
  const located = yield* locateTable(table, workbook, file)
  const date = reportDate(workbook, located, file)
  if (Result.isFailure(date)) return yield* date.failure
  const unique = uniqueRows<Draft>({
    dataSet: "fm_bpr_daily",
    file,
    keyOf: (r) => `RUN ${r.run} SERIE ${r.serie}`,
    compared: COMPARED,
    where: columnPlace(located.sheet, FM_BPR_DAILY_COLUMNS)
  })
  const read = yield* readCmfSheet(table, located, file, (row, rowNumber) => {
    row.date = date.success
    return unique.onRow(row, rowNumber)
  })
  return {
    records: unique.records as ReadonlyArray<FmBprDailyRecord>,
    repairs: {
      preambleSkipped: read.preambleSkipped,
      footnotesSkipped: read.footnotesSkipped,
      duplicatesSkipped: unique.duplicatesSkipped()
    }
  }
})

const head = (bytes: Uint8Array): Workbook | undefined => {
  if (workbookFormat(bytes) === null) return undefined
  const read = readWorkbook(bytes, PREAMBLE_ROWS + 2)
  return Result.isSuccess(read) ? read.success : undefined
}

const located = (workbook: Workbook): LocatedTable | undefined => {
  for (const sheet of workbook.sheets) {
    const start = findHeader(sheet, FM_BPR_DAILY_HEADER, PREAMBLE_ROWS)
    if (start !== undefined) return { sheet, start }
  }
  return undefined
}

const hasTitle = (workbook: Workbook): boolean =>
  headerKey(workbook.text).includes(headerKey(TITLE)) ||
  workbook.sheets.some((s) => s.rows.slice(0, PREAMBLE_ROWS).some((r) => rowTexts(r).some((c) => headerKey(c) === headerKey(TITLE))))

/**
 * The daily BPR data set: a workbook with the report's title or its header; keyed by its day
 * (`day_20141201`, from the Fecha line), else by the file's hash.
 */
export const FmBprDailySource: DataSetSource<FmBprDailyRecord> = {
  name: "fm_bpr_daily",
  detect: (bytes) => {
    const workbook = head(bytes)
    return workbook !== undefined && (hasTitle(workbook) || located(workbook) !== undefined)
  },
  parse,
  key: (_name, bytes, sha256) => {
    const workbook = head(bytes)
    const at = workbook === undefined ? undefined : located(workbook)
    if (workbook === undefined || at === undefined) return sha256
    const date = reportDate(workbook, at, "")
    return Result.isSuccess(date) ? `day_${date.success.replaceAll("-", "")}` : sha256
  }
}
