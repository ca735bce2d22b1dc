/**
 * Every data set the pipeline reads, as one table of adapters (the data-set port, DataSet.ts). The
 * table's order is staging's order (renames before the daily values they relabel; the registry and
 * the daily values before everything keyed by fund or series); detection tries the same order, and
 * no two signatures overlap (test/pipeline/Detect.test.ts).
 *
 * To add a data set: its source file (detect, parse, key), a staging step if it adds tables, and a
 * row here.
 */
import type { DataSetName } from "../../schemas/CmfRecords.ts"
import { stageDailyValues, stageRegistry } from "../staging/Core.ts"
import { loadCartola } from "../staging/CartolaColumns.ts"
import { fiStep } from "../staging/Fi.ts"
import { article107Step, fmHoldingsStep, renamesStep, tacStep } from "../staging/FmExtras.ts"
import { afmStep, benchmarksStep, indicatorsStep, spheresStep } from "../staging/Market.ts"
import { AfmCategoriesSource } from "./AfmCategories.ts"
import { Article107Source } from "./Article107.ts"
import { BenchmarkCatalogSource } from "./BenchmarkCatalog.ts"
import { BenchmarkPricesSource } from "./BenchmarkPrices.ts"
import { CartolaSource } from "./Cartola.ts"
import { CmfSpheresSource } from "./CmfSpheres.ts"
import { decodeCmfText, isSinInformacion } from "./CmfText.ts"
import type { DataSetAdapter, DataSetSource } from "./DataSet.ts"
import { EtfTickersSource } from "./EtfTickers.ts"
import { FiBookValuesSource } from "./FiBookValues.ts"
import { FiFactSheetsSource } from "./FiFactSheets.ts"
import { FiPortfolioSource } from "./FiPortfolio.ts"
import { FiRegistrySource } from "./FiRegistry.ts"
import { FmPortfolioSource, marketFromName } from "./FmPortfolio.ts"
import { FmRegistrySource } from "./FmRegistry.ts"
import { FmTacSource } from "./FmTac.ts"
import { IndicatorsSource } from "./Indicators.ts"
import { monthFromName } from "./MonthHint.ts"
import { SeriesRenamesSource } from "./SeriesRenames.ts"

const adapter = <R>(source: DataSetSource<R>, rest: Omit<DataSetAdapter<R>, keyof DataSetSource<R>>): DataSetAdapter =>
  ({ ...source, ...rest }) as DataSetAdapter

export const ADAPTERS: ReadonlyArray<DataSetAdapter> = [
  adapter(SeriesRenamesSource, { part: "core", stage: renamesStep }),
  adapter(FmRegistrySource, { part: "core", required: "no FM registry (fm_ident2) among the inputs", stage: stageRegistry }),
  adapter(CartolaSource, { part: "core", dailyValues: true, load: loadCartola, stage: stageDailyValues }),
  adapter(FmTacSource, { part: "core", stage: tacStep }),
  adapter(FmPortfolioSource, { part: "core", stage: fmHoldingsStep }),
  adapter(Article107Source, { part: "core", stage: article107Step }),
  adapter(AfmCategoriesSource, { part: "core", stage: afmStep }),
  adapter(CmfSpheresSource, { part: "core", stage: spheresStep }),
  adapter(BenchmarkCatalogSource, { part: "core", stage: benchmarksStep }),
  adapter(BenchmarkPricesSource, { part: "core" }), // staged with the catalog
  adapter(IndicatorsSource, { part: "core", stage: indicatorsStep }),
  adapter(FiRegistrySource, { part: "fi", required: "no FI registry among the inputs", stage: fiStep }),
  adapter(FiBookValuesSource, { part: "fi" }), // the FI/ETF part is staged as one, on the registry
  adapter(FiPortfolioSource, { part: "fi" }),
  adapter(FiFactSheetsSource, { part: "fi" }),
  adapter(EtfTickersSource, { part: "fi" }),
]

export const adapterOf = (name: DataSetName): DataSetAdapter => {
  const found = ADAPTERS.find((s) => s.name === name)
  if (found === undefined) throw new Error(`no adapter for data set ${name}`)
  return found
}

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
