/**
 * The monthly FM TAC table (`fmdfm_excel2.php`): the CMF's workbook (XLS, XLSX or an HTML table
 * served as Excel: a title, a two-row merged header) or that workbook converted to `;` text (our
 * one-row header). 18 columns, footnotes after the data; a second fee tier comes as a continuation
 * row (its first 14 cells blank). CMF publishes no RUN: staging matches rows to funds with
 * `normalizeFundName` / `normalizeAdminName`.
 */
import { Effect, Result, Schema, SchemaParser } from "effect"
import { AnyText, cell, cmfRow, isCalendarDate, isoFromYmd, Text, toNumber } from "../../cmf/CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { headerKey } from "../../cmf/CmfHtmlTable.ts"
import { type CmfSheetTable, columnPlace, findHeader, locateTable, readCmfSheet, readWorkbookOf, rowTexts } from "../../cmf/CmfSheet.ts"
import { type CmfTable, isHeader, readCmfTable } from "../../cmf/CmfTable.ts"
import { decodeCmfText } from "../../cmf/CmfText.ts"
import type { DataSetSource } from "../DataSet.ts"
import { monthFromName } from "../../cmf/MonthHint.ts"
import { repairMojibake } from "../../cmf/Mojibake.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"
import { readWorkbook, type Workbook, workbookFormat } from "../../cmf/Workbook.ts"
import { assetId } from "../../../schemas/Ids.ts"
import type { AdministratorsTable, FundsTable } from "../../../snapshots/Tables.ts"
import type { TacTable } from "../../../snapshots/tables/FmExtras.ts"
import { coreOf, type StageContext } from "../StageContext.ts"
import { percentToFraction } from "../../cmf/Units.ts"

/*
 * Parsed FM TAC (data set `fm_tac`, CMF `fmdfm_excel2.php`): the annual cost ratio of each series
 * for one month. CMF publishes no RUN: staging matches a row to its fund by normalised fund and
 * administrator name. Percentages are kept as CMF writes them (2.5 is 2.5 %), not as fractions.
 */

/** One series of one fund in the monthly TAC table. */
export interface FmTacRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** Periodo: the month-end the TAC refers to, YYYY-MM-DD. */
  readonly period: string
  /** The month of `period`, YYYY-MM. */
  readonly month: string
  /** Administradora, mojibake repaired. */
  readonly agfName: string
  /** Nombre Fondo, mojibake repaired, as published (a trailing "(2)" included). */
  readonly fundName: string
  /** Tipo Fondo: CMF fund type 1–8; null when blank. */
  readonly fundType: number | null
  /** Moneda, raw. */
  readonly currency: string
  readonly serie: string
  /** Características of the series (minimum amount, APV, …); null when blank or NA. */
  readonly characteristics: string | null
  /** Remuneración Fija as published text (e.g. "Hasta 2,38% anual IVA incluido"); null when blank or NA. */
  readonly fixedFeeText: string | null
  /** Remuneración Variable as published text; null when blank or NA. */
  readonly variableFeeText: string | null
  /** Gastos de Operación as published text; null when blank or NA. */
  readonly operatingExpensesText: string | null
  /** TAC Remuneración Fija, percent; null when NA or blank. */
  readonly tacFixedFeePercent: number | null
  /** TAC Remuneración Variable, percent; null when NA or blank. */
  readonly tacVariableFeePercent: number | null
  /** TAC Gastos de Operación, percent; null when NA or blank. */
  readonly tacOperatingExpensesPercent: number | null
  /** TAC Total, percent; null when NA or blank (the series has no TAC). */
  readonly tacTotalPercent: number | null
  /** Condición Comisión Colocación; null when blank or NA. */
  readonly placementFeeCondition: string | null
  /** Comisión Colocación (subscription fee) as text; null when blank or NA. */
  readonly placementFeeText: string | null
  /** Condición Comisión Diferida; null when blank or NA. */
  readonly deferredFeeCondition: string | null
  /** Comisión Diferida (redemption fee) as text; null when blank or NA. */
  readonly deferredFeeText: string | null
}

