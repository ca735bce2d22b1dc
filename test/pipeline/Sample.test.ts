import { createHash } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FmRegistryRecord } from "../../pipeline/datasets/fm/FmRegistry.ts"
import type { CartolaRecord } from "../../pipeline/datasets/fm/Cartola.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { parseCartola } from "../../pipeline/datasets/fm/Cartola.ts"
import { detect } from "../../pipeline/datasets/Registry.ts"

const detectDataSet = (bytes: Uint8Array) => detect(bytes)?.name ?? null
import { parseFmRegistry } from "../../pipeline/datasets/fm/FmRegistry.ts"

const END = "2026-11-20"
const HOLIDAYS = new Set(["01-01", "05-01", "05-21", "06-29", "08-15", "09-18", "09-19", "10-12", "10-31", "11-01", "12-08", "12-25"])
const weekday = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay()

const work = mkdtempSync(join(tmpdir(), "fds-sample-test-"))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const folderHash = (dir: string): string => {
  const hash = createHash("sha256")
  for (const name of readdirSync(dir).sort()) hash.update(name).update("\0").update(readFileSync(join(dir, name)))
  return hash.digest("hex")
}

describe("writeSample: determinism", () => {
  it("writes byte-identical files for the same options, different ones for another seed", async () => {
    const a = join(work, "a")
    const b = join(work, "b")
    const c = join(work, "c")
    const started = performance.now()
    await writeSample({ out: a, scale: "small", seed: 7, endDate: END })
    console.log(`small sample generated in ${((performance.now() - started) / 1000).toFixed(2)} s`)
    await writeSample({ out: b, scale: "small", seed: 7, endDate: END })
    await writeSample({ out: c, scale: "small", seed: 8, endDate: END })
    expect(folderHash(a)).toBe(folderHash(b))
    expect(folderHash(c)).not.toBe(folderHash(a))
  })
})

