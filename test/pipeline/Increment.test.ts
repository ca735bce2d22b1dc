/**
 * The daily increment (pipeline/Increment.ts) against the cold build: each day is built from the
 * previous published snapshot, and `pipeline reproduce` (which builds from nothing, from the
 * ledger and the raw store alone) must give the same content hash. The days bring a new month's
 * file, a restated past value (the month's file replaced), a renamed series (a whole-history
 * change: a cold build, with its reason), provisional values of the daily BPR report (one of them
 * implausible against the value before the increment), the month's file that replaces them, an FI
 * book-value page restated (the FI part staged again while the other steps' tables are kept), and
 * plain days around them. The FI pages end on 2026-10-27, so that every later day stages all their
 * rows and can keep the FI tables when their files did not change.
 */

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { reproduceLive } from "../../pipeline/Reproduce.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"
import { fiSeriesId } from "../../schemas/Ids.ts"
import { contentHash } from "../../snapshots/ContentHash.ts"
import { type Manifest, readManifest } from "../../snapshots/Manifest.ts"
import { publishFolder } from "../support/publishFolder.ts"
import { bprDayWorkbook } from "../support/workbooks.ts"

let work: string
let full: string
let source: string
let dataDir: string

const snapshots = () => join(dataDir, "snapshots")

const runFor = async (date: string): Promise<{ file: string; manifest: Manifest }> => {
  const outcome = await publishFolder(dataDir, source, date, {
    historyStart: "2019-01-01",
    fetch: { timeoutMillis: 1000, retries: 0, retryBaseMillis: 1 },
    retentionDays: 30,
    coverageMin: 0,
  })
  // Bytes 18 and 19 of the header: 1 = rollback journal, as a cold build's VACUUM INTO writes it.
  // A file still marked WAL (2) cannot be opened read-only beside no -wal/-shm: the API refuses it.
  const header = readFileSync(join(snapshots(), outcome.file)).subarray(18, 20)
  expect([...header], `${outcome.file} is published as a rollback-journal file`).toEqual([1, 1])
  return { file: outcome.file, manifest: readManifest(snapshots(), outcome.file) }
}

/** The manifest's build without the steps it kept and the computations it continued (asserted on their own). */
const buildOf = (manifest: Manifest) => {
  if (manifest.build?.kind !== "increment") return manifest.build
  const { kept: _kept, computed_from: _computed, updated_from: _updated, ...rest } = manifest.build
  return rest
}
const updatedOf = (manifest: Manifest) => (manifest.build?.kind === "increment" ? manifest.build.updated_from : undefined)
const continuedOf = (manifest: Manifest) => (manifest.build?.kind === "increment" ? manifest.build.computed_from : undefined)

/** The computations that keep their rows before the increment's month. */
const INCREMENTAL = ["market_family_index", "market_agf_monthly", "market_flows"]
const keptOf = (manifest: Manifest): ReadonlyArray<string> => (manifest.build?.kind === "increment" ? (manifest.build.kept ?? []) : [])

/** The staging steps whose inputs the plain days do not change: their tables are kept. */
const UNCHANGED_STEPS = ["fm_tac", "fm_portfolio", "article107", "afm_categories", "cmf_spheres", "fi_registry", "fi_portfolio"]
const FI_TABLES = ["fi_instruments", "fi_series", "fi_prices", "fi_holdings", "fi_fact_sheets"]

/** The FI book value pages of 2026 (one per fund), `<tr>` a line each. */
const fiPages = (folder: string) => readdirSync(folder).filter((n) => /^fi_valores_\d+_2026\.html$/.test(n))
const FI_LAST_DAY = 20261027
const fiRowDate = (line: string): number | null => {
  const m = /^<tr><td>(\d\d)\/(\d\d)\/(\d{4})<\/td>/.exec(line)
  return m === null ? null : Number(`${m[3]}${m[2]}${m[1]}`)
}

const fiPrice = (file: string, serieId: string, date: number): number | undefined => {
  const db = new Database(join(snapshots(), file), { readonly: true })
  try {
    return db.prepare("SELECT book_value FROM fi_prices WHERE serie_id = ? AND date = ?").pluck().get(serieId, date) as number | undefined
  } finally {
    db.close()
  }
}