/** Our header for the 18 columns (CMF's XLS names none that we could confirm; see README). */
export const FM_TAC_COLUMNS = [
  "Periodo", "Administradora", "Nombre Fondo", "Tipo Fondo", "Moneda", "Serie", "Características",
  "Remuneración Fija", "Remuneración Variable", "Gastos de Operación", "TAC Remuneración Fija",
  "TAC Remuneración Variable", "TAC Gastos de Operación", "TAC Total", "Condición Comisión Colocación",
  "Comisión Colocación", "Condición Comisión Diferida", "Comisión Diferida"
] as const

/** The workbook's header as the CMF writes it (December 2025): two rows, merged cells leave blanks. */
export const FM_TAC_SHEET_HEADER = [
  [
    "Periodo", "Administradora", "Nombre Fondo", "Tipo Fondo", "Moneda", "Serie", "Caract.", "Remuneración", "",
    "Gastos OP.", "TAC Rem. Fija", "TAC Rem. Var.", "TAC Gastos Op.", "TAC Total", "Comisión de Colocación", "",
    "Comisión de Colocación Dif", ""
  ],
  ["", "", "", "", "", "", "", "Rem. Fija", "Rem. Var.", "", "%", "%", "%", "%", "Condición", "Comisión", "Condición", "Comisión"]
] as const

/** The workbook's title, above its header. */
const TITLE = "Cuadro estadístico de Costos"

/** Title lines allowed before the header (the XLS has two: the title and a blank row). */
const PREAMBLE_LINES = 10

const NOT_AVAILABLE = /^(?:NA|N\/A)$/i

const Period = cell(
  "a date YYYYMMDD (or YYYYMMDD.0)",
  Schema.String.check(Schema.makeFilter((s: string) => /^\d{8}(?:\.0+)?$/.test(s) && isCalendarDate(isoFromYmd(s))))
)
const FundType = cell("a fund type 1-8 or blank", Schema.String.check(Schema.isPattern(/^(?:[1-8](?:\.0+)?)?$/)))
const TacPercent = cell(
  "a percentage 0-100, NA or blank",
  Schema.String.check(
    Schema.makeFilter(
      (s: string) => s === "" || NOT_AVAILABLE.test(s) || (/^(?:\d+(?:[.,]\d*)?|[.,]\d+)$/.test(s) && toNumber(s) <= 100)
    )
  )
)

const cells = [
  Period, Text, Text, FundType, Text, Text, AnyText, AnyText, AnyText, AnyText,
  TacPercent, TacPercent, TacPercent, TacPercent, AnyText, AnyText, AnyText, AnyText
] as const

const text = (s: string): string | null => (s === "" || NOT_AVAILABLE.test(s) ? null : repairMojibake(s))
const percent = (s: string): number | null => (s === "" || NOT_AVAILABLE.test(s) ? null : toNumber(s))

type FmTacDraft = { -readonly [K in keyof FmTacRecord]: FmTacRecord[K] }

const FmTacRow = cmfRow(cells, (c): FmTacDraft => {
  const period = isoFromYmd(c[0])
  return {
    line: 0,
    period,
    month: period.slice(0, 7),
    agfName: repairMojibake(c[1]),
    fundName: repairMojibake(c[2]),
    fundType: c[3] === "" ? null : toNumber(c[3]),
    currency: c[4],
    serie: c[5],
    characteristics: text(c[6]),
    fixedFeeText: text(c[7]),
    variableFeeText: text(c[8]),
    operatingExpensesText: text(c[9]),
    tacFixedFeePercent: percent(c[10]),
    tacVariableFeePercent: percent(c[11]),
    tacOperatingExpensesPercent: percent(c[12]),
    tacTotalPercent: percent(c[13]),
    placementFeeCondition: text(c[14]),
    placementFeeText: text(c[15]),
    deferredFeeCondition: text(c[16]),
    deferredFeeText: text(c[17])
  }
})

