import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dayOf } from "../../pipeline/sample/Calendar.ts"
import type { ExtrasContext } from "../../pipeline/sample/extras/ExtrasContext.ts"
import { writeMarketExtras } from "../../pipeline/sample/extras/MarketExtras.ts"
import { makePrng } from "../../pipeline/sample/Prng.ts"
import { buildUniverse, type Universe } from "../../pipeline/sample/Universe.ts"
import { SCALES } from "../../pipeline/sample/UniverseConfig.ts"
import { AfmCategoriesSource } from "../../pipeline/datasets/market/AfmCategories.ts"
import { BenchmarkCatalogSource } from "../../pipeline/datasets/market/BenchmarkCatalog.ts"
import { BenchmarkPricesSource } from "../../pipeline/datasets/market/BenchmarkPrices.ts"
import { CmfSpheresSource } from "../../pipeline/datasets/market/CmfSpheres.ts"
import type { DataSetSource } from "../../pipeline/datasets/DataSet.ts"
import { IndicatorsSource } from "../../pipeline/datasets/market/Indicators.ts"
import { afmFamilyOf } from "../../schemas/AfmFamilies.ts"
import type { AfmCategoryRecord } from "../../pipeline/datasets/market/AfmCategories.ts"
import type { BenchmarkCatalogRecord } from "../../pipeline/datasets/market/BenchmarkCatalog.ts"
import type { BenchmarkPriceRecord } from "../../pipeline/datasets/market/BenchmarkPrices.ts"
import type { CmfSpheresRecord } from "../../pipeline/datasets/market/CmfSpheres.ts"
import type { IndicatorRecord } from "../../pipeline/datasets/market/Indicators.ts"

