/**
 * Our curated ETF list (no CMF file says which funds are ETFs): `;` text, header
 * `RUN;SERIE;TICKER;BOLSA`, one line per listed series, e.g. `9251;UNICA;CFIETFIPSA;BCS`. TICKER is
 * the Bolsa nemotécnico (capital letters and digits, unique in the file); BOLSA is BCS or BEC.
 */
import { Effect, Schema, SchemaParser } from "effect"
import type { DataSetSource } from "../DataSet.ts"
import { cmfRow, Text, toNumber, WholeNumber } from "../../cmf/CmfCells.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { startsWithHeader } from "../../cmf/CmfHeaderLine.ts"
import { type CmfTable, readCmfTable } from "../../cmf/CmfTable.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"

/* One line of our curated ETF list (`RUN;SERIE;TICKER;BOLSA`): a fund series traded as an ETF. */

/** BCS: Bolsa de Comercio de Santiago; BEC: Bolsa Electrónica de Chile. */
export const EtfExchange = Schema.Literals(["BCS", "BEC"]).annotate({
  description: "Exchange where the ETF is listed: BCS (Bolsa de Comercio de Santiago) or BEC (Bolsa Electrónica de Chile)"
})
export type EtfExchange = typeof EtfExchange.Type

export interface EtfTickerRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** FI (or FM) RUN without check digit. */
  readonly run: number
  readonly serie: string
  /** Bolsa nemotécnico, e.g. CFIETFIPSA. */
  readonly ticker: string
  readonly exchange: EtfExchange
}

export const ETF_TICKER_COLUMNS = ["RUN", "SERIE", "TICKER", "BOLSA"] as const
const cells = [WholeNumber, Text, Text, Text] as const

interface Draft {
  run: number
  serie: string
  ticker: string
  exchange: string
}

const table: CmfTable<Draft> = {
  dataSet: "etf_tickers",
  columns: ETF_TICKER_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(cmfRow(cells, (c): Draft => ({ run: toNumber(c[0]), serie: c[1], ticker: c[2], exchange: c[3] })))
}

const EXCHANGES: ReadonlyArray<string> = EtfExchange.literals

/**
 * One line per (RUN, SERIE): an identical repeat is skipped and counted, one with another ticker or
 * exchange rejected; a ticker names one series only.
 */
const parse = Effect.fn("EtfTickers.parse")(function* (bytes: Uint8Array, file: string) {
  const unique = uniqueRows<EtfTickerRecord>({
    dataSet: "etf_tickers",
    file,
    keyOf: (r) => `RUN ${r.run} SERIE ${r.serie}`,
    compared: [["ticker", "TICKER"], ["exchange", "BOLSA"]]
  })
  const byTicker = new Map<string, EtfTickerRecord>()
  const problem = (line: number, field: string, detail: string) => cmfFileInvalid({ dataSet: "etf_tickers", file, line, field, detail })

  const onRow = (d: Draft, line: number): CmfFileInvalid | undefined => {
    if (!/^[A-Z0-9]{2,20}$/.test(d.ticker)) return problem(line, "TICKER", `expected capital letters and digits, got "${d.ticker}"`)
    if (!EXCHANGES.includes(d.exchange)) return problem(line, "BOLSA", `expected one of ${EXCHANGES.join(", ")}, got "${d.exchange}"`)
    const record: EtfTickerRecord = { line, ...d, exchange: d.exchange as EtfExchange }
    const kept = unique.records.length
    const repeat = unique.onRow(record, line)
    // A repeat of a series (skipped or rejected) says nothing new about its ticker.
    if (repeat !== undefined || unique.records.length === kept) return repeat
    const sameTicker = byTicker.get(d.ticker)
    if (sameTicker !== undefined) return problem(line, "TICKER", `${d.ticker} is already the ticker of line ${sameTicker.line}`)
    byTicker.set(d.ticker, record)
    return undefined
  }

  const { footnotesSkipped } = yield* readCmfTable(table, bytes, file, onRow)
  return { records: unique.records, repairs: { duplicatesSkipped: unique.duplicatesSkipped(), footnotesSkipped } }
})

/** Data set 14a: which FI (or FM) series are ETFs (our format); the newest file replaces the older. */
export const EtfTickersSource: DataSetSource<EtfTickerRecord> = {
  name: "etf_tickers",
  detect: (bytes) => startsWithHeader(bytes, ETF_TICKER_COLUMNS),
  parse,
  key: () => "all"
}
