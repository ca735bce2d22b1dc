import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dayOf } from "../../pipeline/sample/Calendar.ts"
import type { ExtrasContext } from "../../pipeline/sample/extras/ExtrasContext.ts"
import { writeFmExtras } from "../../pipeline/sample/extras/FmExtras.ts"
import { makePrng } from "../../pipeline/sample/Prng.ts"
import { registryText } from "../../pipeline/sample/RegistryFile.ts"
import { buildUniverse } from "../../pipeline/sample/Universe.ts"
import { SCALES } from "../../pipeline/sample/UniverseConfig.ts"
import { Article107Source } from "../../pipeline/datasets/fm/Article107.ts"
import type { DataSetSource } from "../../pipeline/datasets/DataSet.ts"
import { FmPortfolioSource } from "../../pipeline/datasets/fm/FmPortfolio.ts"
import { FmTacSource, normalizeAdminName, normalizeFundName } from "../../pipeline/datasets/fm/FmTac.ts"
import { parseFmRegistry } from "../../pipeline/datasets/fm/FmRegistry.ts"
import { SeriesRenamesSource } from "../../pipeline/datasets/fm/SeriesRenames.ts"
import type { FmPortfolioRecord } from "../../pipeline/datasets/fm/FmPortfolio.ts"
import type { FmTacRecord } from "../../pipeline/datasets/fm/FmTac.ts"

