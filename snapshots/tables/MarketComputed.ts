/**
 * Precomputed market answers (pipeline/compute/Market*.ts writes them, the market routes read
 * them): ready response bytes, the all-funds rows behind the filters, family indices and the
 * administrators' monthly totals. Every row is a pure function of the batch's facts.
 */
import type { TableSpec } from "./TableSpec.ts"

/** A parameter-free answer as bytes: the JSON text and its gzip copy (node:zlib, level 9). */
export interface MarketReadyTable {
  /** e.g. "all-funds/mutual_fund", "benchmarks", "market-summary" */
  name: string
  json: string
  gzip: Buffer
}

/** One all-funds row of the latest date, in answer order, with the keys the filters use. */
export interface MarketAllFundsRowsTable {
  vehicle: string
  position: number
  serie_id: string
  /** category word (money_market_90d, …) or null */
  category: string | null
  /** AFM family slug or null */
  family_slug: string | null
  article107_status: string | null
  provider_id: number
  row_json: string
}

/** One point of a family's base-100 index in one currency (AFM's PESOS or DOLAR). */
export interface MarketFamilyIndexTable {
  family_slug: string
  currency: string
  date: number
  value: number
  /** The day's weighted change (decimal fraction); null on the base point. */
  change: number | null
  /** Series that contributed the change (quoted on both dates, opening patrimony > 0). */
  series_count: number
}

/** What a family's index exists in, and its size in CLP on its last date (for the default currency). */
export interface MarketFamilyCurrenciesTable {
  family_slug: string
  currency: string
  first_date: number
  last_date: number
  /** Patrimony on last_date in CLP (DOLAR converted with the observed USD of that date); null without a rate. */
  patrimony_clp: number | null
}

/** An administrator's totals at the last quote of each series in a month (FM, every fund). */
export interface MarketAgfMonthlyTable {
  provider_id: number
  /** YYYY-MM */
  month: string
  /** CLP: CLP series as they are, USD series × observed USD of the quote's date; EUR left out. */
  patrimony_clp: number
  shareholders: number
  fund_count: number
  series_count: number
  /** Series whose patrimony could not be converted to CLP (EUR, or USD without a rate). */
  unconverted_series: number
}

/**
 * Net subscriptions summed per entity, period and accounting currency (pipeline/compute/MarketFlows.ts):
 * every level by month; administrators and families also by day (a series' or a fund's days are
 * read from the quotas, snapshots/readers/MarketFlows.ts). Amounts: Σ units × VALOR_CUOTA of the day.
 */
export interface MarketFlowsTable {
  /** series | fund | administrator | family */
  level: string
  /** asset_id, concept_id or provider_id (decimal), or the AFM family slug */
  entity: string
  /** day | month */
  period: string
  /** YYYYMMDD: the day, or the month's first day */
  date_ymd: number
  /** The series' accounting currency (CLP, USD, EUR; another CMF code as given) */
  currency: string
  subscribed: number
  redeemed: number
  /** Σ (CUOTAS_APORTADAS − CUOTAS_RESCATADAS) × VALOR_CUOTA */
  net: number
  /** The same in CLP over the series-days with a rate (USD × observed dollar of the date); null when none has one. */
  subscribed_clp: number | null
  redeemed_clp: number | null
  net_clp: number | null
  /** Distinct series summed. */
  series_count: number
  /** Series-days summed. */
  series_days: number
  /** Series-days with a value but no units reported (provisional BPR values): left out. */
  unreported_days: number
  /** Series-days summed in native currency but left out of the CLP sums (EUR, or USD without a rate). */
  unconverted_days: number
}

export const MARKET_COMPUTED_TABLES: ReadonlyArray<TableSpec> = [
  {
    name: "market_ready",
    orderBy: "name",
    ddl: `CREATE TABLE market_ready (name TEXT PRIMARY KEY, json TEXT NOT NULL, gzip BLOB NOT NULL) WITHOUT ROWID;`,
  },
  {
    name: "market_all_funds_rows",
    orderBy: "vehicle, position",
    ddl: `CREATE TABLE market_all_funds_rows (vehicle TEXT NOT NULL, position INTEGER NOT NULL, serie_id TEXT NOT NULL,
      category TEXT, family_slug TEXT, article107_status TEXT, provider_id INTEGER NOT NULL, row_json TEXT NOT NULL,
      PRIMARY KEY (vehicle, position)) WITHOUT ROWID;`,
  },
  {
    name: "market_family_index",
    orderBy: "family_slug, currency, date",
    ddl: `CREATE TABLE market_family_index (family_slug TEXT NOT NULL, currency TEXT NOT NULL, date INTEGER NOT NULL,
      value REAL NOT NULL, change REAL, series_count INTEGER NOT NULL,
      PRIMARY KEY (family_slug, currency, date)) WITHOUT ROWID;`,
  },
  {
    name: "market_family_currencies",
    orderBy: "family_slug, currency",
    ddl: `CREATE TABLE market_family_currencies (family_slug TEXT NOT NULL, currency TEXT NOT NULL,
      first_date INTEGER NOT NULL, last_date INTEGER NOT NULL, patrimony_clp REAL,
      PRIMARY KEY (family_slug, currency)) WITHOUT ROWID;`,
  },
  {
    name: "market_agf_monthly",
    orderBy: "provider_id, month",
    ddl: `CREATE TABLE market_agf_monthly (provider_id INTEGER NOT NULL, month TEXT NOT NULL, patrimony_clp REAL NOT NULL,
      shareholders INTEGER NOT NULL, fund_count INTEGER NOT NULL, series_count INTEGER NOT NULL,
      unconverted_series INTEGER NOT NULL, PRIMARY KEY (provider_id, month)) WITHOUT ROWID;`,
  },
  {
    name: "market_flows",
    orderBy: "level, entity, period, date_ymd, currency",
    ddl: `CREATE TABLE market_flows (level TEXT NOT NULL, entity TEXT NOT NULL, period TEXT NOT NULL, date_ymd INTEGER NOT NULL,
      currency TEXT NOT NULL, subscribed REAL NOT NULL, redeemed REAL NOT NULL, net REAL NOT NULL, subscribed_clp REAL,
      redeemed_clp REAL, net_clp REAL, series_count INTEGER NOT NULL, series_days INTEGER NOT NULL,
      unreported_days INTEGER NOT NULL, unconverted_days INTEGER NOT NULL,
      PRIMARY KEY (level, entity, period, date_ymd, currency)) WITHOUT ROWID;
    CREATE INDEX market_flows_by_date ON market_flows(level, period, date_ymd);`,
  },
]
