/**
 * FM portfolios (`ffm_download.php`, Circular 1333): one `;` file per month and market, NACI
 * (national issuers, 25 columns) or EXTR (foreign issuers, 24 columns), `.004` decimals,
 * `DD/MM/YYYY` dates with `99999999` for "no date". The file does not say its month: it comes from
 * the name (`ffm_NACI_202605.txt`). A month without data is a body of just "Sin información".
 */
import { Effect, Schema, SchemaParser } from "effect"
import {
  AnyText,
  cell,
  cmfRow,
  isCalendarDate,
  NullableDecimal,
  NullableWholeNumber,
  Text,
  toNullableNumber,
  toNumber,
  WholeNumber
} from "../../cmf/CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { type CmfTable, readCmfTable } from "../../cmf/CmfTable.ts"
import { decodeCmfText, headerCell, isSinInformacion } from "../../cmf/CmfText.ts"
import type { DataSetSource } from "../DataSet.ts"
import { monthFromName } from "../../cmf/MonthHint.ts"
import { repairMojibake } from "../../cmf/Mojibake.ts"
import type { FmHoldingsTable } from "../../../snapshots/tables/FmExtras.ts"
import type { StageContext } from "../StageContext.ts"

/*
 * Parsed FM portfolios (data set `fm_portfolio`, CMF `ffm_download.php`, Circular 1333): each
 * fund's holdings at a month's close, national (`NACI`) and foreign (`EXTR`) files.
 */

/** `N`: national issuers (the NACI file); `E`: foreign issuers (the EXTR file). */
export type PortfolioMarket = "N" | "E"

/** One holding of one fund at the close of `month`. */
export interface FmPortfolioRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** The month the file describes (from its name: CMF does not write it), YYYY-MM. */
  readonly month: string
  readonly market: PortfolioMarket
  /** Run Fondo: fund RUN without check digit. */
  readonly run: number
  /** Nombre Fondo, mojibake repaired. */
  readonly fundName: string
  /** Nemotécnico (instrument code). */
  readonly instrumentCode: string
  /** National issuer's RUT without check digit (FFM_6010211); null for foreign holdings or when blank. */
  readonly issuerRut: number | null
  /** Foreign issuer's name (FFM_6020200), mojibake repaired; null for national holdings. */
  readonly issuerName: string | null
  /** Issuer country code (CL, US, …); null when blank. */
  readonly issuerCountry: string | null
  /** CMF instrument type code (DPC, BB, ACC, CFI, ACE, ETFA, CFME, …). */
  readonly instrumentType: string
  /** Maturity, YYYY-MM-DD; null for blank or the "no date" sentinels (99999999, …/9999). */
  readonly maturityDate: string | null
  /** Valuation at the close, in thousands of the fund's functional currency (not pesos). */
  readonly valuationThousands: number
  /** Share of the fund's total assets, percent (2.22 is 2.22 %). */
  readonly fundAssetsPercent: number
}

/** The NACI header (exact in CMF's files; compared ignoring case). */
export const NACI_COLUMNS = [
  "Run Fondo", "Nombre Fondo", "FFM_6010100", "FFM_6010211", "FFM_6010212", "FFM_6010300", "FFM_6010400",
  "FFM_6010500", "FFM_6010600", "FFM_6010700", "FFM_6010800", "FFM_6010900", "FFM_6011000", "FFM_TIR_6011111",
  "FFM_PAR_6011111", "FFM_REL_6011111", "FFM_6011112", "FFM_6011113", "FFM_6011114", "FFM_6011200", "FFM_6011300",
  "FFM_6011400", "FFM_6011511", "FFM_6011512", "FFM_6011513"
] as const

/** The EXTR header (the issuer's name instead of RUT and check digit; compared ignoring case). */
export const EXTR_COLUMNS = [
  "Run Fondo", "Nombre Fondo", "FFM_6020100", "FFM_6020200", "FFM_6020300", "FFM_6020400", "FFM_6020500",
  "FFM_6020600", "FFM_6020700", "FFM_6020800", "FFM_6020900", "FFM_6021000", "FFM_tir_6021111", "FFM_par_6021111",
  "FFM_rel_6021111", "FFM_6021112", "FFM_6021113", "FFM_6021114", "FFM_6021200", "FFM_6021300", "FFM_6021400",
  "FFM_6021511", "FFM_6021512", "FFM_6021513"
] as const

