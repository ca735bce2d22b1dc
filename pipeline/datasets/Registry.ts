/**
 * Every data set the pipeline reads, as one table of adapters (the data-set port, DataSet.ts). The
 * table's order is staging's order (renames before the daily values they relabel; the registry and
 * the daily values before everything keyed by fund or series); detection tries the same order, and
 * no two signatures overlap (test/pipeline/Detect.test.ts).
 *
 * To add a data set: its file under its group (its raw record, detect, parse, key, and its staging
 * step if it adds tables; a step shared by several data sets sits beside them), a fetch in the group's fetch file if the CMF serves it, its name
 * in DataSetName.ts, and a row here with the roles the run asks for (daily values, whole history,
 * required, fetch, stage). The run names no data set: it asks this table. This file imports the
 * data sets and the CMF helpers only (test/architecture.test.ts).
 */
import type { DataSetName } from "./DataSetName.ts"
import { cartolaFirstDates, loadCartola } from "./fm/CartolaColumns.ts"
import { fetchCartola, fetchFmBprDaily, fetchFmPortfolio, fetchFmRegistry, fetchFmTac } from "./fm/FmFetch.ts"
import { fetchFiRegistry } from "./fi/FiFetch.ts"
import { fetchIndicators } from "./market/MarketFetch.ts"
import { stageDailyValues, stageRegistry } from "./fm/Core.ts"
import { fiHoldingsStep, fiPageSummary, fiStep } from "./fi/Fi.ts"
import { article107Step } from "./fm/Article107.ts"
import { fmHoldingsStep } from "./fm/FmPortfolio.ts"
import { tacStep } from "./fm/FmTac.ts"
import { renamesStep } from "./fm/SeriesRenames.ts"
import { benchmarksStep } from "./market/BenchmarkCatalog.ts"
import { indicatorsStep } from "./market/Indicators.ts"
import { spheresStep } from "./market/CmfSpheres.ts"
import { afmStep } from "./market/AfmCategories.ts"
import { AfmCategoriesSource } from "./market/AfmCategories.ts"
import { Article107Source } from "./fm/Article107.ts"
import { BenchmarkCatalogSource } from "./market/BenchmarkCatalog.ts"
import { BenchmarkPricesSource } from "./market/BenchmarkPrices.ts"
import { CartolaSource } from "./fm/Cartola.ts"
import { CmfSpheresSource } from "./market/CmfSpheres.ts"
import { decodeCmfText, isSinInformacion } from "../cmf/CmfText.ts"
import type { DataSetAdapter, DataSetSource } from "./DataSet.ts"
import { EtfTickersSource } from "./fi/EtfTickers.ts"
import { FiBookValuesSource } from "./fi/FiBookValues.ts"
import { FiFactSheetsSource } from "./fi/FiFactSheets.ts"
import { FiPortfolioSource } from "./fi/FiPortfolio.ts"
import { FiRegistrySource } from "./fi/FiRegistry.ts"
import { FmBprDailySource } from "./fm/FmBprDaily.ts"
import { FmPortfolioSource, marketFromName } from "./fm/FmPortfolio.ts"
import { FmRegistrySource } from "./fm/FmRegistry.ts"
import { FmTacSource } from "./fm/FmTac.ts"
import { IndicatorsSource } from "./market/Indicators.ts"
import { monthFromName } from "../cmf/MonthHint.ts"
import { SeriesRenamesSource } from "./fm/SeriesRenames.ts"

const adapter = <R>(source: DataSetSource<R>, rest: Omit<DataSetAdapter<R>, keyof DataSetSource<R>>): DataSetAdapter =>
  ({ ...source, ...rest }) as DataSetAdapter

/** A month YYYY-MM as its last day; a date as it is. */
const asDay = (v: string): string => {
  if (v.length !== 7) return v
  const [y, m] = v.split("-").map(Number)
  return new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10)
}

/** The first and latest of the records' `field` (a date YYYY-MM-DD, or a month YYYY-MM: its last day). */
const latest =
  <R>(field: keyof R) =>
  (records: ReadonlyArray<R>): { first: string; latest: string } | null => {
    let min: string | null = null
    let max: string | null = null
    for (const r of records) {
      const v = r[field]
      if (typeof v !== "string") continue
      if (min === null || v < min) min = v
      if (max === null || v > max) max = v
    }
    return min === null || max === null ? null : { first: asDay(min), latest: asDay(max) }
  }

