/** The FI/ETF part of the sample: deterministic, recognised and parsed back, with its edge cases. */
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dayOf } from "../../pipeline/sample/Calendar.ts"
import type { ExtrasContext } from "../../pipeline/sample/extras/ExtrasContext.ts"
import { writeFiExtras } from "../../pipeline/sample/extras/FiExtras.ts"
import { makePrng } from "../../pipeline/sample/Prng.ts"
import { buildUniverse } from "../../pipeline/sample/Universe.ts"
import { SCALES } from "../../pipeline/sample/UniverseConfig.ts"
import type { DataSetSource } from "../../pipeline/datasets/DataSet.ts"
import { EtfTickersSource } from "../../pipeline/datasets/fi/EtfTickers.ts"
import { FiBookValuesSource } from "../../pipeline/datasets/fi/FiBookValues.ts"
import { FiFactSheetsSource } from "../../pipeline/datasets/fi/FiFactSheets.ts"
import { FiPortfolioSource } from "../../pipeline/datasets/fi/FiPortfolio.ts"
import { FiRegistrySource } from "../../pipeline/datasets/fi/FiRegistry.ts"
import type { EtfTickerRecord } from "../../pipeline/datasets/fi/EtfTickers.ts"
import type { FiBookValueRecord } from "../../pipeline/datasets/fi/FiBookValues.ts"
import type { FiFactSheetRecord } from "../../pipeline/datasets/fi/FiFactSheets.ts"
import type { FiPortfolioRecord } from "../../pipeline/datasets/fi/FiPortfolio.ts"
import type { FiRegistryRecord } from "../../pipeline/datasets/fi/FiRegistry.ts"

