/**
 * Article 107 declarations: one text file per fund with its internal regulation (our assumed
 * layout, latin-1 or UTF-8):
 *
 *     REGLAMENTO INTERNO;RUN=8123;FECHA=2025-04-30
 *     <the regulation's paragraphs, blank lines between them>
 *     FIN REGLAMENTO INTERNO
 *
 * The closing line proves the text arrived whole. The declaration is read by `classifyArticle107`.
 */
import { Effect } from "effect"
import type { Article107Status } from "../../../schemas/Article107Status.ts"
import { isCalendarDate } from "../../cmf/CmfCells.ts"
import { cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { decodeCmfText } from "../../cmf/CmfText.ts"
import type { DataSetSource } from "../DataSet.ts"
import { type Article107Evidence, classifyArticle107, type TextLine } from "./Article107Rules.ts"
import { repairMojibake } from "../../cmf/Mojibake.ts"
import type { Article107Table } from "../../../snapshots/tables/FmExtras.ts"
import type { StageContext } from "../StageContext.ts"

/** The declaration of one fund's internal regulation. */
export interface Article107Record {
  /** Fund RUN without check digit (header `RUN=`). */
  readonly run: number
  /** Date of the regulation text (header `FECHA=`), YYYY-MM-DD. */
  readonly regulationDate: string
  readonly status: Article107Status
  /** The sentences that mention article 107 and decide `status`; empty when none mentions it. */
  readonly evidence: ReadonlyArray<Article107Evidence>
  /** Series the declaration does not apply to ("con excepción de la Serie APV"), possibly empty. */
  readonly seriesException: ReadonlyArray<string>
}

export const ARTICLE107_HEADER = "REGLAMENTO INTERNO"
export const ARTICLE107_FOOTER = "FIN REGLAMENTO INTERNO"

const splitLines = (text: string): Array<string> => text.split(/\r\n|\n|\r/)
const firstNonBlank = (lines: ReadonlyArray<string>): number => lines.findIndex((l) => l.trim() !== "")

const parse = Effect.fn("Article107Source.parse")(function* (bytes: Uint8Array, file: string) {
  const problem = (line: number, field: string, detail: string) =>
    cmfFileInvalid({ dataSet: "article107", file, line, field, detail })
  const raw = splitLines(decodeCmfText(bytes))
  let mojibakeRepaired = 0
  const lines = raw.map((l) => {
    const repaired = repairMojibake(l)
    if (repaired !== l) mojibakeRepaired++
    return repaired
  })
  const h = firstNonBlank(lines)
  if (h === -1) return yield* problem(1, ARTICLE107_HEADER, "missing header: the file is empty")
  const headerLine = h + 1
  const cells = lines[h]!.split(";").map((c) => c.trim())
  if (cells[0] !== ARTICLE107_HEADER) {
    return yield* problem(
      headerLine,
      ARTICLE107_HEADER,
      `missing header: expected "${ARTICLE107_HEADER};RUN=<run>;FECHA=<YYYY-MM-DD>", got "${lines[h]!.trim().slice(0, 60)}"`
    )
  }
  if (cells.length !== 3) {
    const field = cells.length === 1 ? "RUN" : cells.length === 2 ? "FECHA" : ARTICLE107_HEADER
    return yield* problem(headerLine, field, `header has ${cells.length} fields, expected 3`)
  }
  const run = /^RUN=(\d+)$/.exec(cells[1]!)
  if (run === null) return yield* problem(headerLine, "RUN", `expected RUN=<a whole number>, got "${cells[1]}"`)
  const date = /^FECHA=(\d{4}-\d{2}-\d{2})$/.exec(cells[2]!)
  if (date === null || !isCalendarDate(date[1]!)) {
    return yield* problem(headerLine, "FECHA", `expected FECHA=<a date YYYY-MM-DD>, got "${cells[2]}"`)
  }
  const footer = lines.findIndex((l, i) => i > h && l.trim() === ARTICLE107_FOOTER)
  if (footer === -1) {
    const last = lines.findLastIndex((l) => l.trim() !== "") + 1
    return yield* problem(last, ARTICLE107_FOOTER, `truncated: the text does not end with "${ARTICLE107_FOOTER}"`)
  }
  const after = lines.findIndex((l, i) => i > footer && l.trim() !== "")
  if (after !== -1) return yield* problem(after + 1, ARTICLE107_FOOTER, `text after "${ARTICLE107_FOOTER}"`)
  const body: Array<TextLine> = lines.slice(h + 1, footer).map((text, i) => ({ line: h + 2 + i, text }))
  if (body.every((l) => l.text.trim() === "")) {
    return yield* problem(footer + 1, "TEXTO", "no regulation text between the header and the closing line")
  }
  const record: Article107Record = {
    run: Number(run[1]),
    regulationDate: date[1]!,
    ...classifyArticle107(body)
  }
  return { records: [record], repairs: { mojibakeRepaired } }
})

const headerOf = (bytes: Uint8Array): string => {
  const lines = splitLines(decodeCmfText(bytes.subarray(0, 4096)))
  return lines[firstNonBlank(lines)]?.trim() ?? ""
}

/** The article 107 data set: detected by its first line; keyed by the fund's RUN (a newer text replaces the older). */
export const Article107Source: DataSetSource<Article107Record> = {
  name: "article107",
  detect: (bytes) => headerOf(bytes).startsWith(`${ARTICLE107_HEADER};`),
  parse,
  key: (_name, bytes, sha256) => /^REGLAMENTO INTERNO;\s*RUN=(\d+)\s*;/.exec(headerOf(bytes))?.[1] ?? sha256
}

/** The newest regulation per fund. */
export const stageArticle107 = (records: ReadonlyArray<Article107Record>): Article107Table[] => {
  const latest = new Map<number, Article107Record>()
  for (const r of records) {
    const seen = latest.get(r.run)
    if (seen === undefined || r.regulationDate >= seen.regulationDate) latest.set(r.run, r)
  }
  return [...latest.values()]
    .sort((a, b) => a.run - b.run)
    .map((r) => ({
      run: r.run,
      status: r.status,
      regulation_date: r.regulationDate,
      evidence: JSON.stringify(r.evidence.map((e) => ({ line: e.line, text: e.text }))),
      series_exception: JSON.stringify(r.seriesException),
    }))
}

export const article107Step = (context: StageContext) =>
  Effect.sync(() => void context.put("article107", stageArticle107(context.records<Article107Record>("article107"))))