/**
 * The snapshots folder holds no leftover of a build (temporary files, -wal or -shm), and every
 * published file says rollback journal in its header (bytes 18 and 19: 1; 2 is WAL mode, whose
 * readers write -wal and -shm files beside it).
 */
const expectCleanFolder = () => {
  const names = readdirSync(snapshots())
  expect(names.filter((n) => /\.tmp|-wal$|-shm$/.test(n))).toEqual([])
  for (const name of names.filter((n) => n.endsWith(".sqlite"))) {
    expect([...readFileSync(join(snapshots(), name)).subarray(18, 20)]).toEqual([1, 1])
  }
}

const reproduced = (date: string) => Effect.runPromise(reproduceLive(dataDir, date, { restore: false }))

/** The content hash read back from every row of the file (no digest taken from a manifest). */
const hashOnDisk = (file: string): string => {
  const db = new Database(join(snapshots(), file), { readonly: true })
  try {
    return contentHash(db)
  } finally {
    db.close()
  }
}

const quota = (file: string, run: number, serie: string, date: number): number | undefined => {
  const db = new Database(join(snapshots(), file), { readonly: true })
  try {
    return db
      .prepare("SELECT q.price FROM quotas q JOIN series s ON s.asset_id = q.asset_id WHERE s.run = ? AND s.serie = ? AND q.date = ?")
      .pluck()
      .get(run, serie, date) as number | undefined
  } finally {
    db.close()
  }
}

const cartolaOf = (folder: string, month: string): string => {
  const name = readdirSync(folder).find((n) => n.startsWith(`ffmm_todos_${month}01_`))
  if (name === undefined) throw new Error(`no cartola of ${month} in the sample`)
  return name
}

/** A cartola line's fields (`;`, latin-1): RUN_FM is field 2, FECHA_INF 3, SERIE 8, VALOR_CUOTA 12. */
const FIELDS = { run: 2, date: 3, serie: 8, price: 12 } as const

/** November's file as the CMF gives it early in the month: its rows up to the 9th. */
const LAST_EARLY_NOVEMBER = 20261109

let october: string
let november: string
/** The value restated: its series, date, and old and new prices. */
let restated: { run: number; serie: string; date: number; old: number; price: number }
const days: Record<string, { file: string; manifest: Manifest }> = {}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-increment-"))
  full = join(work, "full")
  source = join(work, "source")
  dataDir = join(work, "data")
  await writeSample({ out: full, scale: "small", seed: 5, endDate: "2026-11-20" })
  october = cartolaOf(full, "202610")
  november = cartolaOf(full, "202611")
  // The source starts without November's file: it comes as a new month.
  mkdirSync(source)
  // Its daily values from 2024 on: every case here reaches back at most to October 2026 (a
  // whole-history change is a cold build either way), and the builds, cold and increments, take
  // about a quarter of the time they take over the sample's eight years.
  const kept = (name: string) => {
    const month = /^ffmm_todos_(\d{6})/u.exec(name)?.[1]
    return name !== november && (month === undefined || month >= "202401")
  }
  for (const name of readdirSync(full)) if (kept(name)) copyFileSync(join(full, name), join(source, name))
  // The FI pages as fetched on 2026-10-27: no row after it.
  for (const name of fiPages(source)) {
    const lines = readFileSync(join(source, name), "latin1").split("\n")
    writeFileSync(join(source, name), lines.filter((l) => (fiRowDate(l) ?? 0) <= FI_LAST_DAY).join("\n"), "latin1")
  }
}, 120_000)

