/** Parsed benchmark catalog (data set `benchmark_catalog`): which market instrument a RAR family is compared with. */
import { Schema } from "effect"

export const BenchmarkCurrency = Schema.Literals(["USD", "CLP"]).annotate({
  description: "Native currency of the benchmark's prices",
})
export type BenchmarkCurrency = typeof BenchmarkCurrency.Type

export const BenchmarkAssetClass = Schema.Literals(["equity", "fixed_income", "money_market", "balanced"])
export type BenchmarkAssetClass = typeof BenchmarkAssetClass.Type

/** One family → symbol row. */
export interface BenchmarkCatalogRecord {
  /** 1-based line in the file. */
  readonly line: number
  /** FAMILY_RAR: a family display name of `AFM_FAMILIES` (schemas/records/AfmCategories.ts). */
  readonly familyRar: string
  /** That family's stable slug. */
  readonly familySlug: string
  /** Market symbol, upper case (`VOO`); the price file of the symbol is `<SYMBOL>.csv` or `benchmark_<SYMBOL>.csv`. */
  readonly symbol: string
  readonly indexName: string
  readonly instrumentName: string
  readonly nativeCurrency: BenchmarkCurrency
  readonly assetClass: BenchmarkAssetClass
}
