/** One series of our FI fact-sheet review file (`RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA`). */
import { Schema } from "effect"

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
