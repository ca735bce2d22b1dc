/**
 * Reads the CMF HTML pages (FI lists, a fund's values tab, IFRS portfolios): charset, each table as
 * rows of cell texts, the page's text outside its tables (where its heading says which fund or list
 * it is), and the table walk shared by the parsers. Rows are numbered within their table from 1 (the
 * header row); that number is the `line` of a `CmfFileInvalid` about a cell, and line 0 means the
 * page heading.
 */
import { Effect } from "effect"
import { HTMLElement, parse, TextNode } from "node-html-parser"
import type { HtmlCell } from "./CmfHtmlCells.ts"
import { type CmfFileInvalid, cmfFileInvalid, quoted } from "./CmfFileInvalid.ts"
import { repairMojibake } from "./Mojibake.ts"
import { MAX_DEPTH, ParseLimitExceeded, withinLimit } from "./ParseLimits.ts"

const latin1 = new TextDecoder("latin1")
const utf8 = new TextDecoder("utf-8", { fatal: true })
/** How much of a file `detect` looks at: the list/heading and the table header come first. */
export const DETECT_BYTES = 64 * 1024

/**
 * Decodes by the declared charset: a latin-1 declaration is believed; otherwise (UTF-8 or nothing
 * declared) strict UTF-8 is tried first, then latin-1. UTF-8 that reached us as latin-1 anyway
 * (mojibake) is repaired cell by cell.
 */
export const decodeCmfHtml = (bytes: Uint8Array, truncated = false): string => {
  const head = latin1.decode(bytes.subarray(0, 4096))
  const charset = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase()
  if (charset === undefined || !/^(iso-?8859-1|latin-?1|windows-1252|cp1252|us-ascii)$/.test(charset)) {
    try {
      // A cut-off head may end inside a character: streaming mode leaves it out instead of failing.
      return truncated ? new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true }) : utf8.decode(bytes)
    } catch {
      // Not UTF-8 whatever it says: fall through to latin-1.
    }
  }
  return latin1.decode(bytes)
}

export interface HtmlRow {
  /** 1-based within its table. */
  readonly number: number
  /** Cell texts: entities decoded, whitespace collapsed, mojibake repaired. */
  readonly cells: ReadonlyArray<string>
  /** The `href` of the row's links. */
  readonly links: ReadonlyArray<string>
  /** Each cell's [colspan, rowspan], when some cell of the row spans more than one (a merged cell). */
  readonly spans?: ReadonlyArray<readonly [number, number]>
}

export interface HtmlPage {
  /** Text of the page outside its tables (title and headings included), whitespace collapsed. */
  readonly heading: string
  /** Every table (nested ones too), in document order; rows are each table's own `<tr>`s. */
  readonly tables: ReadonlyArray<ReadonlyArray<HtmlRow>>
  /** Texts that were UTF-8 read as latin-1 and were repaired. */
  readonly mojibakeRepaired: number
}

// Links sit right in their cell or one element down ("<td><b><a …>"): a full querySelectorAll per row
// costs more than the rest of the row.
const linksOf = (node: HTMLElement, depth = 0): Array<string> =>
  node.childNodes.flatMap((c) =>
    !(c instanceof HTMLElement) ? [] : c.tagName === "A" ? [c.getAttribute("href") ?? ""] : depth < 2 ? linksOf(c, depth + 1) : []
  )

const SKIPPED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TABLE"])

// As written: a span over the limit refuses the table where it is laid out (Workbook.ts, ParseLimits.ts).
const span = (td: HTMLElement, name: string): number => {
  const n = Number(td.getAttribute(name) ?? "1")
  return Number.isSafeInteger(n) && n > 1 ? n : 1
}

/**
 * Throws `ParseLimitExceeded` when elements nest deeper than MAX_DEPTH: the tree is walked here
 * without recursion, before the walks below (and the library's `text`) recurse into it.
 */
const checkDepth = (root: HTMLElement): void => {
  const stack: Array<readonly [HTMLElement, number]> = [[root, 0]]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next
    withinLimit("the page", "MAX_DEPTH", MAX_DEPTH, depth, (n) => `elements nested ${n} deep or more`)
    for (const child of node.childNodes) if (child instanceof HTMLElement) stack.push([child, depth + 1])
  }
}

