/**
 * Our FI fact-sheet review file (CMF publishes no such file; the format is ours): `;` text, latin-1
 * or UTF-8, header `RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA`, one line per series. TAC is in
 * percent with "," or "." as decimal mark; ESTADO_REVISION is REVISADA, PENDIENTE, NO_INFORMADA or
 * CONFLICTO; FECHA_FICHA is DD/MM/YYYY. REVISADA and PENDIENTE need a TAC and a date, NO_INFORMADA
 * must have no TAC, CONFLICTO may have either.
 */
import { Effect, Schema, SchemaParser } from "effect"
import type { DataSetSource } from "../DataSet.ts"
import { cmfRow, isoFromDmy, NullableDateDmy, NullableDecimal, Text, toNullableNumber, toNumber, WholeNumber } from "../../cmf/CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { startsWithHeader } from "../../cmf/CmfHeaderLine.ts"
import { type CmfTable, readCmfTable } from "../../cmf/CmfTable.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"

/* One series of our FI fact-sheet review file (`RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA`). */

/**
 * The review state of a series' CMF fact sheet: REVISADA (TAC read and checked), PENDIENTE (TAC read,
 * not yet checked), NO_INFORMADA (the sheet gives no TAC), CONFLICTO (sources disagree).
 */
export const FactSheetReview = Schema.Literals(["REVISADA", "PENDIENTE", "NO_INFORMADA", "CONFLICTO"]).annotate({
  description: "Review state of a series' CMF fact sheet"
})
export type FactSheetReview = typeof FactSheetReview.Type

export interface FiFactSheetRecord {
  /** 1-based line in the file. */
  readonly line: number
  readonly run: number
  readonly serie: string
  /** TAC in percent as the sheet gives it (1.25 = 1.25 %); null when not given. */
  readonly tacPercent: number | null
  readonly review: FactSheetReview
  /** FECHA_FICHA, YYYY-MM-DD: the date of the sheet; null when not given. */
  readonly sheetDate: string | null
}

export const FI_FACT_SHEET_COLUMNS = ["RUN", "SERIE", "TAC", "ESTADO_REVISION", "FECHA_FICHA"] as const
const cells = [WholeNumber, Text, NullableDecimal, Text, NullableDateDmy] as const

interface Draft {
  run: number
  serie: string
  tacPercent: number | null
  review: string
  sheetDate: string | null
}

const table: CmfTable<Draft> = {
  dataSet: "fi_fact_sheets",
  columns: FI_FACT_SHEET_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(
    cmfRow(cells, (c): Draft => ({ run: toNumber(c[0]), serie: c[1], tacPercent: toNullableNumber(c[2]), review: c[3], sheetDate: isoFromDmy(c[4]) }))
  )
}

const REVIEWS: ReadonlyArray<string> = FactSheetReview.literals

/** Which rule of the review states a row breaks, as [column, detail]; undefined when none. */
const ruleBroken = (d: Draft): readonly [string, string] | undefined => {
  if (!REVIEWS.includes(d.review)) return ["ESTADO_REVISION", `expected one of ${REVIEWS.join(", ")}, got "${d.review}"`]
  if (d.tacPercent !== null && (d.tacPercent < 0 || d.tacPercent >= 100)) return ["TAC", `expected a percentage from 0 to 100, got ${d.tacPercent}`]
  const needsBoth = d.review === "REVISADA" || d.review === "PENDIENTE"
  if (needsBoth && d.tacPercent === null) return ["TAC", `a ${d.review} sheet needs its TAC`]
  if (needsBoth && d.sheetDate === null) return ["FECHA_FICHA", `a ${d.review} sheet needs its date`]
  if (d.review === "NO_INFORMADA" && d.tacPercent !== null) return ["TAC", "a NO_INFORMADA sheet has no TAC"]
  return undefined
}

/** One line per (RUN, SERIE): an identical repeat is skipped and counted, one with other values rejected. */
const parse = Effect.fn("FiFactSheets.parse")(function* (bytes: Uint8Array, file: string) {
  const unique = uniqueRows<FiFactSheetRecord>({
    dataSet: "fi_fact_sheets",
    file,
    keyOf: (r) => `RUN ${r.run} SERIE ${r.serie}`,
    compared: [["tacPercent", "TAC"], ["review", "ESTADO_REVISION"], ["sheetDate", "FECHA_FICHA"]]
  })

  const onRow = (d: Draft, line: number): CmfFileInvalid | undefined => {
    const broken = ruleBroken(d)
    if (broken !== undefined) return cmfFileInvalid({ dataSet: "fi_fact_sheets", file, line, field: broken[0], detail: broken[1] })
    return unique.onRow({ line, ...d, review: d.review as FactSheetReview }, line)
  }

  const { footnotesSkipped } = yield* readCmfTable(table, bytes, file, onRow)
  return { records: unique.records, repairs: { duplicatesSkipped: unique.duplicatesSkipped(), footnotesSkipped } }
})

/** Data set 13: FI fact-sheet review (our format); the newest file replaces the older. */
export const FiFactSheetsSource: DataSetSource<FiFactSheetRecord> = {
  name: "fi_fact_sheets",
  detect: (bytes) => startsWithHeader(bytes, FI_FACT_SHEET_COLUMNS),
  parse,
  key: () => "all"
}