export const ADAPTERS: ReadonlyArray<DataSetAdapter> = [
  adapter(SeriesRenamesSource, { part: "core", cadence: "irregular", wholeHistory: true, stage: renamesStep }),
  adapter(FmRegistrySource, {
    part: "core",
    cadence: "irregular",
    required: "no FM registry (fm_ident2) among the inputs",
    wholeHistory: true,
    fetch: fetchFmRegistry,
    stage: stageRegistry,
  }),
  adapter(CartolaSource, { part: "core", cadence: "daily", dailyValues: true, firstDates: cartolaFirstDates, fetch: fetchCartola, load: loadCartola, stage: stageDailyValues }),
  adapter(FmBprDailySource, { part: "core", cadence: "daily", dailyValues: true, datesOf: latest("date"), fetch: fetchFmBprDaily }), // staged with the cartola
  adapter(FmTacSource, { part: "core", cadence: "monthly", datesOf: latest("period"), fetch: fetchFmTac, stage: tacStep, stageReads: { core: true } }),
  adapter(FmPortfolioSource, { part: "core", cadence: "monthly", datesOf: latest("month"), fetch: fetchFmPortfolio, stage: fmHoldingsStep, stageReads: {} }),
  adapter(Article107Source, { part: "core", cadence: "irregular", stage: article107Step, stageReads: {} }),
  adapter(AfmCategoriesSource, { part: "core", cadence: "irregular", datesOf: latest("date"), stage: afmStep, stageReads: { core: true } }),
  adapter(CmfSpheresSource, { part: "core", cadence: "irregular", stage: spheresStep, stageReads: { core: true } }),
  adapter(BenchmarkCatalogSource, {
    part: "core",
    cadence: "irregular",
    stage: benchmarksStep,
    stageReads: { dataSets: ["benchmark_prices"], cutoff: ["benchmark_prices"] },
  }),
  adapter(BenchmarkPricesSource, { part: "core", cadence: "daily", datesOf: latest("date") }), // staged with the catalog
  adapter(IndicatorsSource, { part: "core", cadence: "daily", datesOf: latest("date"), fetch: fetchIndicators, stage: indicatorsStep, stageReads: { cutoff: ["indicators"] } }),
  adapter(FiRegistrySource, {
    part: "fi",
    cadence: "irregular",
    required: "no FI registry among the inputs",
    fetch: fetchFiRegistry,
    stage: fiStep,
    stageReads: {
      dataSets: ["fi_book_values", "fi_fact_sheets", "etf_tickers"],
      core: true,
      cutoff: ["fi_book_values"],
      fiUnavailable: true,
    },
  }),
  // staged with the registry; a page's summary keeps each series' first row (an increment reads only the pages it needs)
  adapter(FiBookValuesSource, { part: "fi", cadence: "daily", datesOf: latest("date"), summaryOf: fiPageSummary }),
  adapter(FiPortfolioSource, {
    part: "fi",
    cadence: "quarterly",
    datesOf: latest("period"),
    stage: fiHoldingsStep,
    stageReads: { dataSets: ["fi_registry"], fiUnavailable: true },
  }),
  adapter(FiFactSheetsSource, { part: "fi", cadence: "irregular" }),
  adapter(EtfTickersSource, { part: "fi", cadence: "irregular" }),
]

export const adapterOf = (name: DataSetName): DataSetAdapter => {
  const found = ADAPTERS.find((s) => s.name === name)
  if (found === undefined) throw new Error(`no adapter for data set ${name}`)
  return found
}

/**
 * The data sets fetched over HTTP, in the order the CMF is asked: the FM registry, the daily
 * reports and the cartola, the monthly files, the FI/ETF lists, then UF and dólar from their API.
 */
export const FETCHES: ReadonlyArray<DataSetAdapter> = (
  ["fm_registry", "fm_bpr_daily", "cartola_diaria", "fm_portfolio", "fm_tac", "fi_registry", "indicators"] as const
).map(adapterOf)

/**
 * Which data set the bytes are, by content; null when none. The one case content cannot settle:
 * CMF's bare "Sin información" answer (no header) is a cartola range unless the name says it is a
 * monthly portfolio file (NACI/EXTR and one YYYYMM), where it means an empty month.
 */
export const detect = (bytes: Uint8Array, nameHint = ""): DataSetAdapter | null => {
  const found = ADAPTERS.find((s) => s.detect(bytes)) ?? null
  if (
    found?.name === "cartola_diaria" &&
    bytes.length <= 8192 &&
    isSinInformacion(decodeCmfText(bytes)) &&
    marketFromName(nameHint) !== null &&
    monthFromName(nameHint) !== null
  ) {
    return adapterOf("fm_portfolio")
  }
  return found
}
