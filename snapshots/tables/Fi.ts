/** Investment funds and ETFs: instruments, series, CMF book values, portfolios, fact sheets. */
import type { TableSpec } from "./TableSpec.ts"

export interface FiInstrumentsTable {
  /** UUID v5 of "fi:<RUN>" */
  instrument_id: string
  run: number
  name: string
  agf_name: string
  provider_id: number
  /** FIRES (redeemable) or FINRE */
  regulatory_type: string
  /** active, inactive or unknown */
  status: string
  is_etf: number
  ticker: string | null
  /** YYYY-MM-DD: the FI data's cutoff for this instrument (its last book value), or null */
  last_price_date: string | null
}
export interface FiSeriesTable {
  /** UUID v5 of "fi:<RUN>:<SERIE>" */
  serie_id: string
  instrument_id: string
  run: number
  serie: string
  currency: string | null
}
export interface FiPricesTable {
  serie_id: string
  date: number
  book_value: number
  economic_value: number | null
  patrimony: number | null
  total_assets: number | null
  holders: number | null
  institutional_holders: number | null
}
export interface FiHoldingsTable {
  run: number
  /** YYYY-MM (quarter end month) */
  period: string
  market: string
  position: number
  /** JSON of the position's reported fields (valuation in thousands of the functional currency) */
  body: string
  valuation_thousands: number
  pct_fund_assets: number | null
  instrument_type: string
}
export interface FiFactSheetsTable {
  serie_id: string
  tac: number | null
  review: string
  sheet_date: string | null
}

export const FI_TABLES: ReadonlyArray<TableSpec> = [
  {
    name: "fi_instruments",
    orderBy: "instrument_id",
    ddl: `CREATE TABLE fi_instruments (instrument_id TEXT PRIMARY KEY, run INTEGER NOT NULL UNIQUE, name TEXT NOT NULL,
      agf_name TEXT NOT NULL, provider_id INTEGER NOT NULL, regulatory_type TEXT NOT NULL, status TEXT NOT NULL,
      is_etf INTEGER NOT NULL, ticker TEXT, last_price_date TEXT) WITHOUT ROWID;`,
  },
  {
    name: "fi_series",
    orderBy: "serie_id",
    ddl: `CREATE TABLE fi_series (serie_id TEXT PRIMARY KEY, instrument_id TEXT NOT NULL, run INTEGER NOT NULL,
      serie TEXT NOT NULL, currency TEXT, UNIQUE (run, serie)) WITHOUT ROWID;
    CREATE INDEX fi_series_instrument ON fi_series(instrument_id, serie);`,
  },
  {
    name: "fi_prices",
    orderBy: "serie_id, date",
    partition: "serie_id",
    months: "date",
    ddl: `CREATE TABLE fi_prices (serie_id TEXT NOT NULL, date INTEGER NOT NULL, book_value REAL NOT NULL,
      economic_value REAL, patrimony REAL, total_assets REAL, holders INTEGER, institutional_holders INTEGER,
      PRIMARY KEY (serie_id, date)) WITHOUT ROWID;`,
  },
  {
    name: "fi_holdings",
    orderBy: "run, period, market, position",
    ddl: `CREATE TABLE fi_holdings (run INTEGER NOT NULL, period TEXT NOT NULL, market TEXT NOT NULL,
      position INTEGER NOT NULL, body TEXT NOT NULL, valuation_thousands REAL NOT NULL, pct_fund_assets REAL,
      instrument_type TEXT NOT NULL, PRIMARY KEY (run, period, market, position)) WITHOUT ROWID;`,
  },
  {
    name: "fi_fact_sheets",
    orderBy: "serie_id",
    ddl: `CREATE TABLE fi_fact_sheets (serie_id TEXT PRIMARY KEY, tac REAL, review TEXT NOT NULL, sheet_date TEXT) WITHOUT ROWID;`,
  },
]
