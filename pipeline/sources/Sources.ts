/** Every data set the pipeline reads, in the order detection tries them. */
import { Effect } from "effect"
import type { DataSetName } from "../../schemas/CmfRecords.ts"
import { AfmCategoriesSource } from "./AfmCategories.ts"
import { Article107Source } from "./Article107.ts"
import { BenchmarkCatalogSource } from "./BenchmarkCatalog.ts"
import { BenchmarkPricesSource } from "./BenchmarkPrices.ts"
import { parseCartola } from "./Cartola.ts"
import { CmfSpheresSource } from "./CmfSpheres.ts"
import type { DataSetSource } from "./DataSet.ts"
import { detectDataSet as detectCore } from "./Detect.ts"
import { EtfTickersSource } from "./EtfTickers.ts"
import { FiBookValuesSource } from "./FiBookValues.ts"
import { FiFactSheetsSource } from "./FiFactSheets.ts"
import { FiPortfolioSource } from "./FiPortfolio.ts"
import { FiRegistrySource } from "./FiRegistry.ts"
import { decodeCmfText, isSinInformacion } from "./CmfText.ts"
import { FmPortfolioSource, marketFromName } from "./FmPortfolio.ts"
import { monthFromName } from "./MonthHint.ts"
import { parseFmRegistry } from "./FmRegistry.ts"
import { FmTacSource } from "./FmTac.ts"
import { IndicatorsSource } from "./Indicators.ts"
import { SeriesRenamesSource } from "./SeriesRenames.ts"

const CARTOLA_NAME = /ffmm_todos_(\d{8})_(\d{8})/

const FmRegistrySource: DataSetSource<unknown> = {
  name: "fm_registry",
  detect: (bytes) => detectCore(bytes) === "fm_registry",
  parse: (bytes, file) =>
    Effect.map(parseFmRegistry(bytes, file), (p) => ({
      records: p.records,
      repairs: { registry_repeated_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped },
    })),
  key: () => "fm_ident2",
}

/** The cartola: a range is keyed by its first day, so a later, longer fetch of a month replaces the shorter. */
const CartolaSource: DataSetSource<unknown> = {
  name: "cartola_diaria",
  detect: (bytes) => detectCore(bytes) === "cartola_diaria",
  parse: (bytes, file) =>
    Effect.map(parseCartola(bytes, file), (p) => ({
      records: p.records,
      repairs: { duplicate_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped },
    })),
  key: (name, _bytes, sha) => {
    const m = CARTOLA_NAME.exec(name)
    return m === null ? sha : `from_${m[1]}`
  },
}

export const SOURCES: ReadonlyArray<DataSetSource<unknown>> = [
  FmRegistrySource,
  CartolaSource,
  FmTacSource,
  FmPortfolioSource,
  Article107Source,
  SeriesRenamesSource,
  AfmCategoriesSource,
  CmfSpheresSource,
  BenchmarkCatalogSource,
  BenchmarkPricesSource,
  IndicatorsSource,
  FiRegistrySource,
  FiBookValuesSource,
  FiPortfolioSource,
  FiFactSheetsSource,
  EtfTickersSource,
] as ReadonlyArray<DataSetSource<unknown>>

export const sourceOf = (name: DataSetName): DataSetSource<unknown> => {
  const source = SOURCES.find((s) => s.name === name)
  if (source === undefined) throw new Error(`no source for data set ${name}`)
  return source
}

/**
 * Which data set the bytes are, by content; null when none. The one case content cannot settle:
 * CMF's bare "Sin información" answer (no header) is a cartola range unless the name says it is a
 * monthly portfolio file (NACI/EXTR and one YYYYMM), where it means an empty month.
 */
export const detect = (bytes: Uint8Array, nameHint = ""): DataSetSource<unknown> | null => {
  const found = SOURCES.find((s) => s.detect(bytes)) ?? null
  if (
    found?.name === "cartola_diaria" &&
    bytes.length <= 8192 &&
    isSinInformacion(decodeCmfText(bytes)) &&
    marketFromName(nameHint) !== null &&
    monthFromName(nameHint) !== null
  ) {
    return sourceOf("fm_portfolio")
  }
  return found
}
