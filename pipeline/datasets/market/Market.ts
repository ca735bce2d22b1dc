/** Staging of the market context: UF/USD, AFM families, CMF spheres, benchmarks. */
import { Effect } from "effect"
import { dateToInt } from "../../../schemas/Dates.ts"
import { assetId } from "../../../schemas/Ids.ts"
import { afmFamilyOf } from "../../../schemas/AfmFamilies.ts"
import type { AfmCategoryRecord } from "./AfmCategories.ts"
import type { BenchmarkCatalogRecord } from "./BenchmarkCatalog.ts"
import type { BenchmarkPriceRecord } from "./BenchmarkPrices.ts"
import type { CmfSpheresRecord } from "./CmfSpheres.ts"
import type { IndicatorRecord } from "./Indicators.ts"
import type {
  AfmCategoriesTable,
  BenchmarkPricesTable,
  BenchmarksTable,
  CmfSpheresTable,
  IndicatorsTable,
} from "../../../snapshots/tables/Market.ts"
import { coreOf, type StageContext } from "../StageContext.ts"

/** Later files win for a repeated (indicator, date): files arrive oldest observation first. */
export const stageIndicators = (records: ReadonlyArray<IndicatorRecord>, cutoff: number): IndicatorsTable[] => {
  const rows = new Map<string, IndicatorsTable>()
  for (const r of records) {
    const date = dateToInt(r.date)
    if (date > cutoff) continue
    rows.set(`${r.indicator}|${date}`, { indicator: r.indicator, date, value: r.value })
  }
  return [...rows.values()].sort((a, b) => (a.indicator < b.indicator ? -1 : a.indicator > b.indicator ? 1 : a.date - b.date))
}

const resolve = (run: number, serie: string, known: ReadonlySet<number>, aliasOf: ReadonlyMap<number, number>) => {
  const raw = assetId(run, serie)
  const id = aliasOf.get(raw) ?? raw
  return known.has(id) ? id : null
}

export const stageAfm = (
  records: ReadonlyArray<AfmCategoryRecord>,
  known: ReadonlySet<number>,
  aliasOf: ReadonlyMap<number, number>,
) => {
  const rows = new Map<number, AfmCategoriesTable>()
  const repairs = { afm_unclassified: 0, afm_unknown_series: 0 }
  // the classification's date (FECHA): the latest of the rows kept, null when none is kept
  let reportDate: string | null = null
  for (const r of records) {
    const family = afmFamilyOf(r.category)
    if (family === null || r.category === null) {
      repairs.afm_unclassified++
      continue
    }
    const id = resolve(r.run, r.serie, known, aliasOf)
    if (id === null) {
      repairs.afm_unknown_series++
      continue
    }
    rows.set(id, { asset_id: id, category: r.category, family_rar: family.familyRar, family_slug: family.slug, currency: r.currency })
    if (reportDate === null || r.date > reportDate) reportDate = r.date
  }
  return { rows: [...rows.values()].sort((a, b) => a.asset_id - b.asset_id), repairs, reportDate }
}

export const stageSpheres = (
  records: ReadonlyArray<CmfSpheresRecord>,
  known: ReadonlySet<number>,
  aliasOf: ReadonlyMap<number, number>,
) => {
  const rows = new Map<number, CmfSpheresTable>()
  let unknown = 0
  for (const r of records) {
    const id = resolve(r.run, r.serie, known, aliasOf)
    if (id === null) {
      unknown++
      continue
    }
    rows.set(id, { asset_id: id, family: r.family, investor_type: r.investorType, spheres: r.spheres, as_of: r.date })
  }
  return { rows: [...rows.values()].sort((a, b) => a.asset_id - b.asset_id), repairs: { spheres_unknown_series: unknown } }
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

export const indicatorsStep = (context: StageContext) =>
  Effect.sync(() => void context.put("indicators", stageIndicators(context.records<IndicatorRecord>("indicators"), context.cutoff)))

export const afmStep = (context: StageContext) =>
  Effect.sync(() => {
    const core = coreOf(context)
    const afm = stageAfm(context.records<AfmCategoryRecord>("afm_categories"), core.known, core.aliasOf)
    if (afm.reportDate !== null) context.meta.afm_report_date = afm.reportDate
    context.put("afm_categories", afm.rows)
    Object.assign(context.repairs, afm.repairs)
  })

export const spheresStep = (context: StageContext) =>
  Effect.sync(() => {
    const core = coreOf(context)
    const spheres = stageSpheres(context.records<CmfSpheresRecord>("cmf_spheres"), core.known, core.aliasOf)
    context.put("cmf_spheres", spheres.rows)
    Object.assign(context.repairs, spheres.repairs)
  })

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