// A note of the converted XLS: its text in one cell, the other cells empty (or a blank row of ";").
const isNote = (row: ReadonlyArray<string>): boolean => {
  const filled = row.filter((c) => c.trim() !== "")
  return filled.length === 0 || (filled.length === 1 && /\p{L}/u.test(filled[0]!))
}

// The second fee tier of the series above: only the four commission cells (14-17) filled. The
// record keeps the first tier; these rows are counted.
const FEE_CELLS = 14
const isContinuation = (row: ReadonlyArray<string>): boolean =>
  row.length <= FM_TAC_COLUMNS.length &&
  row.slice(0, FEE_CELLS).every((c) => c.trim() === "") &&
  row.slice(FEE_CELLS).some((c) => c.trim() !== "")

const decode = SchemaParser.decodeUnknownResult(FmTacRow)

const table: CmfTable<FmTacDraft> = {
  dataSet: "fm_tac",
  columns: FM_TAC_COLUMNS,
  cells,
  decode,
  preambleLines: PREAMBLE_LINES,
  isNote
}

const sheetTable: CmfSheetTable<FmTacDraft> = {
  dataSet: "fm_tac",
  columns: FM_TAC_COLUMNS,
  cells,
  decode,
  header: FM_TAC_SHEET_HEADER,
  preambleRows: PREAMBLE_LINES,
  isNote
}

/** Record fields compared when a (Administradora, Nombre Fondo, Serie) repeats, with their column. */
const COMPARED: ReadonlyArray<readonly [keyof FmTacRecord, string]> = [
  ["fundType", "Tipo Fondo"], ["currency", "Moneda"], ["characteristics", "Características"],
  ["fixedFeeText", "Remuneración Fija"], ["variableFeeText", "Remuneración Variable"],
  ["operatingExpensesText", "Gastos de Operación"], ["tacFixedFeePercent", "TAC Remuneración Fija"],
  ["tacVariableFeePercent", "TAC Remuneración Variable"], ["tacOperatingExpensesPercent", "TAC Gastos de Operación"],
  ["tacTotalPercent", "TAC Total"], ["placementFeeCondition", "Condición Comisión Colocación"],
  ["placementFeeText", "Comisión Colocación"], ["deferredFeeCondition", "Condición Comisión Diferida"],
  ["deferredFeeText", "Comisión Diferida"]
]

const baseName = (s: string): string =>
  repairMojibake(s).normalize("NFD").replace(/\p{M}/gu, "").toUpperCase().replace(/\s+/g, " ").trim()

/** Administrator name as matched against the registry: mojibake repaired, no accents, upper case, single spaces. */
export const normalizeAdminName = (s: string): string => baseName(s)

/** Fund name as matched against the registry: as `normalizeAdminName`, and without a trailing "(n)". */
export const normalizeFundName = (s: string): string => baseName(s).replace(/\s*\(\d+\)$/, "")

const headLines = (bytes: Uint8Array): Array<string> =>
  decodeCmfText(bytes.subarray(0, 64 * 1024)).split(/\r\n|\n|\r/)

/**
 * One row per (Administradora, Nombre Fondo, Serie) of one period. `where` places a row in a
 * workbook (lines are then its rows).
 */
const tacRows = (file: string, where?: (line: number, column: string) => string) => {
  const unique = uniqueRows<FmTacDraft>({
    dataSet: "fm_tac",
    file,
    keyOf: (r) => `${r.fundName} serie ${r.serie} of ${r.agfName}`,
    compared: COMPARED,
    nullAs: "NA",
    ...(where === undefined ? {} : { where })
  })
  const onRow = (record: FmTacDraft, line: number): CmfFileInvalid | undefined => {
    const first = unique.records[0]
    if (first !== undefined && first.period !== record.period) {
      const said = where === undefined ? "line" : "row"
      return cmfFileInvalid({
        dataSet: "fm_tac",
        file,
        line,
        field: "Periodo",
        detail: `expected the file's period ${first.period} (${said} ${first.line}), got ${record.period}`,
        ...(where === undefined ? {} : { where: where(line, "Periodo") })
      })
    }
    return unique.onRow(record, line)
  }
  return { unique, onRow }
}

