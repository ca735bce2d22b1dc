/** One line of our curated ETF list (`RUN;SERIE;TICKER;BOLSA`): a fund series traded as an ETF. */
import { Schema } from "effect"

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