const Amount = cell("a number", Schema.String.check(Schema.isPattern(/^-?(?:\d+(?:[.,]\d*)?|[.,]\d+)$/)))
const CheckDigit = cell("a check digit 0-9 or K, or blank", Schema.String.check(Schema.isPattern(/^[0-9Kk]?$/)))
const DMY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/
const maturityOf = (s: string): string | null => {
  const m = DMY.exec(s)
  if (m === null || m[3] === "9999") return null
  return `${m[3]}-${m[2]!.padStart(2, "0")}-${m[1]!.padStart(2, "0")}`
}
/** FFM_6010500 / FFM_6020500: a real date, or one of the "no date" spellings. */
const Maturity = cell(
  "a date DD/MM/YYYY, 99999999 or blank",
  Schema.String.check(
    Schema.makeFilter((s: string) => {
      if (s === "" || s === "99999999") return true
      const iso = maturityOf(s)
      return DMY.test(s) && (iso === null || isCalendarDate(iso))
    })
  )
)

const NACI_CELLS = [
  WholeNumber, Text, Text, NullableWholeNumber, CheckDigit, AnyText, Text, Maturity, AnyText, AnyText, AnyText,
  NullableDecimal, AnyText, NullableDecimal, NullableDecimal, NullableDecimal, AnyText, NullableWholeNumber, AnyText,
  Amount, AnyText, AnyText, NullableDecimal, NullableDecimal, Amount
] as const

const EXTR_CELLS = [
  WholeNumber, Text, Text, Text, AnyText, Text, Maturity, AnyText, AnyText, AnyText, NullableDecimal, AnyText,
  NullableDecimal, NullableDecimal, NullableDecimal, AnyText, NullableWholeNumber, AnyText, Amount, AnyText, AnyText,
  NullableDecimal, NullableDecimal, Amount
] as const

type Draft = { -readonly [K in keyof FmPortfolioRecord]: FmPortfolioRecord[K] }

const orNull = (s: string): string | null => (s === "" ? null : s)

const NaciRow = cmfRow(NACI_CELLS, (c): Draft => ({
  line: 0, month: "", market: "N", run: toNumber(c[0]), fundName: repairMojibake(c[1]), instrumentCode: c[2],
  issuerRut: toNullableNumber(c[3]), issuerName: null, issuerCountry: orNull(c[5]), instrumentType: c[6],
  maturityDate: maturityOf(c[7]), valuationThousands: toNumber(c[19]), fundAssetsPercent: toNumber(c[24])
}))

const ExtrRow = cmfRow(EXTR_CELLS, (c): Draft => ({
  line: 0, month: "", market: "E", run: toNumber(c[0]), fundName: repairMojibake(c[1]), instrumentCode: c[2],
  issuerRut: null, issuerName: repairMojibake(c[3]), issuerCountry: orNull(c[4]), instrumentType: c[5],
  maturityDate: maturityOf(c[6]), valuationThousands: toNumber(c[18]), fundAssetsPercent: toNumber(c[23])
}))

const decoders = { N: SchemaParser.decodeUnknownResult(NaciRow), E: SchemaParser.decodeUnknownResult(ExtrRow) }
const canonical = { N: NACI_COLUMNS, E: EXTR_COLUMNS } as const

const sameIgnoringCase = (cells: ReadonlyArray<string>, columns: ReadonlyArray<string>): boolean =>
  cells.length === columns.length && cells.every((c, i) => headerCell(c).toUpperCase() === columns[i]!.toUpperCase())

const firstLineCells = (bytes: Uint8Array): Array<string> =>
  (decodeCmfText(bytes.subarray(0, 8192)).split(/\r\n|\n|\r/).find((l) => l.trim() !== "") ?? "").split(";")

/** Which market a header line is (compared ignoring case), or null. */
const marketOfHeader = (cells: ReadonlyArray<string>): PortfolioMarket | null =>
  sameIgnoringCase(cells, NACI_COLUMNS) ? "N" : sameIgnoringCase(cells, EXTR_COLUMNS) ? "E" : null

/** `NACI` / `EXTR` in the last path segment of a name, as a market. */
export const marketFromName = (name: string): PortfolioMarket | null => {
  const m = /(?:^|[^a-z])(naci|extr)(?:[^a-z]|$)/i.exec(name.split(/[\\/]/).pop() ?? name)
  return m === null ? null : m[1]!.toUpperCase() === "NACI" ? "N" : "E"
}