const parseText = Effect.fn("FmTacSource.parseText")(function* (bytes: Uint8Array, file: string) {
  const { unique, onRow } = tacRows(file)
  let continuationRows = 0
  // A continuation row is one only below a data row; before any it is a bad data row.
  const withContinuations: CmfTable<FmTacDraft> = {
    ...table,
    isNote: (row) => {
      if (unique.records.length > 0 && isContinuation(row)) {
        continuationRows++
        return true
      }
      return isNote(row)
    }
  }
  const read = yield* readCmfTable(withContinuations, bytes, file, onRow)
  return {
    records: unique.records as ReadonlyArray<FmTacRecord>,
    repairs: {
      preambleSkipped: read.preambleSkipped,
      footnotesSkipped: read.footnotesSkipped - continuationRows,
      continuationRows,
      duplicatesSkipped: unique.duplicatesSkipped()
    }
  }
})

const parseWorkbook = Effect.fn("FmTacSource.parseWorkbook")(function* (bytes: Uint8Array, file: string) {
  const workbook = yield* readWorkbookOf("fm_tac", bytes, file)
  const located = yield* locateTable(sheetTable, workbook, file)
  const { unique, onRow } = tacRows(file, columnPlace(located.sheet, FM_TAC_COLUMNS))
  // As in the text: a continuation row is one only below a data row.
  const tiers = { ...sheetTable, isContinuation: (row: ReadonlyArray<string>) => unique.records.length > 0 && isContinuation(row) }
  const read = yield* readCmfSheet(tiers, located, file, onRow)
  return {
    records: unique.records as ReadonlyArray<FmTacRecord>,
    repairs: {
      preambleSkipped: read.preambleSkipped,
      footnotesSkipped: read.footnotesSkipped,
      continuationRows: read.continuationRows,
      duplicatesSkipped: unique.duplicatesSkipped()
    }
  }
})

const parse = (bytes: Uint8Array, file: string) =>
  workbookFormat(bytes) === null ? parseText(bytes, file) : parseWorkbook(bytes, file)

/** The head of a workbook (title, header, first rows), for detect and key; undefined when unreadable. */
const workbookHead = (bytes: Uint8Array): Workbook | undefined => {
  const read = readWorkbook(bytes, PREAMBLE_LINES + FM_TAC_SHEET_HEADER.length + 2)
  return Result.isSuccess(read) ? read.success : undefined
}

// Its title, or the header's first row where the title should be.
const isTacWorkbook = (workbook: Workbook): boolean =>
  headerKey(workbook.text).includes(headerKey(TITLE)) ||
  workbook.sheets.some(
    (sheet) =>
      sheet.rows.slice(0, PREAMBLE_LINES).some((row) => rowTexts(row).some((c) => headerKey(c) === headerKey(TITLE))) ||
      findHeader(sheet, [FM_TAC_SHEET_HEADER[0]], PREAMBLE_LINES) !== undefined
  )

/** The Periodo of the workbook's first data row, YYYYMMDD. */
const workbookPeriod = (workbook: Workbook): string | undefined => {
  for (const sheet of workbook.sheets) {
    const start = findHeader(sheet, FM_TAC_SHEET_HEADER, PREAMBLE_LINES)
    if (start === undefined) continue
    const first = sheet.rows.slice(start + FM_TAC_SHEET_HEADER.length).map((r) => rowTexts(r)[0] ?? "").find((c) => c !== "")
    return first !== undefined && /^\d{8}(?:\.0+)?$/.test(first) ? first : undefined
  }
  return undefined
}

