/**
 * A fund's daily values tab (`entidad.php?…&rut=<RUN>&tipoentidad=FIRES|FINRE&vig=VI&pestania=7`,
 * POSTed with a date range, usually one calendar year): the heading names the fund and its R.U.T.
 * and the range ("Desde: 01/01/2025 Hasta: 31/12/2025"); then a table whose first header is
 * `Fecha`, with Chilean numbers. Rows saying "Sin Información" are skipped and counted.
 */
import { Effect } from "effect"
import type { DataSetSource } from "../DataSet.ts"
import type { CmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import {
  AnyText,
  chileanNumber,
  DateDmy,
  isoOfDmy,
  NullableChileanNumber,
  NullableCount,
  nullableChileanNumber,
  nullableText,
  PositiveChileanNumber,
  Text
} from "../../cmf/CmfHtmlCells.ts"
import {
  type HtmlPage,
  type HtmlTableSpec,
  headerKey,
  pageProblem,
  readHtmlHead,
  readHtmlPage,
  readHtmlPageOf,
  readHtmlTable,
  tableProblem,
  tableStartingWith
} from "../../cmf/CmfHtmlTable.ts"
import { dateRangeInHeading, fundRunInHeading } from "./FiPageHeading.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"

/* One row of a fund's CMF values tab (`entidad.php … pestania=7`): one series on one date. */

export interface FiBookValueRecord {
  /** Row of the values table (1 = its header row). */
  readonly line: number
  /** Fund RUN (from the page heading) without check digit. */
  readonly run: number
  /** YYYY-MM-DD */
  readonly date: string
  readonly serie: string
  /** "Moneda" as written (the sample writes ISO codes: CLP, USD, COP). */
  readonly currencyCode: string
  /** Valor libro of the quota, > 0: the FI price (`price_basis` = `valor_libro`). */
  readonly bookValue: number
  /** Valor económico of the quota. */
  readonly economicValue: number | null
  /** Patrimonio neto of the series, in the fund's currency. */
  readonly patrimony: number | null
  /** Activo total of the fund, in the fund's currency. */
  readonly totalAssets: number | null
  /** Number of aportantes (holders). */
  readonly holders: number | null
  readonly institutionalHolders: number | null
  /** "Agencia", as written; null when blank. */
  readonly agency: string | null
}

/** The values table's header, as compared by `headerKey` (case and accents do not matter). */
export const FI_BOOK_VALUE_COLUMNS = [
  "Fecha", "Serie", "Moneda", "Valor Libro", "Valor Económico", "Patrimonio Neto", "Activo Total",
  "N° Aportantes", "N° Aportantes Institucionales", "Agencia"
] as const

const cells = [
  DateDmy, Text, Text, PositiveChileanNumber, NullableChileanNumber, NullableChileanNumber, NullableChileanNumber,
  NullableCount, NullableCount, AnyText
] as const

const spec: HtmlTableSpec = {
  dataSet: "fi_book_values",
  label: "the values table",
  columns: FI_BOOK_VALUE_COLUMNS.map((name, i) => [name, cells[i]!] as const)
}

/** A repeated (Fecha, Serie) must agree on all the other columns (the RUN is the page's). */
const COMPARED: ReadonlyArray<readonly [keyof FiBookValueRecord, string]> = [
  ["currencyCode", "Moneda"], ["bookValue", "Valor Libro"], ["economicValue", "Valor Económico"], ["patrimony", "Patrimonio Neto"],
  ["totalAssets", "Activo Total"], ["holders", "N° Aportantes"], ["institutionalHolders", "N° Aportantes Institucionales"],
  ["agency", "Agencia"]
]

const valuesTable = (page: HtmlPage) => tableStartingWith(page, "Fecha")

const parse = Effect.fn("FiBookValues.parse")(function* (bytes: Uint8Array, file: string) {
  const page = yield* readHtmlPageOf("fi_book_values", file, bytes)
  const run = fundRunInHeading(page, "fi_book_values", file)
  if (typeof run !== "number") return yield* run
  const rows = valuesTable(page)
  if (rows === undefined) return yield* pageProblem("fi_book_values", file, "Fecha", 'no table whose first header is "Fecha"')
  const range = dateRangeInHeading(page)
  const unique = uniqueRows<FiBookValueRecord>({
    dataSet: "fi_book_values",
    file,
    keyOf: (r) => `${r.date} serie ${r.serie}`,
    compared: COMPARED,
    // As `tableProblem` places a cell.
    where: (row, column) => `line ${row} field ${column}: row ${row} of ${spec.label} (row 1 = its header)`
  })

  const onRow = (c: ReadonlyArray<string>, line: number): CmfFileInvalid | undefined => {
    const date = isoOfDmy(c[0]!)
    if (range !== null && (date < range.from || date > range.to)) {
      return tableProblem(spec, file, line, "Fecha", `${c[0]} is outside the page's range ${range.from}..${range.to}`)
    }
    return unique.onRow(
      {
        line,
        run,
        date,
        serie: c[1]!,
        currencyCode: c[2]!,
        bookValue: chileanNumber(c[3]!),
        economicValue: nullableChileanNumber(c[4]!),
        patrimony: nullableChileanNumber(c[5]!),
        totalAssets: nullableChileanNumber(c[6]!),
        holders: nullableChileanNumber(c[7]!),
        institutionalHolders: nullableChileanNumber(c[8]!),
        agency: nullableText(c[9]!)
      },
      line
    )
  }

  const read = yield* readHtmlTable(spec, rows, file, onRow)
  return {
    records: unique.records,
    repairs: {
      sinInformacionRows: read.sinInformacionRows,
      noteRows: read.noteRows,
      duplicatesSkipped: unique.duplicatesSkipped(),
      mojibakeRepaired: page.mojibakeRepaired
    }
  }
})

/**
 * `<RUN>:<year>` when the page covers one calendar year (by its "Desde … Hasta" range, else by its
 * rows' dates), else `<RUN>:<from>..<to>`; a later download of the same year replaces the earlier.
 */
const key = (_name: string, bytes: Uint8Array, sha256: string): string => {
  const head = readHtmlHead(bytes, /Fecha/)
  const run = head === undefined ? undefined : fundRunInHeading(head, "fi_book_values", "")
  if (head === undefined || typeof run !== "number") return `unknown-${sha256}`
  let range = dateRangeInHeading(head)
  if (range === null) {
    const dates = (valuesTable(readHtmlPage(bytes)) ?? [])
      .map((r) => r.cells[0] ?? "")
      .filter((d) => DateDmy.valid(d))
      .map(isoOfDmy)
      .sort()
    if (dates.length === 0) return `${run}:empty-${sha256}`
    range = { from: dates[0]!, to: dates.at(-1)! }
  }
  return range.from.slice(0, 4) === range.to.slice(0, 4) ? `${run}:${range.from.slice(0, 4)}` : `${run}:${range.from}..${range.to}`
}

/** Data set 6: FI/ETF daily book values, one page per fund and queried range. */
export const FiBookValuesSource: DataSetSource<FiBookValueRecord> = {
  name: "fi_book_values",
  detect: (bytes) => {
    const head = readHtmlHead(bytes, /Fecha/)
    const header = head === undefined ? [] : (valuesTable(head)?.[0]?.cells.map(headerKey) ?? [])
    return header.includes(headerKey("Valor Libro"))
  },
  parse,
  key
}
