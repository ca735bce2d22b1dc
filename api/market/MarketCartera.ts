/**
 * A mutual fund's monthly portfolio (CMF Circular 1333: NACI national, EXTR foreign). Valuations
 * are as CMF reports them, in thousands of the fund's functional currency; weights are CMF's
 * percentage of fund assets (`pct_activo_fondo`) and, as everywhere else here, a decimal fraction
 * (`weight`). Holdings are ordered by weight, largest first.
 */
import type Database from "better-sqlite3"
import { prepared } from "../../snapshots/readers/MarketDb.ts"
import { round10 } from "../../snapshots/readers/MarketRows.ts"
import type { FmHoldingsTable } from "../../snapshots/tables/FmExtras.ts"

export interface FundRef {
  readonly concept_id: number
  readonly run: number
  readonly name: string
}

export const fundByRun = (db: Database.Database, run: number): FundRef | undefined =>
  prepared(db, "SELECT concept_id, run, name FROM funds WHERE run = ?").get(run) as FundRef | undefined

/** The FI/ETF instrument id of a RUN, when the RUN is an investment fund or ETF. */
export const fiInstrumentOf = (db: Database.Database, run: number): string | undefined =>
  prepared(db, "SELECT instrument_id FROM fi_instruments WHERE run = ?").pluck().get(run) as string | undefined

export const latestPortfolioMonth = (db: Database.Database, run: number): string | null =>
  (prepared(db, "SELECT max(month) FROM fm_holdings WHERE run = ?").pluck().get(run) as string | null) ?? null

/** The columns the queries below select: an fm_holdings row without its key's run and month. */
type HoldingRow = Omit<FmHoldingsTable, "run" | "month">

const rowsOf = (db: Database.Database, run: number, month: string): HoldingRow[] =>
  prepared(
    db,
    `SELECT market, position, instrument_code, issuer_rut, issuer_name, issuer_country, instrument_type, maturity_date,
       valuation_thousands, pct_fund_assets FROM fm_holdings WHERE run = ? AND month = ?
     ORDER BY pct_fund_assets DESC, valuation_thousands DESC, market, position`,
  ).all(run, month) as HoldingRow[]

export const availability = (db: Database.Database, run: number, month: string) => {
  const markets = new Set(
    prepared(db, "SELECT DISTINCT market FROM fm_holdings WHERE run = ? AND month = ?").pluck().all(run, month) as string[],
  )
  return { N: markets.has("N") ? "available" : "unavailable", E: markets.has("E") ? "available" : "unavailable" }
}

const marketWord = (m: string) => (m === "N" ? "nacional" : "extranjera")

export const holdings = (db: Database.Database, run: number, month: string, market: "N" | "E" | "all") =>
  rowsOf(db, run, month)
    .filter((h) => market === "all" || h.market === market)
    .map((h) => ({
      id: `${run}_${month}_${h.market}_${h.position}`,
      type: "holding" as const,
      attributes: {
        market: marketWord(h.market),
        market_code: h.market,
        nemotecnico: h.instrument_code,
        emisor: h.issuer_name,
        emisor_rut: h.issuer_rut,
        pais: h.issuer_country,
        tipo_instrumento: h.instrument_type,
        fecha_vencimiento: h.maturity_date,
        valorizacion: h.valuation_thousands,
        pct_activo_fondo: h.pct_fund_assets,
        weight: round10(h.pct_fund_assets / 100),
      },
    }))

/** Holdings grouped by instrument type, national plus foreign, largest weight first. */
export const resumen = (db: Database.Database, run: number, month: string) => {
  const groups = new Map<string, { n: number; nacional: number; extranjera: number; pct: number }>()
  for (const h of rowsOf(db, run, month)) {
    let g = groups.get(h.instrument_type)
    if (g === undefined) {
      g = { n: 0, nacional: 0, extranjera: 0, pct: 0 }
      groups.set(h.instrument_type, g)
    }
    g.n++
    if (h.market === "N") g.nacional += h.valuation_thousands
    else g.extranjera += h.valuation_thousands
    g.pct += h.pct_fund_assets
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].pct - a[1].pct || (a[0] < b[0] ? -1 : 1))
    .map(([type, g]) => ({
      id: `${run}_${month}_${type}`,
      type: "cartera_resumen" as const,
      attributes: {
        tipo_instrumento: type,
        num_holdings: g.n,
        valorizacion_nacional: round10(g.nacional),
        valorizacion_extranjera: round10(g.extranjera),
        pct_activo_fondo: round10(g.pct),
        weight: round10(g.pct / 100),
      },
    }))
}