const END = "2026-11-20"
const work = mkdtempSync(join(tmpdir(), "fds-fm-extras-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The context `writeSample` builds: the universe comes from the first draws of the seed's PRNG. */
const contextFor = (seed: number, out: string) => {
  mkdirSync(out, { recursive: true })
  const prng = makePrng(seed)
  const config = SCALES.small
  const universe = buildUniverse(prng, config, dayOf(END))
  const ctx: ExtrasContext = { out, scale: "small", config, seed, universe, endDay: dayOf(END), endDate: END }
  return { ctx, registry: registryText(prng, universe) }
}
const folderHash = (dir: string) => {
  const hash = createHash("sha256")
  for (const name of readdirSync(dir).sort()) hash.update(name).update("\0").update(readFileSync(join(dir, name)))
  return hash.digest("hex")
}
const months = (from: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const m = Number(from.slice(5, 7)) - 1 + i
    return `${Number(from.slice(0, 4)) + Math.floor(m / 12)}${String((m % 12) + 1).padStart(2, "0")}`
  })

describe("writeFmExtras: files", () => {
  it("is deterministic for a seed and names its files as documented", async () => {
    const started = performance.now()
    const files = await writeFmExtras(contextFor(7, join(work, "a")).ctx)
    console.log(`FM extras (small) written in ${((performance.now() - started) / 1000).toFixed(2)} s`)
    await writeFmExtras(contextFor(7, join(work, "b")).ctx)
    await writeFmExtras(contextFor(8, join(work, "c")).ctx)
    expect(folderHash(join(work, "a"))).toBe(folderHash(join(work, "b")))
    expect(folderHash(join(work, "c"))).not.toBe(folderHash(join(work, "a")))
    const names = files.map((f) => basename(f))
    // TAC is out on day 5 of the next month, portfolios on day 12: both up to October 2026 on 2026-11-20.
    expect(names.filter((n) => n.startsWith("fm_tac_"))).toEqual(months("2024-11", 24).map((m) => `fm_tac_${m}.txt`))
    expect(names.filter((n) => n.startsWith("ffm_NACI_"))).toEqual(months("2025-11", 12).map((m) => `ffm_NACI_${m}.txt`))
    expect(names.filter((n) => n.startsWith("ffm_EXTR_"))).toEqual(months("2025-11", 12).map((m) => `ffm_EXTR_${m}.txt`))
    expect(names.filter((n) => n.startsWith("art107_"))).toHaveLength(6)
    expect(names.at(-1)).toBe("series_renames.txt")
    expect(new Set(readdirSync(join(work, "a")))).toEqual(new Set(names))
  })
})

describe("writeFmExtras: the files parse back and agree with the universe", () => {
  const dir = join(work, "facts")
  const { ctx, registry: registryFile } = contextFor(42, dir)
  const sources: ReadonlyArray<DataSetSource<unknown>> = [FmTacSource, FmPortfolioSource, Article107Source, SeriesRenamesSource]
  const parsed = new Map<string, { source: string; records: ReadonlyArray<unknown>; repairs: Readonly<Record<string, number>> }>()
  const fundOf = (i: number) => ctx.universe.funds[i]!

  beforeAll(async () => {
    for (const path of await writeFmExtras(ctx)) {
      const bytes = readFileSync(path)
      const name = basename(path)
      const matching = sources.filter((s) => s.detect(bytes))
      // CMF's empty answer names no data set: only the EXTR file of one month is that.
      const source = matching[0] ?? (name.startsWith("ffm_EXTR_") ? FmPortfolioSource : undefined)
      if (matching.length > 1 || source === undefined) throw new Error(`${name}: detected as ${matching.map((s) => s.name)}`)
      parsed.set(name, { source: source.name, ...(await Effect.runPromise(source.parse(bytes, name))) })
    }
  })
  const of = <R>(prefix: string) => [...parsed].filter(([n]) => n.startsWith(prefix)).map(([name, p]) => ({ name, ...p, records: p.records as ReadonlyArray<R> }))

  it("has TAC rows whose names normalise to exactly one registry fund, with a series of that fund", async () => {
    const { records: registry } = await Effect.runPromise(parseFmRegistry(Buffer.from(registryFile, "latin1"), "fm_ident2.txt"))
    const byName = new Map(registry.map((r) => [`${normalizeAdminName(r.agfName)}|${normalizeFundName(r.fundName)}`, r.run]))
    expect(byName.size).toBe(registry.length)
    const labels = new Set(ctx.universe.series.flatMap((s) => [`${s.fund.run}|${s.label}`, `${s.fund.run}|${s.renamed?.label}`]))
    const tac = of<FmTacRecord>("fm_tac_")
    const unmatched = tac.flatMap((f) =>
      f.records.filter((r) => !labels.has(`${byName.get(`${normalizeAdminName(r.agfName)}|${normalizeFundName(r.fundName)}`)}|${r.serie}`))
    )
    expect(unmatched).toEqual([])
    // Three title lines and nine notes ("Notas:" and eight numbered) in every file.
    for (const f of tac) expect(f.repairs).toEqual({ preambleSkipped: 3, footnotesSkipped: 9, continuationRows: 0, duplicatesSkipped: 0 })
    const rows = tac.flatMap((f) => f.records)
    expect(rows.some((r) => r.fundName === `${fundOf(2).name} (2)`)).toBe(true)
    // Fund 0's name arrives as UTF-8 mojibake and is repaired.
    expect(readFileSync(join(dir, "fm_tac_202610.txt")).includes(Buffer.from(fundOf(0).name, "utf8"))).toBe(true)
    expect(rows.some((r) => r.fundName === fundOf(0).name)).toBe(true)
  })

  it("has plausible TAC: 0.3–4 % and the sum of its parts, some NA, some missing, changes up and down", () => {
    const tac = of<FmTacRecord>("fm_tac_").map((f) => f.records)
    const rows = tac.flat()
    const withTac = rows.filter((r) => r.tacTotalPercent !== null)
    for (const r of withTac) {
      expect(r.tacTotalPercent!).toBeGreaterThanOrEqual(0.3)
      expect(r.tacTotalPercent!).toBeLessThanOrEqual(4)
      const parts = r.tacFixedFeePercent! + r.tacVariableFeePercent! + r.tacOperatingExpensesPercent!
      expect(Math.abs(parts - r.tacTotalPercent!)).toBeLessThan(0.011)
    }
    expect(rows.length - withTac.length).toBeGreaterThan(0)
    // Fund 4's first series is NA; fund 6's last series never appears.
    const first4 = ctx.universe.series.find((s) => s.fund.index === 4)!
    expect(rows.filter((r) => r.fundName === fundOf(4).name && r.serie === first4.label).every((r) => r.tacTotalPercent === null)).toBe(true)
    const last6 = ctx.universe.series.filter((s) => s.fund.index === 6).at(-1)!
    expect(rows.some((r) => r.fundName === fundOf(6).name && r.serie === last6.label)).toBe(false)
    const key = (r: FmTacRecord) => `${r.fundName}|${r.serie}`
    let up = 0
    let down = 0
    for (let i = 1; i < tac.length; i++) {
      const before = new Map(tac[i - 1]!.map((r) => [key(r), r.tacTotalPercent]))
      for (const r of tac[i]!) {
        const b = before.get(key(r))
        if (b == null || r.tacTotalPercent === null) continue
        if (r.tacTotalPercent > b) up++
        if (r.tacTotalPercent < b) down++
      }
    }
    expect(up).toBeGreaterThan(0)
    expect(down).toBeGreaterThan(0)
  })

  it("has portfolios of operating registry funds summing to about 100 %, a gap and an empty EXTR month", () => {
    const files = of<FmPortfolioRecord>("ffm_")
    const byRun = new Map(ctx.universe.funds.map((f) => [f.run, f]))
    const sums = new Map<string, number>()
    for (const { name, records } of files) {
      for (const r of records) {
        const fund = byRun.get(r.run)
        expect(fund, `${name}: RUN ${r.run}`).toBeDefined()
        expect(r.month).toBe(`${name.slice(9, 13)}-${name.slice(13, 15)}`)
        expect(r.market).toBe(name.startsWith("ffm_NACI_") ? "N" : "E")
        expect(r.market === "N" ? r.issuerRut !== null && r.issuerName === null : r.issuerName !== null).toBe(true)
        expect(r.valuationThousands).toBeGreaterThan(0)
        sums.set(`${r.month}|${r.run}`, (sums.get(`${r.month}|${r.run}`) ?? 0) + r.fundAssetsPercent)
      }
    }
    for (const [key, sum] of sums) {
      // 2026-06 has no EXTR rows (below): only there a fund's sum is its national part.
      if (key.startsWith("2026-06|")) continue
      expect(sum, key).toBeGreaterThan(95)
      expect(sum, key).toBeLessThan(100.1)
    }
    // Fund 5 reports nothing for 2026-08 (the third-newest month) and reports in the others.
    const run5 = fundOf(5).run
    expect(sums.has(`2026-08|${run5}`)).toBe(false)
    expect(sums.has(`2026-07|${run5}`) && sums.has(`2026-09|${run5}`)).toBe(true)
    // The fifth-newest EXTR file (2026-06) is CMF's "Sin información".
    expect(parsed.get("ffm_EXTR_202606.txt")).toEqual({ source: "fm_portfolio", records: [], repairs: { sinInformacionFiles: 1 } })
    expect(files.find((f) => f.name === "ffm_EXTR_202607.txt")!.records.length).toBeGreaterThan(0)
  })

  it("has article 107 texts covering the three outcomes and a series exception", () => {
    const byRun = new Map(of<{ run: number; status: string; seriesException: Array<string>; evidence: Array<unknown> }>("art107_").map((f) => [f.records[0]!.run, { ...f.records[0]!, repairs: f.repairs }]))
    expect(byRun.get(fundOf(0).run)).toMatchObject({ status: "declares_eligible", seriesException: ["APV"] })
    expect(byRun.get(fundOf(5).run)).toMatchObject({ status: "declares_eligible", seriesException: [] })
    expect(byRun.get(fundOf(6).run)!.status).toBe("declares_eligible")
    // Fund 2's file is UTF-8: its accented lines arrive as mojibake.
    expect(byRun.get(fundOf(2).run)).toMatchObject({ status: "declares_not_eligible", seriesException: [] })
    expect(byRun.get(fundOf(2).run)!.repairs.mojibakeRepaired).toBeGreaterThan(0)
    expect(byRun.get(fundOf(3).run)).toMatchObject({ status: "unknown", evidence: [expect.anything()] })
    expect(byRun.get(fundOf(4).run)).toMatchObject({ status: "unknown", evidence: [] })
  })

  it("lists fund 0's rename B → BPRIV from 2024-03-01, and not the absorbed series", () => {
    expect(parsed.get("series_renames.txt")!.records).toEqual([
      { line: 2, run: fundOf(0).run, oldSerie: "B", newSerie: "BPRIV", firstDate: "2024-03-01" }
    ])
  })
})