const END = "2026-11-20"
const SOURCES: ReadonlyArray<DataSetSource<unknown>> = [
  IndicatorsSource, AfmCategoriesSource, BenchmarkCatalogSource, BenchmarkPricesSource, CmfSpheresSource
]
const work = mkdtempSync(join(tmpdir(), "fds-market-sample-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The context `writeSample` hands the extras: the same universe for the same seed. */
const contextFor = (name: string, seed: number): ExtrasContext => {
  const out = join(work, name)
  mkdirSync(out, { recursive: true })
  const config = SCALES.small
  const universe = buildUniverse(makePrng(seed), config, dayOf(END))
  return { out, scale: "small", config, seed, universe, endDay: dayOf(END), endDate: END }
}
const hashOf = (files: ReadonlyArray<string>): string => {
  const hash = createHash("sha256")
  for (const f of files) hash.update(basename(f)).update("\0").update(readFileSync(f))
  return hash.digest("hex")
}

describe("writeMarketExtras: determinism", () => {
  it("writes identical files for a seed, different ones for another, in well under two seconds", async () => {
    const started = performance.now()
    const a = await writeMarketExtras(contextFor("a", 7))
    const seconds = (performance.now() - started) / 1000
    console.log(`market extras (small) written in ${seconds.toFixed(2)} s`)
    expect(seconds).toBeLessThan(2)
    const b = await writeMarketExtras(contextFor("b", 7))
    const c = await writeMarketExtras(contextFor("c", 8))
    expect(hashOf(b)).toBe(hashOf(a))
    expect(hashOf(c)).not.toBe(hashOf(a))
  })
})

describe("writeMarketExtras: the small sample parses back and agrees with the universe", () => {
  let universe: Universe
  let files: Array<string> = []
  const parsed = new Map<string, Array<unknown>>()
  const repairs = new Map<string, number>()
  const of = <R>(name: string) => (parsed.get(name) ?? []) as Array<R>

  beforeAll(async () => {
    const ctx = contextFor("facts", 42)
    universe = ctx.universe
    files = await writeMarketExtras(ctx)
    for (const file of files) {
      const bytes = readFileSync(file)
      const sources = SOURCES.filter((s) => s.detect(bytes))
      expect(sources.map((s) => s.name), basename(file)).toHaveLength(1)
      const { records, repairs: counted } = await Effect.runPromise(sources[0]!.parse(bytes, basename(file)))
      parsed.set(sources[0]!.name, [...(parsed.get(sources[0]!.name) ?? []), ...records])
      for (const [k, n] of Object.entries(counted)) repairs.set(k, (repairs.get(k) ?? 0) + n)
    }
  })

  const seriesKeys = () =>
    new Set(universe.series.flatMap((s) => [`${s.fund.run}|${s.label}`, ...(s.renamed ? [`${s.fund.run}|${s.renamed.label}`] : [])]))

  it("has UF for every calendar day, rising year after year on average", () => {
    const uf = of<IndicatorRecord>("indicators").filter((r) => r.indicator === "UF")
    expect(uf).toHaveLength(dayOf(END) - dayOf("2019-01-01") + 1)
    const byYear = new Map<string, Array<number>>()
    for (const r of uf) byYear.set(r.date.slice(0, 4), [...(byYear.get(r.date.slice(0, 4)) ?? []), r.value])
    const averages = [...byYear.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length)
    for (let i = 1; i < averages.length; i++) expect(averages[i]).toBeGreaterThan(averages[i - 1]!)
    expect(averages[0]).toBeGreaterThan(26_000)
    expect(averages[0]).toBeLessThan(29_500)
    expect(uf.at(-1)!.value).toBeGreaterThan(36_000)
    expect(uf.at(-1)!.value).toBeLessThan(44_000)
  })

  it("has the dólar observado on weekdays only, once per day, from both API formats", () => {
    const usd = of<IndicatorRecord>("indicators").filter((r) => r.indicator === "USD")
    expect(new Set(usd.map((r) => r.date)).size).toBe(usd.length)
    for (const r of usd) {
      expect([0, 6]).not.toContain(new Date(`${r.date}T00:00:00Z`).getUTCDay())
      expect(r.value).toBeGreaterThanOrEqual(650)
      expect(r.value).toBeLessThanOrEqual(1000)
    }
    expect(new Set(usd.map((r) => r.provider))).toEqual(new Set(["bcentral_siete", "cmf_api"]))
    expect(usd.filter((r) => r.provider === "cmf_api").every((r) => r.date.startsWith("2026"))).toBe(true)
    expect(repairs.get("notTradingDaysSkipped")).toBeGreaterThan(500)
  })

  it("categorises series of the universe consistently with their fund's type and currency", () => {
    const afm = of<AfmCategoryRecord>("afm_categories")
    const known = seriesKeys()
    const funds = new Map(universe.funds.map((f) => [f.run, f]))
    expect(afm.length).toBeGreaterThan(40)
    for (const r of afm) {
      expect(known.has(`${r.run}|${r.serie}`), `${r.run} ${r.serie}`).toBe(true)
      const fund = funds.get(r.run)!
      expect(fund.end).toBeNull()
      expect(r.currency).toBe(fund.currency === "PROM" ? "DOLAR" : "PESOS")
      if (r.category === null) continue
      if (fund.type === 1) expect(r.category.startsWith("RF<90")).toBe(true)
      if (fund.type === 4) expect(r.category.startsWith("FDOBAL")).toBe(true)
      if (fund.type === 5) expect(r.category.startsWith("FDOACC")).toBe(true)
    }
    expect(afm.some((r) => r.category === null)).toBe(true)
    expect(afm.some((r) => r.currency === "DOLAR" && r.category !== null)).toBe(true)
    expect(afm.some((r) => funds.get(r.run)!.currency === "EUR")).toBe(false)
  })

  it("rates most active series with 1–5 spheres, some blank", () => {
    const spheres = of<CmfSpheresRecord>("cmf_spheres")
    const known = seriesKeys()
    expect(spheres.length).toBeGreaterThan(40)
    for (const r of spheres) {
      expect(known.has(`${r.run}|${r.serie}`)).toBe(true)
      if (r.spheres !== null) expect([1, 2, 3, 4, 5]).toContain(r.spheres)
    }
    expect(spheres.some((r) => r.spheres === null)).toBe(true)
    expect(new Set(spheres.map((r) => r.spheres)).size).toBeGreaterThanOrEqual(5)
  })

  it("has a price file per catalog symbol over the history, and families without a benchmark", () => {
    const catalog = of<BenchmarkCatalogRecord>("benchmark_catalog")
    const prices = of<BenchmarkPriceRecord>("benchmark_prices")
    expect(catalog.length).toBeGreaterThanOrEqual(4)
    expect(new Set(catalog.map((c) => c.nativeCurrency))).toEqual(new Set(["USD", "CLP"]))
    for (const { symbol } of catalog) {
      const rows = prices.filter((p) => p.symbol === symbol)
      expect(rows.length, symbol).toBeGreaterThan(1500)
      expect(rows[0]!.date < "2019-01-10").toBe(true)
      expect(rows.at(-1)!.date > "2026-11-10").toBe(true)
    }
    expect(new Set(prices.map((p) => p.symbol))).toEqual(new Set(catalog.map((c) => c.symbol)))
    const withBenchmark = new Set(catalog.map((c) => c.familyRar))
    const used = of<AfmCategoryRecord>("afm_categories").map((r) => afmFamilyOf(r.category)?.familyRar)
    expect(used.some((f) => f !== undefined && !withBenchmark.has(f))).toBe(true)
  })
})