describe("writeSample: the small sample parses back and looks like CMF's files", () => {
  const dir = join(work, "facts")
  let files: Array<string> = []
  let rows = 0
  let registry: Array<FmRegistryRecord> = []
  let registryRows = 0
  let registryDuplicates = 0
  const cartola: Array<{ file: string; records: Array<CartolaRecord> }> = []
  let duplicatesSkipped = 0

  beforeAll(async () => {
    const written = await writeSample({ out: dir, scale: "small", seed: 42, endDate: END })
    files = written.files.map((f) => basename(f))
    rows = written.rows
    const registryBytes = readFileSync(join(dir, "fm_ident2.txt"))
    registryRows = registryBytes.toString("latin1").trimEnd().split("\n").length - 1
    const parsed = await Effect.runPromise(parseFmRegistry(registryBytes, "fm_ident2.txt"))
    registry = parsed.records
    registryDuplicates = parsed.duplicatesSkipped
    const started = performance.now()
    let parsedRows = 0
    for (const name of files.filter((f) => f.startsWith("ffmm_todos_"))) {
      const p = await Effect.runPromise(parseCartola(readFileSync(join(dir, name)), name))
      cartola.push({ file: name, records: p.records })
      duplicatesSkipped += p.duplicatesSkipped
      parsedRows += p.records.length + p.duplicatesSkipped
    }
    const seconds = (performance.now() - started) / 1000
    console.log(`parsed ${parsedRows} cartola rows in ${seconds.toFixed(2)} s: ${Math.round(parsedRows / seconds)} rows/s`)
  }, 120_000)

  const allRows = () => cartola.flatMap((c) => c.records)

  it("names the files as CMF does: fm_ident2.txt and one cartola per calendar month up to the end date", () => {
    expect(files[0]).toBe("fm_ident2.txt")
    // The extra groups (FI, market, ...) follow the cartolas; only the monthly cartolas are counted here.
    const months = files.slice(1).filter((f) => f.startsWith("ffmm_todos_"))
    // January 2019 to November 2026: 7 whole years and 11 months.
    expect(months).toHaveLength(7 * 12 + 11)
    expect(months[0]).toBe("ffmm_todos_20190101_20190131.txt")
    expect(months[1]).toBe("ffmm_todos_20190201_20190228.txt")
    expect(months).toContain("ffmm_todos_20240201_20240229.txt")
    expect(months.at(-1)).toBe("ffmm_todos_20261101_20261120.txt")
    expect(new Set(readdirSync(dir))).toEqual(new Set(files))
  })

  it("is recognised by content", () => {
    expect(detectDataSet(readFileSync(join(dir, files[0]!)))).toBe("fm_registry")
    expect(detectDataSet(readFileSync(join(dir, files[1]!)))).toBe("cartola_diaria")
  })

  it("has a registry of at least 25 funds, each repeated 2 or 3 times, some terminated", () => {
    const runs = new Set(registry.map((r) => r.run))
    expect(runs.size).toBe(registry.length)
    expect(runs.size).toBeGreaterThanOrEqual(25)
    expect(registryRows).toBe(registry.length + registryDuplicates)
    expect(registryDuplicates).toBeGreaterThanOrEqual(registry.length)
    expect(registryDuplicates).toBeLessThanOrEqual(2 * registry.length)
    const terminated = registry.filter((r) => r.endDate !== null)
    expect(terminated.length).toBeGreaterThanOrEqual(2)
    expect(terminated.some((r) => r.endDate! < "2019-01-02")).toBe(true)
    expect(terminated.some((r) => r.endDate! > "2019-01-02")).toBe(true)
    expect(registry.some((r) => r.agfName.includes("Ñ"))).toBe(true)
    expect(registry.some((r) => r.agfName.includes("Í"))).toBe(true)
  })

  it("has rows only on business days, inside each file's range, date-major", () => {
    const problems: Array<string> = []
    for (const { file, records } of cartola) {
      const [, from, to] = /^ffmm_todos_(\d{8})_(\d{8})\.txt$/.exec(file)!
      let previous = ""
      for (const r of records) {
        const ymd = r.date.replaceAll("-", "")
        if (ymd < from! || ymd > to!) problems.push(`${file} line ${r.line}: ${r.date} outside the file's range`)
        if (weekday(r.date) === 0 || weekday(r.date) === 6) problems.push(`${file} line ${r.line}: weekend ${r.date}`)
        if (HOLIDAYS.has(r.date.slice(5))) problems.push(`${file} line ${r.line}: holiday ${r.date}`)
        if (r.date < previous) problems.push(`${file} line ${r.line}: ${r.date} after ${previous}`)
        previous = r.date
      }
    }
    expect(problems).toEqual([])
  })

  it("has about 100 series of 5 administrators, ~100k+ rows, USD and EUR funds, mostly CLP", () => {
    const all = allRows()
    expect(all.length + duplicatesSkipped).toBe(rows)
    expect(all.length).toBeGreaterThan(50_000)
    expect(all.length).toBeLessThan(220_000)
    const series = new Set(all.map((r) => `${r.run}|${r.serie}`))
    expect(series.size).toBeGreaterThan(60)
    expect(series.size).toBeLessThan(140)
    expect(new Set(all.map((r) => r.agfRut)).size).toBe(5)
    const currencies = new Set(all.map((r) => r.currencyCode))
    expect(currencies).toEqual(new Set(["$$", "PROM", "EUR"]))
    expect(all.filter((r) => r.currencyCode === "$$").length).toBeGreaterThan(all.length / 2)
    const usdFunds = new Set(registry.filter((r) => r.currencyCode === "PROM").map((r) => r.run))
    expect(usdFunds.size).toBeGreaterThanOrEqual(2)
    expect(registry.some((r) => r.currencyCode === "EUR")).toBe(true)
  })

  it("repeats some rows verbatim, which the parser skips", () => {
    expect(duplicatesSkipped).toBeGreaterThan(0)
  })

  it("agrees with the registry: funds, administrator names (mojibake repaired), operation dates", () => {
    const byRun = new Map(registry.map((r) => [r.run, r]))
    const firstDate = new Map<number, string>()
    const lastDate = new Map<number, string>()
    const mismatches: Array<string> = []
    for (const r of allRows()) {
      const fund = byRun.get(r.run)
      if (fund === undefined) mismatches.push(`RUN ${r.run} is not in the registry`)
      else if (r.agfRut !== fund.agfRut || r.agfName !== fund.agfName || r.currencyCode !== fund.currencyCode) {
        mismatches.push(`line ${r.line} of RUN ${r.run}: ${r.agfRut} ${r.agfName} ${r.currencyCode}`)
      }
      if (!firstDate.has(r.run)) firstDate.set(r.run, r.date)
      lastDate.set(r.run, r.date)
    }
    expect(mismatches).toEqual([])
    for (const [run, first] of firstDate) expect(first >= byRun.get(run)!.startDate!).toBe(true)
    const endedInHistory = registry.filter((r) => r.endDate !== null && r.endDate > "2019-01-02")
    expect(endedInHistory.length).toBeGreaterThan(0)
    // A terminated fund's history stops on its Fecha Término (a business day in the sample).
    for (const fund of endedInHistory) expect(lastDate.get(fund.run)).toBe(fund.endDate)
    // The administrator written as UTF-8 in the cartola really is mojibake in the raw bytes (Ñ = C3 91).
    const raw = readFileSync(join(dir, files[1]!))
    expect(raw.includes(Buffer.from([0xc3, 0x91]))).toBe(true)
  })

  it("has younger series that start after their fund", () => {
    const fundFirst = new Map<number, string>()
    const seriesFirst = new Map<string, string>()
    for (const r of allRows()) {
      if (!fundFirst.has(r.run)) fundFirst.set(r.run, r.date)
      const key = `${r.run}|${r.serie}`
      if (!seriesFirst.has(key)) seriesFirst.set(key, r.date)
    }
    const younger = [...seriesFirst].filter(([key, first]) => first > fundFirst.get(Number(key.split("|")[0]))!)
    expect(younger.length).toBeGreaterThan(0)
  })

  it("pays distributions: FACTOR DE REPARTO > 1 and the quota drops by about that factor", () => {
    const previous = new Map<string, CartolaRecord>()
    let distributions = 0
    let factorAjuste = 0
    for (const r of allRows()) {
      const key = `${r.run}|${r.serie}`
      const before = previous.get(key)
      if (r.factorAjuste !== null) factorAjuste++
      if (r.factorReparto !== null && before !== undefined) {
        distributions++
        expect(r.factorReparto).toBeGreaterThan(1)
        expect(r.price).toBeLessThan(before.price)
        // Without the distribution the quota would have moved by a normal day's return (< 1%).
        expect(Math.abs((r.price * r.factorReparto) / before.price - 1)).toBeLessThan(0.01)
      }
      previous.set(key, r)
    }
    expect(distributions).toBeGreaterThan(0)
    // FACTOR DE AJUSTE is blank on normal days, and the sample has no adjustment days.
    expect(factorAjuste).toBe(0)
  })

  it("parses a 65k-row month-sized file (time logged, not asserted)", async () => {
    const lines: Array<string> = []
    let header = ""
    for (const name of files.slice(1)) {
      const text = readFileSync(join(dir, name)).toString("latin1").trimEnd().split("\n")
      header = text[0]!
      lines.push(...text.slice(1))
      if (lines.length >= 65_000) break
    }
    const bytes = new Uint8Array(Buffer.from([header, ...lines.slice(0, 65_000)].join("\n") + "\n", "latin1"))
    const started = performance.now()
    const parsed = await Effect.runPromise(parseCartola(bytes, "month-sized.txt"))
    const seconds = (performance.now() - started) / 1000
    console.log(`65,000-row file parsed in ${seconds.toFixed(2)} s: ${Math.round(65_000 / seconds)} rows/s`)
    expect(parsed.records.length + parsed.duplicatesSkipped).toBe(65_000)
  })
})
