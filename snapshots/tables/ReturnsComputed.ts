/**
 * Precomputed answers of the returns area at the batch date (the latest cutoff): every window of
 * every series under each valuation and basis, and the risk snapshot. Written by
 * pipeline/compute/ReturnsComputation.ts with the same pure code the API runs for other cutoffs.
 * Dates are YYYYMMDD integers, values decimal fractions; a null `value` is an unavailable window
 * and `reason` says why.
 */
import type { TableSpec } from "./TableSpec.ts"

/** One window of one series under one valuation and basis, at the batch date. */
export interface ReturnsLatestTable {
  asset_id: number
  /** accounting, clp or real_uf */
  valuation: string
  /** price or total */
  return_basis: string
  /** 1m, 3m, 6m, 1y, ytd, 3y_ann, 5y_ann, last_closed_month */
  period: string
  /** D: the last quota on or before the batch date (null when none). */
  as_of_date: number | null
  value: number | null
  reason: string | null
  target_start_date: number | null
  target_end_date: number | null
  effective_start_date: number | null
  effective_end_date: number | null
  /** Quota values at the effective dates, in the accounting currency. */
  start_price: number | null
  end_price: number | null
  start_fx_date: number | null
  start_fx: number | null
  end_fx_date: number | null
  end_fx: number | null
  /** UF on the effective dates themselves (the UF is set for every calendar day). */
  start_uf: number | null
  end_uf: number | null
  /** `total` only: products of the applied factors and the factors as JSON [[YYYYMMDD, factor], …]. */
  distribution_multiplier: number | null
  exchange_multiplier: number | null
  applied_distributions: string | null
  applied_exchanges: string | null
}

/** The risk snapshot of a series at the batch date (the reference's risk_metrics fields). */
export interface RiskLatestTable {
  asset_id: number
  as_of_date: number | null
  volatility_monthly_12m: number | null
  volatility_monthly_36m: number | null
  volatility_annualized_12m: number | null
  volatility_annualized_36m: number | null
  max_drawdown_36m: number | null
  risk_level: string | null
  risk_score: number | null
  method_version: string
  unavailable_reason: string | null
}

export const RETURNS_COMPUTED_TABLES: ReadonlyArray<TableSpec> = [
  {
    name: "returns_latest",
    orderBy: "asset_id, valuation, return_basis, period",
    partition: "asset_id",
    ddl: `CREATE TABLE returns_latest (asset_id INTEGER NOT NULL, valuation TEXT NOT NULL, return_basis TEXT NOT NULL,
      period TEXT NOT NULL, as_of_date INTEGER, value REAL, reason TEXT,
      target_start_date INTEGER, target_end_date INTEGER, effective_start_date INTEGER, effective_end_date INTEGER,
      start_price REAL, end_price REAL, start_fx_date INTEGER, start_fx REAL, end_fx_date INTEGER, end_fx REAL,
      start_uf REAL, end_uf REAL, distribution_multiplier REAL, exchange_multiplier REAL,
      applied_distributions TEXT, applied_exchanges TEXT,
      CHECK ((value IS NULL) <> (reason IS NULL)),
      PRIMARY KEY (asset_id, valuation, return_basis, period)) WITHOUT ROWID;`,
  },
  {
    name: "risk_latest",
    orderBy: "asset_id",
    ddl: `CREATE TABLE risk_latest (asset_id INTEGER PRIMARY KEY, as_of_date INTEGER,
      volatility_monthly_12m REAL, volatility_monthly_36m REAL, volatility_annualized_12m REAL,
      volatility_annualized_36m REAL, max_drawdown_36m REAL, risk_level TEXT, risk_score INTEGER
      CHECK (risk_score BETWEEN 1 AND 7), method_version TEXT NOT NULL, unavailable_reason TEXT);`,
  },
]
