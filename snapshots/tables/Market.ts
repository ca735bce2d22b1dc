/** Market context: UF and USD, AFM categories (families), CMF spheres, benchmarks. */
import type { TableSpec } from "./TableSpec.ts"

export interface IndicatorsTable {
  /** UF or USD (observed dollar, CLP per USD) */
  indicator: string
  date: number
  value: number
}
export interface AfmCategoriesTable {
  asset_id: number
  category: string
  family_rar: string
  family_slug: string
  currency: string
}
export interface CmfSpheresTable {
  asset_id: number
  family: string
  investor_type: string
  spheres: number | null
  as_of: string
}
export interface BenchmarksTable {
  family_slug: string
  family_rar: string
  symbol: string
  index_name: string
  instrument_name: string
  native_currency: string
  asset_class: string
}
export interface BenchmarkPricesTable {
  symbol: string
  date: number
  close: number
}

export const MARKET_TABLES: ReadonlyArray<TableSpec> = [
  {
    name: "indicators",
    orderBy: "indicator, date",
    ddl: `CREATE TABLE indicators (indicator TEXT NOT NULL, date INTEGER NOT NULL, value REAL NOT NULL CHECK (value > 0),
      PRIMARY KEY (indicator, date)) WITHOUT ROWID;`,
  },
  {
    name: "afm_categories",
    orderBy: "asset_id",
    ddl: `CREATE TABLE afm_categories (asset_id INTEGER PRIMARY KEY, category TEXT NOT NULL, family_rar TEXT NOT NULL,
      family_slug TEXT NOT NULL, currency TEXT NOT NULL);
    CREATE INDEX afm_family ON afm_categories(family_slug, asset_id);`,
  },
  {
    name: "cmf_spheres",
    orderBy: "asset_id",
    ddl: `CREATE TABLE cmf_spheres (asset_id INTEGER PRIMARY KEY, family TEXT NOT NULL, investor_type TEXT NOT NULL,
      spheres INTEGER CHECK (spheres BETWEEN 1 AND 5), as_of TEXT NOT NULL);`,
  },
  {
    name: "benchmarks",
    orderBy: "family_slug",
    ddl: `CREATE TABLE benchmarks (family_slug TEXT PRIMARY KEY, family_rar TEXT NOT NULL, symbol TEXT NOT NULL,
      index_name TEXT NOT NULL, instrument_name TEXT NOT NULL, native_currency TEXT NOT NULL, asset_class TEXT NOT NULL) WITHOUT ROWID;`,
  },
  {
    name: "benchmark_prices",
    orderBy: "symbol, date",
    ddl: `CREATE TABLE benchmark_prices (symbol TEXT NOT NULL, date INTEGER NOT NULL, close REAL NOT NULL,
      PRIMARY KEY (symbol, date)) WITHOUT ROWID;`,
  },
]
