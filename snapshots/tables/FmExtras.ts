/** Mutual-fund facts beyond daily values: costs, portfolios, renames, article 107. */
import type { TableSpec } from "./TableSpec.ts"

/** TAC of a series for a month, as decimal fractions (1.32 % → 0.0132). */
export interface TacTable {
  asset_id: number
  /** YYYY-MM */
  month: string
  tac: number
  tac_fixed: number | null
  tac_variable: number | null
  tac_expenses: number | null
}

/** One position of a fund's monthly portfolio (cartera), as CMF reports it. */
export interface FmHoldingsTable {
  run: number
  /** YYYY-MM */
  month: string
  /** N national, E foreign */
  market: string
  position: number
  instrument_code: string
  issuer_rut: number | null
  issuer_name: string | null
  issuer_country: string | null
  instrument_type: string
  maturity_date: string | null
  valuation_thousands: number
  pct_fund_assets: number
}

/**
 * A series with values from a provisional source (the daily BPR report, without flows, costs or
 * factors): how many of its quota rows, their first and last dates (YYYYMMDD), and whether its
 * latest value is one of them. A series not listed is valued from the cartola alone.
 */
export interface QuotaSourcesTable {
  asset_id: number
  source: string
  rows: number
  first_date: number
  last_date: number
  latest_from_source: number
}

/** A previous series id that resolves to the current one (a rename: same identity). */
export interface SeriesAliasesTable {
  alias_id: number
  asset_id: number
  run: number
  previous_serie: string
  current_serie: string
  /** YYYYMMDD: first observed date with the new label. */
  first_current_date: number
}

/** A fund's declaration about article 107 of the income tax law. */
export interface Article107Table {
  run: number
  status: string
  regulation_date: string
  /** JSON array of { line, text } */
  evidence: string
  /** JSON array of series labels */
  series_exception: string
}

export const FM_EXTRA_TABLES: ReadonlyArray<TableSpec> = [
  {
    name: "tac",
    orderBy: "asset_id, month",
    ddl: `CREATE TABLE tac (asset_id INTEGER NOT NULL, month TEXT NOT NULL, tac REAL NOT NULL,
      tac_fixed REAL, tac_variable REAL, tac_expenses REAL, PRIMARY KEY (asset_id, month)) WITHOUT ROWID;
    CREATE INDEX tac_month ON tac(month, asset_id);`,
  },
  {
    name: "fm_holdings",
    orderBy: "run, month, market, position",
    ddl: `CREATE TABLE fm_holdings (run INTEGER NOT NULL, month TEXT NOT NULL, market TEXT NOT NULL,
      position INTEGER NOT NULL, instrument_code TEXT NOT NULL, issuer_rut INTEGER, issuer_name TEXT,
      issuer_country TEXT, instrument_type TEXT NOT NULL, maturity_date TEXT, valuation_thousands REAL NOT NULL,
      pct_fund_assets REAL NOT NULL, PRIMARY KEY (run, month, market, position)) WITHOUT ROWID;`,
  },
  {
    name: "quota_sources",
    orderBy: "asset_id",
    ddl: `CREATE TABLE quota_sources (asset_id INTEGER PRIMARY KEY, source TEXT NOT NULL, rows INTEGER NOT NULL,
      first_date INTEGER NOT NULL, last_date INTEGER NOT NULL, latest_from_source INTEGER NOT NULL);`,
  },
  {
    name: "series_aliases",
    orderBy: "alias_id",
    ddl: `CREATE TABLE series_aliases (alias_id INTEGER PRIMARY KEY, asset_id INTEGER NOT NULL, run INTEGER NOT NULL,
      previous_serie TEXT NOT NULL, current_serie TEXT NOT NULL, first_current_date INTEGER NOT NULL);
    CREATE INDEX series_aliases_asset ON series_aliases(asset_id);`,
  },
  {
    name: "article107",
    orderBy: "run",
    ddl: `CREATE TABLE article107 (run INTEGER PRIMARY KEY, status TEXT NOT NULL, regulation_date TEXT NOT NULL,
      evidence TEXT NOT NULL, series_exception TEXT NOT NULL);`,
  },
]
