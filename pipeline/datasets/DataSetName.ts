/**
 * The names of the data sets: each is one file of `pipeline/datasets/<group>/`, registered in
 * `Registry.ts`. Nothing outside `pipeline/datasets/` names one.
 */
import { Schema } from "effect"

/** The raw data sets the pipeline recognises by their header line. */
export const DataSetName = Schema.Literals([
  "fm_registry",
  "cartola_diaria",
  "fm_tac",
  "fm_portfolio",
  "fi_registry",
  "fi_book_values",
  "fi_portfolio",
  "indicators",
  "afm_categories",
  "benchmark_catalog",
  "benchmark_prices",
  "cmf_spheres",
  "article107",
  "fi_fact_sheets",
  "etf_tickers",
  "series_renames",
  "fm_bpr_daily",
]).annotate({
  description: "A raw data set the pipeline recognises by its header or content signature (CMF-SOURCES.md)",
})
export type DataSetName = typeof DataSetName.Type