const pageOf = (html: string): HtmlPage => {
  const root = parse(html, { blockTextElements: { script: false, style: false, noscript: false, pre: true } })
  checkDepth(root)
  let mojibakeRepaired = 0
  const clean = (raw: string): string => {
    const text = raw.replace(/\s+/g, " ").trim()
    const repaired = repairMojibake(text)
    if (repaired !== text) mojibakeRepaired++
    return repaired
  }
  const words: Array<string> = []
  const walk = (node: HTMLElement): void => {
    for (const child of node.childNodes) {
      if (child instanceof TextNode) words.push(child.text)
      else if (child instanceof HTMLElement && !SKIPPED.has(child.tagName)) {
        words.push(" ")
        walk(child)
        words.push(" ")
      }
    }
  }
  walk(root)
  const tables = root.querySelectorAll("table").map((table) => {
    const trs = table.childNodes.flatMap((n) =>
      !(n instanceof HTMLElement) ? [] : n.tagName === "TR" ? [n] : /^T(HEAD|BODY|FOOT)$/.test(n.tagName) ? n.childNodes : []
    )
    return trs
      .filter((tr): tr is HTMLElement => tr instanceof HTMLElement && tr.tagName === "TR")
      .map((tr, i): HtmlRow => {
        const tds = tr.childNodes.filter((c): c is HTMLElement => c instanceof HTMLElement && /^T[HD]$/.test(c.tagName))
        const row: HtmlRow = { number: i + 1, cells: tds.map((td) => clean(td.text)), links: tds.flatMap((td) => linksOf(td)) }
        // Most rows span nothing: their attributes are not parsed.
        if (!tds.some((td) => /span/i.test(td.rawAttrs))) return row
        return { ...row, spans: tds.map((td) => [span(td, "colspan"), span(td, "rowspan")] as const) }
      })
  })
  return { heading: clean(words.join("")), tables, mojibakeRepaired }
}

/** Parses a whole page; throws `ParseLimitExceeded` for a page over a parse limit (ParseLimits.ts). */
export const readHtmlPage = (bytes: Uint8Array): HtmlPage => pageOf(decodeCmfHtml(bytes))

/** A parser's `readHtmlPage`: a page over a parse limit is refused as the data set's file, naming the limit. */
export const readHtmlPageOf = (dataSet: string, file: string, bytes: Uint8Array): Effect.Effect<HtmlPage, CmfFileInvalid> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(readHtmlPage(bytes))
    } catch (e) {
      if (e instanceof ParseLimitExceeded) return Effect.fail(pageProblem(dataSet, file, e.limit, `refused unread: ${e.message}`))
      throw e
    }
  })

/**
 * The head of a page, for `detect` and `key`: a text search (scripts and comments left out) for the
 * first table cell reading `firstHeader` within the first `DETECT_BYTES`, then a parse of the page up
 * to `rows` rows from there (the heading, the header row, a few data rows), so that a 1 MB page costs
 * no more than a small one. Undefined when the bytes are not HTML or have no such cell.
 */
export const readHtmlHead = (bytes: Uint8Array, firstHeader: RegExp, rows = 1): HtmlPage | undefined => {
  if (!/^\s*</.test(latin1.decode(bytes.subarray(0, 512)))) return undefined
  const text = decodeCmfHtml(bytes.subarray(0, DETECT_BYTES), bytes.length > DETECT_BYTES)
    .replace(/<script[\s\S]*?<\/script>|<!--[\s\S]*?-->/gi, "")
  const cell = new RegExp(`<t[hd][^>]*>(?:\\s|<[^>]*>)*${firstHeader.source}(?:\\s|<[^>]*>)*</t[hd]>`, "i").exec(text)
  if (cell === null) return undefined
  let end = cell.index
  for (let i = 0; i < rows; i++) {
    const next = text.indexOf("</tr>", end + 1)
    const nextUpper = text.indexOf("</TR>", end + 1)
    const found = next === -1 ? nextUpper : nextUpper === -1 ? next : Math.min(next, nextUpper)
    if (found === -1) break
    end = found
  }
  // node-html-parser drops a table left open at the end of its input: close it (stray closers are ignored).
  return pageOf(end === cell.index ? text : `${text.slice(0, end + 5)}</thead></tbody></tfoot></table>`)
}

/** How headers are compared: case, accents and spacing do not matter; every other character does. */
export const headerKey = (s: string): string =>
  s.normalize("NFD").replace(/\p{M}/gu, "").replace(/\s+/g, " ").trim().toLowerCase()

