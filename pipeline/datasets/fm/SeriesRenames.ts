/**
 * Series renames (our curated format, no CMF file): `RUN;OLD_SERIE;NEW_SERIE;FIRST_DATE`, one
 * relabel per line, `FIRST_DATE` as YYYY-MM-DD. The file is the whole list: a newer one replaces it.
 */
import { Effect, Schema, SchemaParser } from "effect"
import { cell, cmfRow, isCalendarDate, Text, toNumber, WholeNumber } from "../../cmf/CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { type CmfTable, isHeader, readCmfTable } from "../../cmf/CmfTable.ts"
import { decodeCmfText } from "../../cmf/CmfText.ts"
import type { DataSetSource } from "../DataSet.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"
import { dateToInt } from "../../../schemas/Dates.ts"
import { assetId } from "../../../schemas/Ids.ts"
import type { SeriesAliasesTable } from "../../../snapshots/tables/FmExtras.ts"
import type { StageContext } from "../StageContext.ts"

/*
 * Parsed series renames (data set `series_renames`, our curated file): CMF has no link between a
 * series' old and new label, so observed relabels are listed by hand.
 */

/** One relabel: from `firstDate` on, the series `oldSerie` of fund `run` is published as `newSerie`. */
export interface SeriesRenameRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** Fund RUN without check digit. */
  readonly run: number
  readonly oldSerie: string
  readonly newSerie: string
  /** First date observed with the new label, YYYY-MM-DD. */
  readonly firstDate: string
}

export const SERIES_RENAMES_COLUMNS = ["RUN", "OLD_SERIE", "NEW_SERIE", "FIRST_DATE"] as const

const DateIso = cell(
  "a date YYYY-MM-DD",
  Schema.String.check(Schema.makeFilter((s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isCalendarDate(s)))
)

const cells = [WholeNumber, Text, Text, DateIso] as const

type Draft = { -readonly [K in keyof SeriesRenameRecord]: SeriesRenameRecord[K] }

const Row = cmfRow(cells, (c): Draft => ({ line: 0, run: toNumber(c[0]), oldSerie: c[1], newSerie: c[2], firstDate: c[3] }))

const table: CmfTable<Draft> = {
  dataSet: "series_renames",
  columns: SERIES_RENAMES_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(Row)
}

/**
 * One line per (RUN, OLD_SERIE): an identical repeat is skipped and counted, one with another
 * NEW_SERIE or FIRST_DATE rejected; two old labels into one new label (a merge) are rejected too.
 */
const parse = Effect.fn("SeriesRenamesSource.parse")(function* (bytes: Uint8Array, file: string) {
  const unique = uniqueRows<Draft>({
    dataSet: "series_renames",
    file,
    keyOf: (r) => `RUN ${r.run} OLD_SERIE ${r.oldSerie}`,
    compared: [["newSerie", "NEW_SERIE"], ["firstDate", "FIRST_DATE"]]
  })
  const byNew = new Map<string, SeriesRenameRecord>()
  const problem = (line: number, field: string, detail: string) =>
    cmfFileInvalid({ dataSet: "series_renames", file, line, field, detail })

  const onRow = (r: Draft, line: number): CmfFileInvalid | undefined => {
    if (r.oldSerie === r.newSerie) return problem(line, "NEW_SERIE", `the same label as OLD_SERIE ("${r.oldSerie}")`)
    const kept = unique.records.length
    const repeat = unique.onRow(r, line)
    // A repeat of a rename (skipped or rejected) says nothing new about its new label.
    if (repeat !== undefined || unique.records.length === kept) return repeat
    const target = byNew.get(`${r.run}|${r.newSerie}`)
    if (target !== undefined) {
      return problem(line, "NEW_SERIE", `RUN ${r.run} ${r.newSerie} is already the new label of ${target.oldSerie} at line ${target.line}`)
    }
    byNew.set(`${r.run}|${r.newSerie}`, r)
    return undefined
  }

  const read = yield* readCmfTable(table, bytes, file, onRow)
  return { records: unique.records, repairs: { duplicatesSkipped: unique.duplicatesSkipped(), footnotesSkipped: read.footnotesSkipped } }
})

const firstLine = (bytes: Uint8Array): string =>
  decodeCmfText(bytes.subarray(0, 4096)).split(/\r\n|\n|\r/).find((l) => l.trim() !== "") ?? ""

/** The series-renames data set: detected by its header; one key, the newest file replaces the older. */
export const SeriesRenamesSource: DataSetSource<SeriesRenameRecord> = {
  name: "series_renames",
  detect: (bytes) => isHeader(firstLine(bytes).split(";"), SERIES_RENAMES_COLUMNS),
  parse,
  key: () => "series_renames"
}

/** Renames as the quota merge needs them: "RUN|OLD" → NEW, and the alias rows. */
export const stageRenames = (records: ReadonlyArray<SeriesRenameRecord>) => {
  const relabel = new Map<string, string>()
  const aliases: SeriesAliasesTable[] = []
  for (const r of records) {
    const previous = r.oldSerie.trim().toUpperCase()
    const current = r.newSerie.trim().toUpperCase()
    relabel.set(`${r.run}|${previous}`, current)
    aliases.push({
      alias_id: assetId(r.run, previous),
      asset_id: assetId(r.run, current),
      run: r.run,
      previous_serie: previous,
      current_serie: current,
      first_current_date: dateToInt(r.firstDate),
    })
  }
  aliases.sort((a, b) => a.alias_id - b.alias_id)
  return { relabel, aliases }
}

/** The renames step: first, so that the daily values join a renamed series' old label. */
export const renamesStep = (context: StageContext) =>
  Effect.sync(() => {
    const renames = stageRenames(context.records<SeriesRenameRecord>("series_renames"))
    context.relabel = renames.relabel
    context.renameAliases = renames.aliases
  })