/**
 * The FM TAC data set: detected by its header within the first lines (a workbook: by its title or
 * header), keyed by the month of its Periodo.
 */
export const FmTacSource: DataSetSource<FmTacRecord> = {
  name: "fm_tac",
  detect: (bytes) => {
    if (workbookFormat(bytes) !== null) {
      const head = workbookHead(bytes)
      return head !== undefined && isTacWorkbook(head)
    }
    return headLines(bytes.subarray(0, 8192))
      .slice(0, PREAMBLE_LINES + 1)
      .some((line) => isHeader(line.split(";"), FM_TAC_COLUMNS))
  },
  parse,
  key: (name, bytes, sha256) => {
    if (workbookFormat(bytes) !== null) {
      const head = workbookHead(bytes)
      const period = head === undefined ? undefined : workbookPeriod(head)
      return period !== undefined ? isoFromYmd(period).slice(0, 7) : (monthFromName(name) ?? sha256)
    }
    const lines = headLines(bytes)
    const header = lines.findIndex((line) => isHeader(line.split(";"), FM_TAC_COLUMNS))
    const period = lines
      .slice(header + 1)
      .map((line) => line.split(";")[0]?.trim() ?? "")
      .find((c) => /^\d{8}(?:\.0+)?$/.test(c))
    if (header !== -1 && period !== undefined) return isoFromYmd(period).slice(0, 7)
    return monthFromName(name) ?? sha256
  }
}

/**
 * TAC rows carry no RUN: a row is matched to its fund by normalised administrator and fund name
 * (mojibake repaired, a trailing "(n)" dropped), then to the series by label. Unmatched rows and
 * rows without a TAC total are counted, not fatal; percentages become fractions.
 */
export const stageTac = (
  records: ReadonlyArray<FmTacRecord>,
  funds: ReadonlyArray<FundsTable>,
  administrators: ReadonlyArray<AdministratorsTable>,
  knownSeries: ReadonlySet<number>,
  aliasOf: ReadonlyMap<number, number>,
) => {
  const adminName = new Map(administrators.map((a) => [a.provider_id, normalizeAdminName(a.name)]))
  const runOf = new Map<string, number>()
  for (const f of funds) runOf.set(`${adminName.get(f.provider_id)}|${normalizeFundName(f.name)}`, f.run)
  const rows = new Map<string, TacTable>()
  const repairs = { tac_rows_without_total: 0, tac_rows_unmatched_fund: 0, tac_rows_unmatched_series: 0 }
  for (const r of records) {
    if (r.tacTotalPercent === null) {
      repairs.tac_rows_without_total++
      continue
    }
    const run = runOf.get(`${normalizeAdminName(r.agfName)}|${normalizeFundName(r.fundName)}`)
    if (run === undefined) {
      repairs.tac_rows_unmatched_fund++
      continue
    }
    const raw = assetId(run, r.serie)
    const id = aliasOf.get(raw) ?? raw
    if (!knownSeries.has(id)) {
      repairs.tac_rows_unmatched_series++
      continue
    }
    const frac = (p: number | null) => (p === null ? null : percentToFraction(p))
    rows.set(`${id}|${r.month}`, {
      asset_id: id,
      month: r.month,
      tac: percentToFraction(r.tacTotalPercent),
      tac_fixed: frac(r.tacFixedFeePercent),
      tac_variable: frac(r.tacVariableFeePercent),
      tac_expenses: frac(r.tacOperatingExpensesPercent),
    })
  }
  const sorted = [...rows.values()].sort((a, b) => a.asset_id - b.asset_id || (a.month < b.month ? -1 : 1))
  return { rows: sorted, repairs }
}

export const tacStep = (context: StageContext) =>
  Effect.sync(() => {
    const core = coreOf(context)
    const tac = stageTac(context.records<FmTacRecord>("fm_tac"), core.funds, core.administrators, core.known, core.aliasOf)
    context.put("tac", tac.rows)
    Object.assign(context.repairs, tac.repairs)
  })
