import { Schema } from "effect"
import { DataSetName } from "../../schemas/CmfRecords.ts"

/**
 * A raw CMF file that cannot be read as its data set: the whole file is rejected, naming the
 * file, the 1-based line and the CMF column, e.g.
 * `cartola_diaria ffmm_todos_20260101_20260131.txt line 17 field VALOR_CUOTA: expected a positive number, got "abc"`.
 */
export class CmfFileInvalid extends Schema.TaggedError<CmfFileInvalid>()("CmfFileInvalid", {
  dataSet: DataSetName,
  file: Schema.String,
  line: Schema.Number,
  field: Schema.String,
  message: Schema.String
}) {}

/** Where a problem was found; `detail` becomes the part of the message after the colon. */
export interface CmfProblem {
  readonly dataSet: DataSetName
  readonly file: string
  readonly line: number
  readonly field: string
  readonly detail: string
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
    message: `${p.dataSet} ${p.file} line ${p.line} field ${p.field}: ${p.detail}`
  })