const quotaSources = (file: string) => {
  const db = new Database(join(snapshots(), file), { readonly: true })
  try {
    return db.prepare("SELECT asset_id, rows, first_date, last_date, latest_from_source FROM quota_sources ORDER BY asset_id").all()
  } finally {
    db.close()
  }
}
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe("the daily increment gives the cold build's content hash", () => {
  it("a first build has no previous snapshot: from nothing", async () => {
    days["2026-10-28"] = await runFor("2026-10-28")
    expect(days["2026-10-28"].manifest.build).toEqual({ kind: "cold" })
    expect(days["2026-10-28"].manifest.quota_month_digests?.["202610"]).toMatch(/^[0-9a-f]{64}$/)
  }, 180_000)

  it("a plain next day is an increment from the day after the previous batch", async () => {
    const day = await runFor("2026-10-29")
    days["2026-10-29"] = day
    expect(buildOf(day.manifest)).toEqual({ kind: "increment", base: days["2026-10-28"]!.file, from: "2026-10-29" })
    // the steps whose files did not change are kept, with their tables' digests; the rest staged again
    expect([...keptOf(day.manifest)].sort()).toEqual([...UNCHANGED_STEPS].sort())
    for (const table of [...FI_TABLES, "tac", "fm_holdings"]) {
      expect(day.manifest.table_digests?.[table]).toBe(days["2026-10-28"]!.manifest.table_digests?.[table])
    }
    expect(day.manifest.staging?.fi_registry).toEqual(days["2026-10-28"]!.manifest.staging?.fi_registry)
    // the family indices and administrators' months before October are kept, October's computed again
    expect(continuedOf(day.manifest)).toEqual({ month: "2026-10", computations: INCREMENTAL })
    expect((await reproduced("2026-10-29")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)
    // the previous snapshot is untouched
    expect(hashOnDisk(days["2026-10-28"]!.file)).toBe(days["2026-10-28"]!.manifest.content_hash)
    expectCleanFolder()
  }, 240_000)

  it("a new month's file: an increment, with November's rows", async () => {
    const lines = readFileSync(join(full, november), "latin1").split("\n")
    const early = lines.filter((l, i) => i === 0 || (l !== "" && Number(l.split(";")[FIELDS.date]) <= LAST_EARLY_NOVEMBER))
    writeFileSync(join(source, november), `${early.join("\n")}\n`, "latin1")
    const day = await runFor("2026-11-04")
    days["2026-11-04"] = day
    expect(buildOf(day.manifest)).toEqual({ kind: "increment", base: days["2026-10-29"]!.file, from: "2026-10-30" })
    expect(day.manifest.row_counts.quotas).toBeGreaterThan(days["2026-10-29"]!.manifest.row_counts.quotas!)
    expect(Object.keys(day.manifest.quota_month_digests ?? {})).toContain("202611")
    expect((await reproduced("2026-11-04")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)
  }, 240_000)

  it("a restated past value (October's file replaced): merged again from the month's first day", async () => {
    const path = join(source, october)
    const lines = readFileSync(path, "latin1").split("\n")
    const at = lines.findIndex((l) => l.split(";")[FIELDS.date] === "20261015")
    const fields = lines[at]!.split(";")
    const old = Number(fields[FIELDS.price])
    const price = Math.round(old * 1.01 * 10_000) / 10_000
    fields[FIELDS.price] = price.toFixed(4)
    lines[at] = fields.join(";")
    writeFileSync(path, lines.join("\n"), "latin1")
    restated = { run: Number(fields[FIELDS.run]), serie: fields[FIELDS.serie]!.trim().toUpperCase(), date: 20261015, old, price }

    const day = await runFor("2026-11-05")
    days["2026-11-05"] = day
    expect(buildOf(day.manifest)).toEqual({ kind: "increment", base: days["2026-11-04"]!.file, from: "2026-10-01" })
    expect(continuedOf(day.manifest)).toEqual({ month: "2026-10", computations: INCREMENTAL })
    expect(quota(days["2026-11-04"]!.file, restated.run, restated.serie, restated.date)).toBe(restated.old)
    expect(quota(day.file, restated.run, restated.serie, restated.date)).toBe(restated.price)
    expect((await reproduced("2026-11-05")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)
  }, 240_000)

  it("a renamed series relabels the whole history: a cold build that says why, then increments again", async () => {
    const renames = join(source, "series_renames.txt")
    const text = readFileSync(renames, "latin1")
    writeFileSync(renames, `${text.trimEnd()}\n${restated.run};${restated.serie};${restated.serie}NEW;2026-11-06\n`, "latin1")
    const day = await runFor("2026-11-06")
    days["2026-11-06"] = day
    expect(day.manifest.build).toEqual({ kind: "cold", cold_reason: "the series_renames inputs changed" })
    // the renamed series' whole history is under its new label
    expect(quota(day.file, restated.run, `${restated.serie}NEW`, restated.date)).toBe(restated.price)
    expect(quota(day.file, restated.run, restated.serie, restated.date)).toBeUndefined()
    expect((await reproduced("2026-11-06")).outcome).toBe("match")

    const next = await runFor("2026-11-09")
    expect(buildOf(next.manifest)).toEqual({ kind: "increment", base: day.file, from: "2026-11-07" })
    expect(quota(next.file, restated.run, `${restated.serie}NEW`, restated.date)).toBe(restated.price)
    expect((await reproduced("2026-11-09")).outcome).toBe("match")
    expect(hashOnDisk(next.file)).toBe(next.manifest.content_hash)
    days["2026-11-09"] = next
  }, 360_000)

  it("provisional BPR days: merged in an increment, an implausible one judged against the value before it", async () => {
    // Three series of November 9th's cartola rows, reported provisionally on the 10th and 11th.
    const rows = readFileSync(join(source, november), "latin1")
      .split("\n")
      .slice(1)
      .map((l) => l.split(";"))
      .filter((f) => Number(f[FIELDS.date]) === LAST_EARLY_NOVEMBER)
      .filter((f) => !(Number(f[FIELDS.run]) === restated.run && f[FIELDS.serie]!.trim().toUpperCase() === restated.serie))
      .slice(0, 3)
    const record = (f: string[], factor: number) => ({
      fundName: "FONDO",
      run: Number(f[FIELDS.run]),
      fundType: 5,
      agfName: null,
      serie: f[FIELDS.serie]!.trim().toUpperCase(),
      currencyCode: "$$",
      patrimony: 1_000_000,
      holders: 10,
      price: Math.round(Number(f[FIELDS.price]) * factor * 10_000) / 10_000,
    })
    // the third series' value on the 10th is 3× the 9th's: left out, judged against the 9th (before the increment's `from`)
    writeFileSync(join(source, "bpr_20261110.xls"), bprDayWorkbook("2026-11-10", [record(rows[0]!, 1.001), record(rows[1]!, 0.999), record(rows[2]!, 3)]))
    writeFileSync(join(source, "bpr_20261111.xls"), bprDayWorkbook("2026-11-11", [record(rows[0]!, 1.002)]))
    const day = await runFor("2026-11-11")
    days["2026-11-11"] = day
    expect(buildOf(day.manifest)).toEqual({ kind: "increment", base: days["2026-11-09"]!.file, from: "2026-11-10" })
    expect(day.manifest.quota_sources).toEqual({ bpr_series: 2, bpr_rows: 3 })
    expect(day.manifest.repairs.provisional_rows_implausible).toBe(1)
    const serie = (f: string[]) => f[FIELDS.serie]!.trim().toUpperCase()
    expect(quota(day.file, Number(rows[0]![FIELDS.run]), serie(rows[0]!), 20261111)).toBe(record(rows[0]!, 1.002).price)
    expect(quota(day.file, Number(rows[2]![FIELDS.run]), serie(rows[2]!), 20261110)).toBeUndefined()
    expect((await reproduced("2026-11-11")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)
  }, 240_000)

  it("November's whole file replaces the early one and the provisional values: merged again from its first row", async () => {
    copyFileSync(join(full, november), join(source, november))
    const day = await runFor("2026-11-12")
    days["2026-11-12"] = day
    // from the replaced file's first row: Monday 2 November (the 1st is a Sunday, no row)
    expect(buildOf(day.manifest)).toEqual({ kind: "increment", base: days["2026-11-11"]!.file, from: "2026-11-02" })
    expect(quotaSources(days["2026-11-11"]!.file)).toHaveLength(2)
    expect(quotaSources(day.file)).toEqual([])
    expect((await reproduced("2026-11-12")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)
  }, 240_000)

  it("an FI book-value page restated: the FI part is staged again, the other steps' tables kept", async () => {
    const name = fiPages(source)[0]!
    const path = join(source, name)
    const lines = readFileSync(path, "latin1").split("\n")
    const at = lines.findIndex((l) => fiRowDate(l) === 20261015)
    const cells = /^<tr><td>[^<]*<\/td><td>([^<]*)<\/td><td>[^<]*<\/td><td>([^<]*)<\/td>/.exec(lines[at]!)!
    const serieId = fiSeriesId(Number(/^fi_valores_(\d+)_/.exec(name)![1]), cells[1]!)
    const old = Number(cells[2]!.replaceAll(".", "").replace(",", "."))
    lines[at] = lines[at]!.replace(`<td>${cells[2]}</td>`, "<td>12345,6789</td>")
    writeFileSync(path, lines.join("\n"), "latin1")

    const day = await runFor("2026-11-13")
    days["2026-11-13"] = day
    const before = days["2026-11-12"]!
    expect(buildOf(day.manifest)).toEqual({ kind: "increment", base: before.file, from: "2026-11-13" })
    expect(keptOf(day.manifest)).not.toContain("fi_registry")
    expect(keptOf(day.manifest)).toEqual(expect.arrayContaining(["fm_tac", "fm_portfolio", "afm_categories", "fi_portfolio"]))
    // the prices from the restated page's first day on are staged again, the earlier ones kept
    const firstRow = Math.min(...lines.map(fiRowDate).filter((d): d is number => d !== null))
    expect(updatedOf(day.manifest)).toEqual({ fi_prices: `${String(firstRow).slice(0, 4)}-${String(firstRow).slice(4, 6)}-${String(firstRow).slice(6)}` })
    expect(fiPrice(before.file, serieId, 20261015)).toBe(old)
    expect(fiPrice(day.file, serieId, 20261015)).toBe(12345.6789)
    expect(day.manifest.table_digests?.fi_prices).not.toBe(before.manifest.table_digests?.fi_prices)
    expect(day.manifest.table_digests?.tac).toBe(before.manifest.table_digests?.tac)
    expect((await reproduced("2026-11-13")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)
  }, 240_000)

  it("the next day keeps the FI part staged the day before", async () => {
    const day = await runFor("2026-11-16")
    expect(keptOf(day.manifest)).toContain("fi_registry")
    for (const table of FI_TABLES) expect(day.manifest.table_digests?.[table]).toBe(days["2026-11-13"]!.manifest.table_digests?.[table])
    expect((await reproduced("2026-11-16")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)
    expectCleanFolder()
  }, 240_000)

  it("a page fetched again with days after the batch date: staged from its first day, then from the day after each batch", async () => {
    // the page as the CMF gives it on the 20th: every day to the 20th
    const name = fiPages(source)[1]!
    copyFileSync(join(full, name), join(source, name))
    const first = Math.min(...readFileSync(join(source, name), "latin1").split("\n").map(fiRowDate).filter((d): d is number => d !== null))
    const day = await runFor("2026-11-17")
    expect(updatedOf(day.manifest)).toEqual({ fi_prices: `${String(first).slice(0, 4)}-${String(first).slice(4, 6)}-${String(first).slice(6)}` })
    expect(day.manifest.repairs.fi_prices_after_batch_date).toBeGreaterThan(0)
    expect((await reproduced("2026-11-17")).outcome).toBe("match")
    expect(hashOnDisk(day.file)).toBe(day.manifest.content_hash)

    // the same pages: the rows after the 17th come in from the 18th
    const next = await runFor("2026-11-18")
    expect(keptOf(next.manifest)).not.toContain("fi_registry")
    expect(updatedOf(next.manifest)).toEqual({ fi_prices: "2026-11-18" })
    expect(next.manifest.row_counts.fi_prices).toBeGreaterThan(day.manifest.row_counts.fi_prices!)
    expect(Object.keys(next.manifest.table_month_digests?.fi_prices ?? {})).toContain("202611")
    expect((await reproduced("2026-11-18")).outcome).toBe("match")
    expect(hashOnDisk(next.file)).toBe(next.manifest.content_hash)
    expectCleanFolder()
  }, 360_000)
})