/** The first table whose first row starts with `first` (compared as headers). */
export const tableStartingWith = (page: HtmlPage, ...first: ReadonlyArray<string>): ReadonlyArray<HtmlRow> | undefined =>
  page.tables.find((rows) => {
    const header = rows[0]?.cells ?? []
    return first.every((name, i) => header[i] !== undefined && headerKey(header[i]!) === headerKey(name))
  })

export interface HtmlTableSpec {
  readonly dataSet: string
  /** What the table is called in messages, e.g. "the values table". */
  readonly label: string
  readonly columns: ReadonlyArray<readonly [header: string, cell: HtmlCell]>
}

/** A problem in a table cell or row: `line` is the table row. */
export const tableProblem = (spec: HtmlTableSpec, file: string, row: number, field: string, detail: string) =>
  cmfFileInvalid({ dataSet: spec.dataSet, file, line: row, field, detail: `row ${row} of ${spec.label} (row 1 = its header): ${detail}` })

/** A problem with the page as a whole (its heading, a missing table): line 0. */
export const pageProblem = (dataSet: string, file: string, field: string, detail: string) =>
  cmfFileInvalid({ dataSet, file, line: 0, field, detail: `page (line 0 = outside the tables): ${detail}` })

const isSinInformacion = (cell: string): boolean => /^sin informaci[oó]n\.?$/i.test(cell)

export interface TableRead {
  /** Rows saying "Sin Información" instead of values. */
  readonly sinInformacionRows: number
  /** Rows of one cell with text (a title or note spanning the table), and repeats of the header row. */
  readonly noteRows: number
  /** Rows handed to `onTotal`. */
  readonly totalRows: number
}

/**
 * Checks the header row against `spec`, then calls `onRow` with each data row whose cells are all
 * valid (by their `HtmlCell`). Rows of blanks are ignored; rows with a "Sin Información" cell,
 * one-cell notes and repeated header rows are skipped and counted; rows whose first non-blank cell
 * starts with the word "TOTAL" go to `onTotal` when given.
 */
export const readHtmlTable = (
  spec: HtmlTableSpec,
  rows: ReadonlyArray<HtmlRow>,
  file: string,
  onRow: (cells: ReadonlyArray<string>, row: number) => CmfFileInvalid | undefined,
  onTotal?: (cells: ReadonlyArray<string>, row: number) => CmfFileInvalid | undefined
): Effect.Effect<TableRead, CmfFileInvalid> =>
  Effect.suspend(() => {
    const { columns } = spec
    const header = rows[0]?.cells ?? []
    const wrong = columns.findIndex(([name], i) => header[i] === undefined || headerKey(header[i]!) !== headerKey(name))
    if (wrong !== -1) {
      const got = header[wrong] === undefined ? "nothing" : `"${header[wrong]}"`
      return Effect.fail(tableProblem(spec, file, 1, columns[wrong]![0], `missing or wrong header: expected "${columns[wrong]![0]}", got ${got}`))
    }
    if (header.length !== columns.length) {
      return Effect.fail(tableProblem(spec, file, 1, `column ${columns.length + 1}`, `header has ${header.length} columns, expected ${columns.length}`))
    }
    let sinInformacionRows = 0
    let noteRows = 0
    let totalRows = 0
    for (const { cells, number } of rows.slice(1)) {
      if (cells.every((c) => c === "")) continue
      if (cells.some(isSinInformacion)) {
        sinInformacionRows++
        continue
      }
      // The label sits in the first non-blank cell (a data row's first cell is never blank).
      if (onTotal !== undefined && /^total\b/i.test(cells.find((c) => c !== "") ?? "")) {
        totalRows++
        const error = onTotal(cells, number)
        if (error !== undefined) return Effect.fail(error)
        continue
      }
      if (cells.length === 1 || cells.every((c, i) => headerKey(c) === headerKey(header[i] ?? ""))) {
        noteRows++
        continue
      }
      if (cells.length !== columns.length) {
        const field = columns[Math.min(cells.length, columns.length - 1)]![0]
        return Effect.fail(tableProblem(spec, file, number, field, `expected ${columns.length} cells, got ${cells.length}`))
      }
      const bad = columns.findIndex(([, cell], i) => !cell.valid(cells[i]!))
      if (bad !== -1) {
        const [name, cell] = columns[bad]!
        return Effect.fail(tableProblem(spec, file, number, name, `expected ${cell.expected}, got ${quoted(cells[bad]!)}`))
      }
      const error = onRow(cells, number)
      if (error !== undefined) return Effect.fail(error)
    }
    return Effect.succeed({ sinInformacionRows, noteRows, totalRows })
  })