const isSinInformacionBody = (bytes: Uint8Array): boolean =>
  bytes.length <= 8192 && isSinInformacion(decodeCmfText(bytes))

// One table per market and header spelling (the file's own names, so errors quote them).
const tables = new Map<string, CmfTable<Draft>>()
const tableFor = (market: PortfolioMarket, columns: ReadonlyArray<string>): CmfTable<Draft> => {
  const id = `${market}|${columns.join(";")}`
  let table = tables.get(id)
  if (table === undefined) {
    const cells = market === "N" ? NACI_CELLS : EXTR_CELLS
    table = { dataSet: "fm_portfolio", columns, cells, decode: decoders[market] }
    tables.set(id, table)
  }
  return table
}

const parse = Effect.fn("FmPortfolioSource.parse")(function* (bytes: Uint8Array, file: string) {
  const problem = (line: number, field: string, detail: string) =>
    cmfFileInvalid({ dataSet: "fm_portfolio", file, line, field, detail })
  const month = monthFromName(file)
  const noMonth = problem(
    0,
    "file name",
    "a portfolio file does not say its month: its name must contain it once as YYYYMM (e.g. ffm_NACI_202605.txt)"
  )
  if (isSinInformacionBody(bytes)) {
    if (month === null) return yield* noMonth
    if (marketFromName(file) === null) {
      return yield* problem(1, "Run Fondo", `"Sin información" without a header: the name must say NACI or EXTR`)
    }
    return { records: [], repairs: { sinInformacionFiles: 1 } }
  }
  const header = firstLineCells(bytes)
  const market = marketOfHeader(header)
  // An unknown header is described against the table the name suggests (NACI when it says nothing).
  const table =
    market === null
      ? tableFor(marketFromName(file) ?? "N", canonical[marketFromName(file) ?? "N"])
      : tableFor(market, header.map(headerCell))
  if (market !== null && month === null) return yield* noMonth
  const records: Array<FmPortfolioRecord> = []
  const onRow = (record: Draft, line: number): CmfFileInvalid | undefined => {
    record.line = line
    record.month = month ?? ""
    records.push(record)
    return undefined
  }
  const read = yield* readCmfTable(table, bytes, file, onRow)
  return { records, repairs: { footnotesSkipped: read.footnotesSkipped } }
})

/**
 * The FM portfolio data set: detected by the NACI or EXTR header (a bare "Sin información" body is
 * not claimed: only its name can say what it is); keyed by month and market, e.g. `2026-05/N`.
 */
export const FmPortfolioSource: DataSetSource<FmPortfolioRecord> = {
  name: "fm_portfolio",
  detect: (bytes) => marketOfHeader(firstLineCells(bytes)) !== null,
  parse,
  key: (name, bytes, sha256) => {
    const month = monthFromName(name)
    const market = marketOfHeader(firstLineCells(bytes)) ?? (isSinInformacionBody(bytes) ? marketFromName(name) : null)
    return month === null || market === null ? sha256 : `${month}/${market}`
  }
}

/** Portfolio positions numbered in file order within (RUN, month, market). */
export const stageFmHoldings = (records: ReadonlyArray<FmPortfolioRecord>): FmHoldingsTable[] => {
  const next = new Map<string, number>()
  const rows: FmHoldingsTable[] = []
  for (const r of records) {
    const key = `${r.run}|${r.month}|${r.market}`
    const position = (next.get(key) ?? 0) + 1
    next.set(key, position)
    rows.push({
      run: r.run,
      month: r.month,
      market: r.market,
      position,
      instrument_code: r.instrumentCode,
      issuer_rut: r.issuerRut,
      issuer_name: r.issuerName,
      issuer_country: r.issuerCountry,
      instrument_type: r.instrumentType,
      maturity_date: r.maturityDate,
      valuation_thousands: r.valuationThousands,
      pct_fund_assets: r.fundAssetsPercent,
    })
  }
  return rows.sort(
    (a, b) => a.run - b.run || (a.month < b.month ? -1 : a.month > b.month ? 1 : 0) || (a.market < b.market ? -1 : a.market > b.market ? 1 : 0) || a.position - b.position,
  )
}

export const fmHoldingsStep = (context: StageContext) =>
  Effect.sync(() => void context.put("fm_holdings", stageFmHoldings(context.records<FmPortfolioRecord>("fm_portfolio"))))
