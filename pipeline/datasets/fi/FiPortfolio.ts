/**
 * A fund's quarterly IFRS portfolio page (`ifrs_cartera_nac.php` / `ifrs_cartera_ext.php`
 * `?rut=<RUN>&periodo=YYYYMM&tipo=fi&cartera=N|E`): the heading gives the fund's R.U.T., the period
 * ("Período: 03/2025") and the unit ("Cifras expresadas en miles de: PESOS"); the table has CMF's
 * exact headers (with its spelling "Valolización") and ends with a TOTAL row, which is checked
 * against the sum of the positions' valuations and then skipped.
 */
import { Effect, Schema } from "effect"
import type { DataSetSource } from "../DataSet.ts"
import type { CmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import {
  AnyText,
  ChileanNumber,
  chileanNumber,
  type HtmlCell,
  NullableChileanNumber,
  NullableDateDmy,
  NullableIssuerRut,
  nullableChileanNumber,
  nullableIsoOfDmy,
  nullableIssuerRut,
  nullableText,
  Text
} from "../../cmf/CmfHtmlCells.ts"
import {
  type HtmlPage,
  type HtmlTableSpec,
  pageProblem,
  readHtmlHead,
  readHtmlPageOf,
  readHtmlTable,
  tableProblem,
  tableStartingWith
} from "../../cmf/CmfHtmlTable.ts"
import { fundRunInHeading, functionalCurrencyInHeading, periodInHeading } from "./FiPageHeading.ts"

/* One position of a fund's quarterly IFRS portfolio page (`ifrs_cartera_{nac,ext}.php`). */

/** N: national portfolio (`ifrs_cartera_nac`), E: foreign (`ifrs_cartera_ext`). */
export const FiPortfolioMarket = Schema.Literals(["N", "E"]).annotate({
  description: "N national portfolio, E foreign portfolio"
})
export type FiPortfolioMarket = typeof FiPortfolioMarket.Type

/**
 * Amounts are in thousands of the fund's functional currency, percentages in percent (12.5 = 12.5 %).
 * Columns only one of the two tables has are null on the other's rows.
 */
export interface FiPortfolioRecord {
  /** Row of the portfolio table (1 = its header row). */
  readonly line: number
  /** Fund RUN (from the page heading) without check digit. */
  readonly run: number
  /** Quarter end, YYYY-MM (from the page heading). */
  readonly period: string
  /** From which table the page has. */
  readonly market: FiPortfolioMarket
  /** "Cifras expresadas en miles de: PESOS" → "PESOS"; null when the page does not say. */
  readonly functionalCurrency: string | null
  /** "Clasif. del Instr. en ESF" / "Clasif del Instrumento en ESF". */
  readonly esfClassification: string
  /** E only: "Código ISIN o CUSIP". */
  readonly isin: string | null
  readonly nemotecnico: string | null
  /** N only: "Rut Emisor", body without check digit. */
  readonly issuerRut: number | null
  /** E only: "Nombre del emisor". */
  readonly issuerName: string | null
  /** "Cod. País". */
  readonly issuerCountry: string | null
  readonly instrumentType: string
  /** YYYY-MM-DD; null when blank or 9999 (no maturity). */
  readonly maturityDate: string | null
  readonly instrumentStatus: string | null
  readonly riskRating: string | null
  /** "Grupo Empresarial" (N) / "Nombre Grupo Empr." (E). */
  readonly businessGroup: string | null
  readonly units: number | null
  readonly unitsType: string | null
  /** "TIR, Valor par o Precio". */
  readonly rateOrPrice: number | null
  /** "Código Valolización" (CMF's spelling). */
  readonly valuationCode: string | null
  readonly rateBaseDays: number | null
  readonly interestType: string | null
  /** "Valolización al Cierre", thousands of the functional currency. */
  readonly valuationThousands: number
  readonly settlementCurrency: string | null
  readonly transactionCountry: string | null
  readonly pctOfIssuerCapital: number | null
  readonly pctOfIssuerAssets: number | null
  /** "% Tot. Activo del Fondo" (`percentage_unit` = `percent_of_fund_assets`). */
  readonly pctOfFundAssets: number | null
}

type Field = Exclude<keyof FiPortfolioRecord, "line" | "run" | "period" | "market" | "functionalCurrency">
type Column = readonly [header: string, cell: HtmlCell, field: Field]

const TAIL: ReadonlyArray<Column> = [
  ["Cant Unidades", NullableChileanNumber, "units"], ["Tipo Unidades", AnyText, "unitsType"],
  ["TIR, Valor par o Precio", NullableChileanNumber, "rateOrPrice"], ["Código Valolización", AnyText, "valuationCode"],
  ["Base tasa", NullableChileanNumber, "rateBaseDays"], ["Tipo de interés", AnyText, "interestType"],
  ["Valolización al Cierre", ChileanNumber, "valuationThousands"], ["Cód. Moneda Liquidación", AnyText, "settlementCurrency"],
  ["Cód. Pais Transacción", AnyText, "transactionCountry"], ["% Capital del Emisor", NullableChileanNumber, "pctOfIssuerCapital"],
  ["% Tot. Activo del Emisor", NullableChileanNumber, "pctOfIssuerAssets"], ["% Tot. Activo del Fondo", NullableChileanNumber, "pctOfFundAssets"]
]

/** CMF's headers of the national (N) and foreign (E) tables, in order. */
export const FI_PORTFOLIO_COLUMNS: Readonly<Record<FiPortfolioMarket, ReadonlyArray<Column>>> = {
  N: [
    ["Clasif. del Instr. en ESF", Text, "esfClassification"], ["Nemotécnico", AnyText, "nemotecnico"],
    ["Rut Emisor", NullableIssuerRut, "issuerRut"], ["Cod. País", AnyText, "issuerCountry"],
    ["Tipo Instrumento", Text, "instrumentType"], ["Fecha Vencimiento", NullableDateDmy, "maturityDate"],
    ["Situación del Instr.", AnyText, "instrumentStatus"], ["Clasif. De Riesgo", AnyText, "riskRating"],
    ["Grupo Empresarial", AnyText, "businessGroup"], ...TAIL
  ],
  E: [
    ["Clasif del Instrumento en ESF", Text, "esfClassification"], ["Código ISIN o CUSIP", AnyText, "isin"],
    ["Nemotecnico", AnyText, "nemotecnico"], ["Nombre del emisor", AnyText, "issuerName"], ["Cod. País", AnyText, "issuerCountry"],
    ["Tipo Instrumento", Text, "instrumentType"], ["Fecha Vencimiento", NullableDateDmy, "maturityDate"],
    ["Situación del Instr.", AnyText, "instrumentStatus"], ["Clasif. De Riesgo", AnyText, "riskRating"],
    ["Nombre Grupo Empr.", AnyText, "businessGroup"], ...TAIL
  ]
}

const specs: Readonly<Record<FiPortfolioMarket, HtmlTableSpec>> = {
  N: { dataSet: "fi_portfolio", label: "the national portfolio table", columns: FI_PORTFOLIO_COLUMNS.N.map(([h, c]) => [h, c] as const) },
  E: { dataSet: "fi_portfolio", label: "the foreign portfolio table", columns: FI_PORTFOLIO_COLUMNS.E.map(([h, c]) => [h, c] as const) }
}

const convert = (column: Column, cell: string): FiPortfolioRecord[Field] => {
  const [, kind, field] = column
  if (field === "issuerRut") return nullableIssuerRut(cell)
  if (field === "maturityDate") return nullableIsoOfDmy(cell)
  if (field === "valuationThousands") return chileanNumber(cell)
  if (kind === NullableChileanNumber) return nullableChileanNumber(cell)
  return kind === Text ? cell : nullableText(cell)
}

/** The page's portfolio tables (N by its first header, E by its first two). */
const portfolioTables = (page: HtmlPage) =>
  (["N", "E"] as const).flatMap((market) => {
    const [first, second] = FI_PORTFOLIO_COLUMNS[market]
    const rows = tableStartingWith(page, first![0], second![0])
    return rows === undefined ? [] : [{ market, rows }]
  })

const parse = Effect.fn("FiPortfolio.parse")(function* (bytes: Uint8Array, file: string) {
  const page = yield* readHtmlPageOf("fi_portfolio", file, bytes)
  const run = fundRunInHeading(page, "fi_portfolio", file)
  if (typeof run !== "number") return yield* run
  const period = periodInHeading(page)
  if (period === undefined || period === "invalid") {
    const detail = period === undefined ? 'no "Período: MM/YYYY" in the page heading' : "the heading's Período is not a quarter end (03, 06, 09, 12)"
    return yield* pageProblem("fi_portfolio", file, "Período", detail)
  }
  const tables = portfolioTables(page)
  if (tables.length !== 1) {
    const detail = tables.length === 0 ? "no table with the national or foreign portfolio headers" : "both a national and a foreign table on one page"
    return yield* pageProblem("fi_portfolio", file, "Clasif. del Instr. en ESF", detail)
  }
  const { market, rows } = tables[0]!
  const spec = specs[market]
  const columns = FI_PORTFOLIO_COLUMNS[market]
  const valuationAt = columns.findIndex(([, , field]) => field === "valuationThousands")
  const functionalCurrency = functionalCurrencyInHeading(page)
  const records: Array<FiPortfolioRecord> = []

  const onRow = (cells: ReadonlyArray<string>, line: number): CmfFileInvalid | undefined => {
    // The columns of the other table's kind stay null.
    const record: Record<string, unknown> = { line, run, period, market, functionalCurrency, isin: null, issuerRut: null, issuerName: null }
    columns.forEach((column, i) => {
      record[column[2]] = convert(column, cells[i]!)
    })
    records.push(record as unknown as FiPortfolioRecord)
    return undefined
  }
  // The TOTAL row's valuation must be the positions' sum (each position rounded to a thousand).
  const onTotal = (cells: ReadonlyArray<string>, line: number): CmfFileInvalid | undefined => {
    const total = cells[valuationAt] ?? ""
    if (total === "") return undefined
    if (!ChileanNumber.valid(total)) return tableProblem(spec, file, line, "Valolización al Cierre", `TOTAL row: expected a number, got "${total}"`)
    const sum = records.reduce((s, r) => s + r.valuationThousands, 0)
    const t = chileanNumber(total)
    if (Math.abs(sum - t) > 0.5 * records.length + 1e-7 * Math.abs(t)) {
      return tableProblem(spec, file, line, "Valolización al Cierre", `TOTAL row says ${total} but the positions add up to ${sum}`)
    }
    return undefined
  }

  const read = yield* readHtmlTable(spec, rows, file, onRow, onTotal)
  return {
    records,
    repairs: { totalRows: read.totalRows, noteRows: read.noteRows, sinInformacionRows: read.sinInformacionRows, mojibakeRepaired: page.mojibakeRepaired }
  }
})

/** `<RUN>:<YYYY-MM>:<N|E>`, all from the page's content. */
const headOf = (bytes: Uint8Array) => readHtmlHead(bytes, /Clasif\.? del Instr(?:\.|umento) en ESF/)

const key = (_name: string, bytes: Uint8Array, sha256: string): string => {
  const page = headOf(bytes)
  if (page === undefined) return `unknown-${sha256}`
  const run = fundRunInHeading(page, "fi_portfolio", "")
  const period = periodInHeading(page)
  const tables = portfolioTables(page)
  if (typeof run !== "number" || period === undefined || period === "invalid" || tables.length !== 1) return `unknown-${sha256}`
  return `${run}:${period}:${tables[0]!.market}`
}

/** Data set 7: FI/ETF quarterly IFRS portfolios, one page per fund, quarter and market. */
export const FiPortfolioSource: DataSetSource<FiPortfolioRecord> = {
  name: "fi_portfolio",
  detect: (bytes) => {
    const head = headOf(bytes)
    return head !== undefined && portfolioTables(head).length > 0
  },
  parse,
  key
}