const END = "2026-11-20" // a Friday: the last day with values of a current fund
const work = mkdtempSync(join(tmpdir(), "fds-fi-sample-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const contextFor = (out: string, seed: number): ExtrasContext => {
  mkdirSync(out, { recursive: true })
  const config = SCALES.small
  const universe = buildUniverse(makePrng(seed), config, dayOf(END))
  return { out, scale: "small", config, seed, universe, endDay: dayOf(END), endDate: END }
}
const folderHash = (dir: string): string => {
  const hash = createHash("sha256")
  for (const name of readdirSync(dir).sort()) hash.update(name).update("\0").update(readFileSync(join(dir, name)))
  return hash.digest("hex")
}
const daysBefore = (iso: string) => (dayOf(END) - dayOf(iso))

describe("writeFiExtras: determinism", () => {
  it("writes byte-identical files for the same seed, other files for another seed, in well under 2 s", async () => {
    const started = performance.now()
    await writeFiExtras(contextFor(join(work, "a"), 7))
    const seconds = (performance.now() - started) / 1000
    console.log(`small FI sample written in ${seconds.toFixed(2)} s`)
    expect(seconds).toBeLessThan(2)
    await writeFiExtras(contextFor(join(work, "b"), 7))
    await writeFiExtras(contextFor(join(work, "c"), 8))
    expect(folderHash(join(work, "a"))).toBe(folderHash(join(work, "b")))
    expect(folderHash(join(work, "c"))).not.toBe(folderHash(join(work, "a")))
  })
})

interface Page<R> {
  readonly key: string
  readonly records: ReadonlyArray<R>
  readonly repairs: Readonly<Record<string, number>>
}

describe("writeFiExtras: the small FI sample parses back with its edge cases", () => {
  const dir = join(work, "facts")
  const ctx = contextFor(dir, 42)
  const sources: ReadonlyArray<DataSetSource<unknown>> = [FiRegistrySource, FiBookValuesSource, FiPortfolioSource, FiFactSheetsSource, EtfTickersSource]
  const pages = new Map<string, Array<Page<unknown>>>()
  const unrecognised: Array<string> = []
  const all = <R>(name: string): Array<Page<R>> => (pages.get(name) ?? []) as Array<Page<R>>
  const records = <R>(name: string): Array<R> => all<R>(name).flatMap((p) => [...p.records])
  const repairs = (name: string, key: string) => all(name).reduce((n, p) => n + (p.repairs[key] ?? 0), 0)

  beforeAll(async () => {
    const files = await writeFiExtras(ctx)
    for (const path of files) {
      const bytes = readFileSync(path)
      const claimed = sources.filter((s) => s.detect(bytes))
      if (claimed.length !== 1) {
        unrecognised.push(`${path}: ${claimed.map((s) => s.name).join(", ")}`)
        continue
      }
      const source = claimed[0]!
      const parsed = await Effect.runPromise(source.parse(bytes, path))
      const list = pages.get(source.name) ?? []
      list.push({ key: source.key(path, bytes, "sha"), records: parsed.records, repairs: parsed.repairs })
      pages.set(source.name, list)
    }
  })

  const registry = () => records<FiRegistryRecord>("fi_registry")
  const values = () => records<FiBookValueRecord>("fi_book_values")
  const holdings = () => records<FiPortfolioRecord>("fi_portfolio")
  const sheets = () => records<FiFactSheetRecord>("fi_fact_sheets")
  const active = () => new Set(registry().filter((r) => r.status === "active").map((r) => r.run))
  const lastValue = () => {
    const last = new Map<number, string>()
    for (const v of values()) if ((last.get(v.run) ?? "") < v.date) last.set(v.run, v.date)
    return last
  }

  it("has every file recognised by exactly one FI source, four list pages and one key per page", () => {
    expect(unrecognised).toEqual([])
    expect(all("fi_registry").map((p) => p.key).sort()).toEqual(["FINRE-NV", "FINRE-VI", "FIRES-NV", "FIRES-VI"])
    for (const name of ["fi_book_values", "fi_portfolio"]) {
      const keys = all(name).map((p) => p.key)
      expect(new Set(keys).size).toBe(keys.length)
    }
  })

  it("has ~20 funds of 6 administrators, two of which also manage mutual funds, ~12 with daily values", () => {
    expect(new Set(registry().map((r) => r.run)).size).toBe(20)
    const agfs = new Set(registry().map((r) => r.agfName))
    expect(agfs.size).toBe(6)
    expect(ctx.universe.admins.filter((a) => agfs.has(a.name))).toHaveLength(2)
    const withValues = new Set(values().map((v) => v.run))
    expect(withValues.size).toBeGreaterThanOrEqual(10)
    expect(withValues.size).toBeLessThanOrEqual(16)
  })

  it("has ETFs with CFIETF tickers, all active FIRES funds with daily values", () => {
    const etfs = records<EtfTickerRecord>("etf_tickers")
    expect(etfs).toHaveLength(3)
    const withValues = new Set(values().map((v) => v.run))
    for (const etf of etfs) {
      expect(etf.ticker).toMatch(/^CFIETF/)
      expect(registry().find((r) => r.run === etf.run)).toMatchObject({ regulatoryType: "FIRES", status: "active" })
      expect(withValues.has(etf.run)).toBe(true)
    }
  })

  it("has an FI in COP whose fact sheet gives no TAC", () => {
    const cop = new Set(values().filter((v) => v.currencyCode === "COP").map((v) => v.run))
    expect(cop.size).toBe(1)
    const [run] = cop
    expect(sheets().filter((s) => s.run === run).map((s) => s.review)).toContain("NO_INFORMADA")
  })

  it("has current prices up to the end date, one active FI 20-60 days stale, one active FI with no values at all", () => {
    const last = lastValue()
    const current = [...active()].filter((run) => last.get(run) === END)
    expect(current.length).toBeGreaterThanOrEqual(8)
    const stale = [...active()].filter((run) => last.has(run) && daysBefore(last.get(run)!) >= 20 && daysBefore(last.get(run)!) <= 60)
    expect(stale).toHaveLength(1)
    // Funds without values: the active one has a values page that only says "Sin Información".
    const noValues = [...active()].filter((run) => !last.has(run) && all("fi_book_values").some((p) => p.key === `${run}:2026`))
    expect(noValues).toHaveLength(1)
    const page = all("fi_book_values").find((p) => p.key === `${noValues[0]}:2026`)!
    expect(page.records).toEqual([])
    expect(page.repairs.sinInformacionRows).toBe(1)
  })

  it("has plausible random-walk book values and skipped 'Sin Información' days", () => {
    const bySeries = new Map<string, Array<number>>()
    for (const v of values()) bySeries.set(`${v.run}|${v.serie}`, [...(bySeries.get(`${v.run}|${v.serie}`) ?? []), v.bookValue])
    for (const [series, path] of bySeries) {
      const changes = path.slice(1).map((p, i) => p / path[i]! - 1)
      expect(Math.max(...changes.map(Math.abs)), series).toBeLessThan(0.1)
      expect(new Set(path).size, series).toBeGreaterThan(path.length / 2)
    }
    expect(repairs("fi_book_values", "sinInformacionRows")).toBeGreaterThan(1)
  })

  it("has quarterly portfolios with a TOTAL row per page, a fund without any, a missing quarter, an empty foreign page", () => {
    const periods = [...new Set(holdings().map((h) => h.period))].sort()
    expect(periods).toHaveLength(4)
    expect(repairs("fi_portfolio", "totalRows")).toBe(all("fi_portfolio").length)
    const byRun = new Map<number, Set<string>>()
    for (const h of holdings()) byRun.set(h.run, (byRun.get(h.run) ?? new Set()).add(h.period))
    const withValues = new Set(values().map((v) => v.run))
    expect([...active()].filter((run) => withValues.has(run) && !byRun.has(run)).length).toBeGreaterThanOrEqual(1)
    const gap = [...byRun].filter(([, ps]) => ps.size === 3 && ps.has(periods[0]!) && ps.has(periods[3]!))
    expect(gap).toHaveLength(1)
    const emptyForeign = all("fi_portfolio").filter((p) => p.key.endsWith(":E") && p.records.length === 0)
    expect(emptyForeign).toHaveLength(1)
    const national = all("fi_portfolio").find((p) => p.key === emptyForeign[0]!.key.replace(/E$/, "N"))
    expect(national?.records.length).toBeGreaterThan(0)
  })

  it("has inactive funds, a fund on both the VI and the NV list, and a RUN also in the FM registry", () => {
    const statuses = new Map<number, Set<string>>()
    for (const r of registry()) statuses.set(r.run, (statuses.get(r.run) ?? new Set()).add(r.status))
    expect([...statuses.values()].filter((s) => s.size === 1 && s.has("inactive")).length).toBeGreaterThanOrEqual(2)
    const both = [...statuses].filter(([, s]) => s.size === 2)
    expect(both).toHaveLength(1)
    expect(registry().filter((r) => r.run === both[0]![0]).map((r) => r.regulatoryType)).toEqual(["FIRES", "FIRES"])
    const fmRuns = new Set(ctx.universe.funds.map((f) => f.run))
    expect(new Set(registry().filter((r) => fmRuns.has(r.run)).map((r) => r.run)).size).toBe(1)
    expect(repairs("fi_registry", "mojibakeRepaired")).toBeGreaterThan(0)
  })

  it("has fact sheets pending review, in conflict, not reported, stale, and series never checked", () => {
    const reviews = new Set(sheets().map((s) => s.review))
    for (const review of ["REVISADA", "PENDIENTE", "CONFLICTO", "NO_INFORMADA"]) expect(reviews.has(review as never)).toBe(true)
    expect(sheets().filter((s) => s.review === "REVISADA" && daysBefore(s.sheetDate!) > 400).length).toBeGreaterThanOrEqual(1)
    const checked = new Set(sheets().map((s) => s.run))
    const withValues = new Set(values().map((v) => v.run))
    expect([...active()].filter((run) => withValues.has(run) && !checked.has(run)).length).toBeGreaterThanOrEqual(1)
  })
})
