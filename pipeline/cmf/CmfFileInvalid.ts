import { Schema } from "effect"
import { printableName } from "./PrintableName.ts"

/**
 * A raw CMF file that cannot be read as its data set: the whole file is rejected, naming the
 * file, the 1-based line and the CMF column, e.g.
 * `cartola_diaria ffmm_todos_20260101_20260131.txt line 17 field VALOR_CUOTA: expected a positive number, got "abc"`;
 * in a workbook `line` is the sheet's row and the message says where, e.g.
 * `fm_tac costos_202512.xls sheet "Hoja1" row 7 column N (TAC Total): expected …`.
 */
export class CmfFileInvalid extends Schema.TaggedError<CmfFileInvalid>()("CmfFileInvalid", {
  /** The name of the data set the file was read as (the CMF helpers know no data set). */
  dataSet: Schema.String,
  file: Schema.String,
  line: Schema.Number,
  field: Schema.String,
  message: Schema.String
}) {}

/** Where a problem was found; `detail` becomes the part of the message after the colon. */
export interface CmfProblem {
  readonly dataSet: string
  readonly file: string
  readonly line: number
  readonly field: string
  readonly detail: string
  /**
   * In a workbook: the place, e.g. `sheet "Hoja1" row 7 column N (TAC Total)`, said instead of
   * "line L field F" ("" when the problem is the whole file).
   */
  readonly where?: string
}

/** A cell's text as a message quotes it: whole up to 80 characters, else its start and its length. */
export const quoted = (cell: string): string =>
  cell.length <= 80 ? `"${cell}"` : `"${cell.slice(0, 60)}…" (${cell.length.toLocaleString("en-US")} characters)`

export const cmfFileInvalid = (p: CmfProblem): CmfFileInvalid =>
  new CmfFileInvalid({
    dataSet: p.dataSet,
    file: p.file,
    line: p.line,
    field: p.field,
    // `file` stays the ledger's name (the run finds the input by it); the message prints it escaped.
    message: `${p.dataSet} ${printableName(p.file)}${p.where === undefined ? ` line ${p.line} field ${p.field}` : p.where === "" ? "" : ` ${p.where}`}: ${p.detail}`
  })
