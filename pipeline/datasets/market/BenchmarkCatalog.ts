/**
 * The benchmark catalog (curated, our format): `;` text, latin-1 or UTF-8,
 * `FAMILY_RAR;SYMBOL;INDEX_NAME;INSTRUMENT_NAME;NATIVE_CURRENCY;ASSET_CLASS`, one row per RAR family
 * that has a benchmark, e.g. `Accionario eeuu;VOO;S&P 500;Vanguard S&P 500 ETF;USD;equity`.
 */
import { Effect, Schema, SchemaParser } from "effect"
import { AFM_FAMILY_BY_NAME } from "../../../schemas/AfmFamilies.ts"
import { cell, cmfRow, Text } from "../../cmf/CmfCells.ts"
import { startsWithHeader } from "../../cmf/CmfHeaderLine.ts"
import { type CmfTable, readCmfTable } from "../../cmf/CmfTable.ts"
import type { DataSetSource } from "../DataSet.ts"
import { AssetClassCell, BenchmarkCurrencyCell, SymbolCell } from "./MarketCells.ts"
import { repairMojibake } from "../../cmf/Mojibake.ts"
import { uniqueRows } from "../../cmf/UniqueRows.ts"
import { dateToInt } from "../../../schemas/Dates.ts"
import type { BenchmarkPriceRecord } from "./BenchmarkPrices.ts"
import type { BenchmarkPricesTable, BenchmarksTable } from "../../../snapshots/tables/Market.ts"
import type { StageContext } from "../StageContext.ts"

/* Parsed benchmark catalog (data set `benchmark_catalog`): which market instrument a RAR family is compared with. */

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
  /** FAMILY_RAR: a family display name of `AFM_FAMILIES` (schemas/AfmFamilies.ts). */
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

export const BENCHMARK_CATALOG_COLUMNS = [
  "FAMILY_RAR", "SYMBOL", "INDEX_NAME", "INSTRUMENT_NAME", "NATIVE_CURRENCY", "ASSET_CLASS"
] as const

const FamilyCell = cell(
  "a RAR family name (AFM_FAMILIES, e.g. Accionario eeuu)",
  Schema.String.check(Schema.makeFilter((s: string) => AFM_FAMILY_BY_NAME.has(repairMojibake(s))))
)

const cells = [FamilyCell, SymbolCell, Text, Text, BenchmarkCurrencyCell, AssetClassCell] as const

type Draft = { -readonly [K in keyof BenchmarkCatalogRecord]: BenchmarkCatalogRecord[K] }

const Row = cmfRow(cells, (c): Draft => {
  const family = AFM_FAMILY_BY_NAME.get(repairMojibake(c[0]))!
  return {
    line: 0,
    familyRar: family.familyRar,
    familySlug: family.slug,
    symbol: c[1],
    indexName: repairMojibake(c[2]),
    instrumentName: repairMojibake(c[3]),
    nativeCurrency: c[4] as BenchmarkCurrency,
    assetClass: c[5] as BenchmarkAssetClass
  }
})

const table: CmfTable<Draft> = {
  dataSet: "benchmark_catalog",
  columns: BENCHMARK_CATALOG_COLUMNS,
  cells,
  decode: SchemaParser.decodeUnknownResult(Row)
}

/** One benchmark per family: identical repeats are skipped and counted, differing ones rejected. */
const parse = Effect.fn("BenchmarkCatalog.parse")(function* (bytes: Uint8Array, file: string) {
  const rows = uniqueRows<BenchmarkCatalogRecord>({
    dataSet: "benchmark_catalog",
    file,
    keyOf: (r) => `FAMILY_RAR ${r.familyRar}`,
    compared: [
      ["symbol", "SYMBOL"], ["indexName", "INDEX_NAME"], ["instrumentName", "INSTRUMENT_NAME"],
      ["nativeCurrency", "NATIVE_CURRENCY"], ["assetClass", "ASSET_CLASS"]
    ]
  })
  const { footnotesSkipped } = yield* readCmfTable(table, bytes, file, rows.onRow)
  return { records: rows.records, repairs: { duplicatesSkipped: rows.duplicatesSkipped(), footnotesSkipped } }
})

/** Family → benchmark symbol; one key: the newest catalog replaces the older ones. */
export const BenchmarkCatalogSource: DataSetSource<BenchmarkCatalogRecord> = {
  name: "benchmark_catalog",
  detect: (bytes) => startsWithHeader(bytes, BENCHMARK_CATALOG_COLUMNS),
  parse,
  key: () => "benchmark_catalog"
}

export const stageBenchmarks = (
  catalog: ReadonlyArray<BenchmarkCatalogRecord>,
  prices: ReadonlyArray<BenchmarkPriceRecord>,
  cutoff: number,
) => {
  const benchmarks = new Map<string, BenchmarksTable>()
  for (const c of catalog) {
    benchmarks.set(c.familySlug, {
      family_slug: c.familySlug,
      family_rar: c.familyRar,
      symbol: c.symbol,
      index_name: c.indexName,
      instrument_name: c.instrumentName,
      native_currency: c.nativeCurrency,
      asset_class: c.assetClass,
    })
  }
  const symbols = new Set([...benchmarks.values()].map((b) => b.symbol))
  const rows = new Map<string, BenchmarkPricesTable>()
  let outside = 0
  for (const p of prices) {
    const date = dateToInt(p.date)
    if (!symbols.has(p.symbol)) {
      outside++
      continue
    }
    if (date > cutoff) continue
    rows.set(`${p.symbol}|${date}`, { symbol: p.symbol, date, close: p.close })
  }
  return {
    benchmarks: [...benchmarks.values()].sort((a, b) => (a.family_slug < b.family_slug ? -1 : 1)),
    prices: [...rows.values()].sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : a.date - b.date)),
    repairs: { benchmark_prices_without_catalog: outside },
  }
}

/** The catalog and the prices, staged together (on the catalog's adapter). */
export const benchmarksStep = (context: StageContext) =>
  Effect.sync(() => {
    const benchmarks = stageBenchmarks(
      context.records<BenchmarkCatalogRecord>("benchmark_catalog"),
      context.records<BenchmarkPriceRecord>("benchmark_prices"),
      context.cutoff,
    )
    context.put("benchmarks", benchmarks.benchmarks)
    context.put("benchmark_prices", benchmarks.prices)
    Object.assign(context.repairs, benchmarks.repairs)
  })
