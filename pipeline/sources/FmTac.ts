/**
 * The monthly FM TAC table (`fmdfm_excel2.php`, an XLS converted to `;` text): 18 columns, title
 * lines before the header, footnotes after the data. CMF publishes no RUN: staging matches rows to
 * funds with `normalizeFundName` / `normalizeAdminName`.
 */
import { Effect, Schema, SchemaParser } from "effect"
import type { FmTacRecord } from "../../schemas/records/FmTac.ts"
import { AnyText, cell, cmfRow, isCalendarDate, isoFromYmd, Text, toNumber } from "./CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "./CmfFileInvalid.ts"
import { type CmfTable, isHeader, readCmfTable } from "./CmfTable.ts"
import { decodeCmfText } from "./CmfText.ts"
import type { DataSetSource } from "./DataSet.ts"
import { monthFromName } from "./MonthHint.ts"
import { repairMojibake } from "./Mojibake.ts"

/** Our header for the 18 columns (CMF's XLS names none that we could confirm; see README). */
export const FM_TAC_COLUMNS = [
  "Periodo", "Administradora", "Nombre Fondo", "Tipo Fondo", "Moneda", "Serie", "Características",
  "Remuneración Fija", "Remuneración Variable", "Gastos de Operación", "TAC Remuneración Fija",
  "TAC Remuneración Variable", "TAC Gastos de Operación", "TAC Total", "Condición Comisión Colocación",
  "Comisión Colocación", "Condición Comisión Diferida", "Comisión Diferida"
] as const

/** Title lines allowed before the header (the XLS has three). */
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

const table: CmfTable<FmTacDraft> = {
  dataSet: "fm_tac",
  columns: FM_TAC_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(FmTacRow),
  preambleLines: PREAMBLE_LINES,
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

const parse = Effect.fn("FmTacSource.parse")(function* (bytes: Uint8Array, file: string) {
  const records: Array<FmTacRecord> = []
  const seen = new Map<string, FmTacRecord>()
  let duplicatesSkipped = 0
  const problem = (line: number, field: string, detail: string) =>
    cmfFileInvalid({ dataSet: "fm_tac", file, line, field, detail })

  const onRow = (record: FmTacDraft, line: number): CmfFileInvalid | undefined => {
    record.line = line
    const first = records[0]
    if (first !== undefined && first.period !== record.period) {
      return problem(line, "Periodo", `expected the file's period ${first.period} (line ${first.line}), got ${record.period}`)
    }
    const key = `${record.agfName}|${record.fundName}|${record.serie}`
    const earlier = seen.get(key)
    if (earlier === undefined) {
      seen.set(key, record)
      records.push(record)
      return undefined
    }
    const differing = COMPARED.find(([field]) => earlier[field] !== record[field])
    if (differing === undefined) {
      duplicatesSkipped++
      return undefined
    }
    const [field, column] = differing
    return problem(
      line,
      column,
      `conflicts with line ${earlier.line} for ${record.fundName} serie ${record.serie}: ${String(earlier[field])} vs ${String(record[field])}`
    )
  }

  const read = yield* readCmfTable(table, bytes, file, onRow)
  return {
    records,
    repairs: { preambleSkipped: read.preambleSkipped, footnotesSkipped: read.footnotesSkipped, duplicatesSkipped }
  }
})

/** The FM TAC data set: detected by its header within the first lines, keyed by the month of its Periodo. */
export const FmTacSource: DataSetSource<FmTacRecord> = {
  name: "fm_tac",
  detect: (bytes) =>
    headLines(bytes.subarray(0, 8192))
      .slice(0, PREAMBLE_LINES + 1)
      .some((line) => isHeader(line.split(";"), FM_TAC_COLUMNS)),
  parse,
  key: (name, bytes, sha256) => {
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
