/**
 * The snapshot format: writer → reader round trip, content hash, naming, immutability of a
 * published file, manifest and CURRENT pointer. Expected values come from the fixture's own data.
 */

import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterEach, describe, expect, it } from "vitest"
import { contentHash } from "../../snapshots/ContentHash.ts"
import { manifestPath, readManifest, writeManifest } from "../../snapshots/Manifest.ts"
import { CURRENT, isSnapshotFileName, publishCurrent, readCurrent } from "../../snapshots/Pointer.ts"
import { SnapshotReader } from "../../snapshots/Reader.ts"
import type { QuotasTable } from "../../snapshots/Tables.ts"
import { FORMAT_VERSION, TABLES } from "../../snapshots/Tables.ts"
import { SnapshotWriter } from "../../snapshots/Writer.ts"
import {
  type FixtureData,
  type FixtureDir,
  fixtureA,
  fixtureB,
  fixtureDateInt,
  fixtureRows,
  makeDataDir,
  manifestFor,
  testCrc32,
  writeSnapshotFile,
} from "../support/snapshotFixture.ts"

const dirs: FixtureDir[] = []
const freshDir = (): string => {
  const d = makeDataDir()
  dirs.push(d)
  return d.snapshotsDir
}
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup()
})

const onlyFiles = (dir: string): string[] => readdirSync(dir).sort()

describe("SnapshotWriter → SnapshotReader round trip", () => {
  it("reads back exactly the rows the fixture wrote", () => {
    const dir = freshDir()
    const data = fixtureA()
    const finished = writeSnapshotFile(dir, data)
    const reader = new SnapshotReader(finished.path)
    try {
      expect(reader.batchDate).toBe(data.batchDate)
      expect(reader.formatVersion).toBe(FORMAT_VERSION)

      // administrators
      const providers = reader.providers()
      expect(providers.map((p) => [p.provider_id, p.rut, p.name]).sort()).toEqual(
        data.administrators.map((a) => [a.providerId, a.rut, a.name]).sort(),
      )
      const alfa = data.administrators[0]!
      expect(reader.provider(alfa.providerId)).toEqual({ provider_id: alfa.providerId, rut: alfa.rut, name: alfa.name })
      expect(reader.provider(12345)).toBeUndefined()

      // funds: only current funds of a provider; the terminated one still readable by id
      const alfaFunds = data.funds.filter((f) => f.providerRut === alfa.rut)
      expect(reader.currentFundsOf(alfa.providerId, 10).map((f) => f.run)).toEqual(
        alfaFunds.filter((f) => f.isCurrent).map((f) => f.run),
      )
      const ended = data.funds.find((f) => !f.isCurrent)!
      const endedRow = reader.fund(ended.conceptId)
      expect(endedRow?.end_date).toBe(ended.endDate)
      expect(endedRow?.is_current).toBe(0)
      expect(endedRow?.name).toBe(ended.name)

      // series and quotas
      for (const f of data.funds) {
        expect(
          reader
            .seriesOf(f.conceptId)
            .map((s) => s.serie)
            .sort(),
        ).toEqual(f.series.map((s) => s.serie).sort())
        for (const s of f.series) {
          const row = reader.series(s.assetId)
          expect(row?.run).toBe(s.run)
          expect(row?.first_date).toBe(fixtureDateInt(s.quotas[0]!.date))
          expect(row?.last_date).toBe(fixtureDateInt(s.quotas[s.quotas.length - 1]!.date))
          const last = s.quotas[s.quotas.length - 1]!
          expect(reader.lastQuota(s.assetId)).toEqual({
            date: fixtureDateInt(last.date),
            price: last.price,
            patrimony: last.patrimony,
            holders: last.holders,
            provisional: 0, // the fixture's quotas are all the cartola's
          })
          expect(reader.daysFrom(s.assetId, 0)).toEqual(s.quotas.map((q) => [fixtureDateInt(q.date), q.price]))
        }
      }

      // daysFrom is inclusive and ascending
      const a = data.funds[0]!.series[0]!
      const from = a.quotas[2]!.date
      expect(reader.daysFrom(a.assetId, fixtureDateInt(from))).toEqual(
        a.quotas.slice(2).map((q) => [fixtureDateInt(q.date), q.price]),
      )

      const rows = fixtureRows(data)
      const expectedCounts = {
        meta: 2, // format_version and batch_date
        administrators: rows.administrators.length,
        funds: rows.funds.length,
        series: rows.series.length,
        quotas: rows.quotas.length,
      }
      // The fixture fills only the core tables; every other table of the format is present and empty.
      const others = TABLES.map((t) => t.name).filter((n) => !(n in expectedCounts))
      expect(finished.rowCounts).toEqual({ ...expectedCounts, ...Object.fromEntries(others.map((n) => [n, 0])) })
      expect(reader.totalRecords()).toBe(
        expectedCounts.administrators + expectedCounts.funds + expectedCounts.series + expectedCounts.quotas,
      )
    } finally {
      reader.close()
    }
  })

  it("round-trips quota rows through the multi-row insert path (more than one batch of 100)", () => {
    const dir = freshDir()
    const data = fixtureA()
    const rows = fixtureRows(data)
    const assetId = testCrc32("fm:8043:A")
    // 257 consecutive integer dates are enough to cross two full batches plus a tail; the values are
    // a formula chosen here: price 1000 + i/8, patrimony i*1000 (null every 7th), holders i (null every 5th).
    const quotas: QuotasTable[] = Array.from({ length: 257 }, (_, i) => ({
      asset_id: assetId,
      date: 20250101 + i,
      price: 1000 + i / 8,
      patrimony: i % 7 === 0 ? null : i * 1000,
      holders: i % 5 === 0 ? null : i,
      factor_ajuste: i === 3 ? 1.5 : null,
      factor_reparto: i === 4 ? 0.25 : null,
    }))
    const writer = new SnapshotWriter(dir)
    writer.insertAdministrators(rows.administrators)
    writer.insertFunds(rows.funds)
    writer.insertSeries(rows.series)
    writer.insertQuotas(quotas)
    const finished = writer.finish("2025-12-31")
    expect(finished.rowCounts.quotas).toBe(257)
    const db = new Database(finished.path, { readonly: true })
    try {
      const back = db.prepare("SELECT * FROM quotas ORDER BY asset_id, date").all()
      // units absent from a row are stored as null
      expect(back).toEqual(quotas.map((q) => ({ units_subscribed: null, units_redeemed: null, ...q })))
    } finally {
      db.close()
    }
  })

  it("refuses a snapshot whose format version is not the reader's", () => {
    const dir = freshDir()
    const finished = writeSnapshotFile(dir, fixtureA(), { extraMeta: { format_version: String(FORMAT_VERSION + 1) } })
    expect(() => new SnapshotReader(finished.path)).toThrow(/format/)
  })

  it("cannot finish twice, and abort leaves no temporary file", () => {
    const dir = freshDir()
    const writer = new SnapshotWriter(dir)
    expect(existsSync(writer.tmpPath)).toBe(true)
    writer.abort()
    expect(existsSync(writer.tmpPath)).toBe(false)
    expect(onlyFiles(dir)).toEqual([])

    const w2 = new SnapshotWriter(dir)
    w2.finish("2026-01-05")
    expect(() => w2.finish("2026-01-05")).toThrow()
  })
})

describe("content hash and file name", () => {
  /**
   * The documented canonical dump (snapshots/ContentHash.ts): SHA-256 over "<name> <digest>\n" per
   * table in TABLES order; a table's digest is SHA-256 over its rows in primary-key order, each a
   * JSON array of its columns in DDL order on its own line — except quotas, whose rows are seven
   * little-endian float64 each (NULL as NaN), hashed per calendar month, the table's digest taken
   * over "<YYYYMM> <month digest>" lines. Built here from the fixture's own values with a
   * DataView, not from the database nor the project's digest code.
   */
  const expectedHash = (data: FixtureData): string => {
    const rows = fixtureRows(data)
    const h = createHash("sha256")
    const table = (name: string, lines: unknown[][]) => {
      const t = createHash("sha256")
      if (name === "quotas") {
        // cut by calendar month (YYYYMM of the date), months ascending: "<YYYYMM> <month digest>\n"
        const months = [...new Set(lines.map((l) => Math.floor((l[1] as number) / 100)))].sort((a, b) => a - b)
        for (const month of months) {
          const rowsOfMonth = lines.filter((l) => Math.floor((l[1] as number) / 100) === month)
          const bytes = new DataView(new ArrayBuffer(rowsOfMonth.length * 72))
          for (const [i, l] of rowsOfMonth.entries()) {
            for (const [j, v] of l.entries()) bytes.setFloat64(i * 72 + j * 8, v === null ? Number.NaN : (v as number), true)
          }
          t.update(`${month} ${createHash("sha256").update(new Uint8Array(bytes.buffer)).digest("hex")}\n`)
        }
      } else {
        for (const l of lines) t.update(JSON.stringify(l) + "\n")
      }
      h.update(`${name} ${t.digest("hex")}\n`)
    }
    table("meta", [
      ["batch_date", data.batchDate],
      ["format_version", String(FORMAT_VERSION)],
    ])
    table(
      "administrators",
      [...rows.administrators].sort((a, b) => a.provider_id - b.provider_id).map((a) => [a.provider_id, a.rut, a.name]),
    )
    table(
      "funds",
      [...rows.funds]
        .sort((a, b) => a.concept_id - b.concept_id)
        .map((f) => [
          f.concept_id,
          f.run,
          f.provider_id,
          f.name,
          f.short_name,
          f.fund_type,
          f.currency,
          f.start_date,
          f.end_date,
          f.is_current,
        ]),
    )
    table(
      "series",
      [...rows.series]
        .sort((a, b) => a.asset_id - b.asset_id)
        .map((s) => [s.asset_id, s.concept_id, s.run, s.serie, s.currency, s.first_date, s.last_date]),
    )
    table(
      "quotas",
      [...rows.quotas]
        .sort((a, b) => a.asset_id - b.asset_id || a.date - b.date)
        .map((q) => [q.asset_id, q.date, q.price, q.patrimony, q.holders, q.factor_ajuste, q.factor_reparto, q.units_subscribed ?? null, q.units_redeemed ?? null]),
    )
    // The remaining tables of the format, empty in this fixture: just their names, in TABLES order.
    for (const t of TABLES.slice(5)) table(t.name, [])
    return h.digest("hex")
  }

  it("is the SHA-256 of the canonical dump, and the file is named <date>-<first 16 hex>.sqlite", () => {
    const dir = freshDir()
    const data = fixtureA()
    const finished = writeSnapshotFile(dir, data)
    const hash = expectedHash(data)
    expect(finished.contentHash).toBe(hash)
    expect(finished.file).toBe(`${data.batchDate}-${hash.slice(0, 16)}.sqlite`)
    expect(finished.path).toBe(join(dir, finished.file))
    expect(isSnapshotFileName(finished.file)).toBe(true)
    expect(finished.created).toBe(true)
  })

  it("same content built twice into two folders → same name and same hash", () => {
    const one = writeSnapshotFile(freshDir(), fixtureA())
    const two = writeSnapshotFile(freshDir(), fixtureA())
    expect(two.file).toBe(one.file)
    expect(two.contentHash).toBe(one.contentHash)
    expect(two.created).toBe(true)
  })

  it("the quotas digest taken while inserting equals the one read back from the file", () => {
    const sorted = writeSnapshotFile(freshDir(), fixtureA())
    const db = new Database(sorted.path, { readonly: true })
    try {
      expect(contentHash(db)).toBe(sorted.contentHash)
    } finally {
      db.close()
    }
  })

  it("is the same whether the hash runs in a worker thread beside the check or in this thread", () => {
    for (const reverse of [false, true]) {
      const here = writeSnapshotFile(freshDir(), fixtureA(), { reverse, hashBeside: false })
      const worker = writeSnapshotFile(freshDir(), fixtureA(), { reverse, hashBeside: true })
      expect(worker.contentHash).toBe(here.contentHash)
      expect(worker.rowCounts).toEqual(here.rowCounts)
      expect(worker.contentHash).toBe(expectedHash(fixtureA()))
    }
  })

  it("cuts fi_prices by calendar month: its digest is over '<YYYYMM> <month digest>' lines, each month's JSON lines in key order", () => {
    const dir = freshDir()
    const writer = new SnapshotWriter(dir)
    // two series, rows over two months, inserted out of key order
    const row = (serie: string, date: number, bookValue: number, holders: number | null) => ({
      serie_id: serie,
      date,
      book_value: bookValue,
      economic_value: null,
      patrimony: 1000.5,
      total_assets: null,
      holders,
      institutional_holders: null,
    })
    const rows = [
      row("bbbbbbbb-0000-5000-8000-000000000000", 20261102, 10.25, 3),
      row("aaaaaaaa-0000-5000-8000-000000000000", 20261030, 1.5, null),
      row("aaaaaaaa-0000-5000-8000-000000000000", 20261102, 1.75, 7),
      row("bbbbbbbb-0000-5000-8000-000000000000", 20261029, 10, 2),
    ]
    writer.insertRows("fi_prices", rows)
    const finished = writer.finish("2026-11-02")
    const line = (r: (typeof rows)[number]) =>
      `${JSON.stringify([r.serie_id, r.date, r.book_value, r.economic_value, r.patrimony, r.total_assets, r.holders, r.institutional_holders])}\n`
    const month = (m: number) =>
      createHash("sha256")
        .update(
          rows
            .filter((r) => Math.floor(r.date / 100) === m)
            .sort((a, b) => (a.serie_id < b.serie_id ? -1 : a.serie_id > b.serie_id ? 1 : a.date - b.date))
            .map(line)
            .join(""),
        )
        .digest("hex")
    const expected = createHash("sha256").update(`202610 ${month(202610)}\n202611 ${month(202611)}\n`).digest("hex")
    expect(finished.digests.tableMonths.fi_prices).toEqual({ "202610": month(202610), "202611": month(202611) })
    expect(finished.digests.tables.fi_prices).toBe(expected)
    const db = new Database(finished.path, { readonly: true })
    try {
      expect(contentHash(db)).toBe(finished.contentHash)
    } finally {
      db.close()
    }
  })

  it("does not depend on insertion order", () => {
    const sorted = writeSnapshotFile(freshDir(), fixtureA())
    const reversed = writeSnapshotFile(freshDir(), fixtureA(), { reverse: true })
    expect(reversed.contentHash).toBe(sorted.contentHash)
    expect(reversed.file).toBe(sorted.file)
  })

  it("different content → different hash and name", () => {
    const a = writeSnapshotFile(freshDir(), fixtureA())
    const b = writeSnapshotFile(freshDir(), fixtureB())
    expect(b.contentHash).not.toBe(a.contentHash)
    expect(b.contentHash).toBe(expectedHash(fixtureB()))

    // one price changed, same batch date: the name still differs (hash part)
    const base = fixtureA()
    const f0 = base.funds[0]!
    const s0 = f0.series[0]!
    const changed: FixtureData = {
      ...base,
      funds: [
        { ...f0, series: [{ ...s0, quotas: s0.quotas.map((q, i) => (i === 1 ? { ...q, price: q.price + 0.0001 } : q)) }, ...f0.series.slice(1)] },
        ...base.funds.slice(1),
      ],
    }
    const c = writeSnapshotFile(freshDir(), changed)
    expect(c.contentHash).not.toBe(a.contentHash)
    expect(c.file).not.toBe(a.file)
    expect(c.file.startsWith(`${base.batchDate}-`)).toBe(true)
  })

  it("the same data under another batch date hashes differently (batch_date is in meta)", () => {
    const a = writeSnapshotFile(freshDir(), fixtureA())
    const moved = writeSnapshotFile(freshDir(), { ...fixtureA(), batchDate: "2026-02-07" })
    expect(moved.contentHash).not.toBe(a.contentHash)
  })
})

describe("the finished file", () => {
  it("passes integrity_check, is packed, and no temporary file is left behind", () => {
    const dir = freshDir()
    const finished = writeSnapshotFile(dir, fixtureA())
    expect(onlyFiles(dir)).toEqual([finished.file])
    const db = new Database(finished.path, { readonly: true })
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok")
      expect(db.pragma("freelist_count", { simple: true })).toBe(0)
      expect(db.pragma("journal_mode", { simple: true })).not.toBe("wal")
    } finally {
      db.close()
    }
  })

  it("is never rewritten: finishing identical content again returns created:false and keeps the file", async () => {
    const dir = freshDir()
    const first = writeSnapshotFile(dir, fixtureA())
    expect(first.created).toBe(true)
    const before = statSync(first.path, { bigint: true })
    const bytesBefore = readFileSync(first.path)
    await new Promise((r) => setTimeout(r, 20)) // so that a rewrite would move mtime

    const again = writeSnapshotFile(dir, fixtureA(), { reverse: true })
    expect(again.created).toBe(false)
    expect(again.file).toBe(first.file)
    expect(again.contentHash).toBe(first.contentHash)
    const after = statSync(first.path, { bigint: true })
    expect(after.ino).toBe(before.ino)
    expect(after.mtimeNs).toBe(before.mtimeNs)
    expect(readFileSync(first.path).equals(bytesBefore)).toBe(true)
    expect(onlyFiles(dir)).toEqual([first.file])
  })

  it("a different snapshot of the same date is a new file next to the old one", () => {
    const dir = freshDir()
    const a = writeSnapshotFile(dir, fixtureA())
    const other = writeSnapshotFile(dir, { ...fixtureA(), administrators: fixtureA().administrators.map((x) => ({ ...x, name: x.name + " (renamed)" })) })
    expect(other.created).toBe(true)
    expect(other.file).not.toBe(a.file)
    expect(onlyFiles(dir)).toEqual([a.file, other.file].sort())
  })
})

describe("manifest", () => {
  it("is written next to the snapshot and reads back equal", () => {
    const dir = freshDir()
    const finished = writeSnapshotFile(dir, fixtureA())
    const manifest = manifestFor(finished, "2026-02-06")
    const path = writeManifest(dir, manifest)
    expect(path).toBe(join(dir, finished.file.replace(/\.sqlite$/, ".manifest.json")))
    expect(manifestPath(dir, finished.file)).toBe(path)
    expect(readManifest(dir, finished.file)).toEqual(manifest)
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(manifest)
    expect(onlyFiles(dir).filter((f) => f.endsWith(".tmp"))).toEqual([])
  })
})

describe("CURRENT pointer", () => {
  it("reads null before anything is published, then the published name", () => {
    const dir = freshDir()
    expect(readCurrent(dir)).toBeNull()
    const a = writeSnapshotFile(dir, fixtureA())
    publishCurrent(dir, a.file)
    expect(readCurrent(dir)).toBe(a.file)
    expect(readFileSync(join(dir, CURRENT), "utf8").trim()).toBe(a.file)

    const b = writeSnapshotFile(dir, fixtureB())
    publishCurrent(dir, b.file)
    expect(readCurrent(dir)).toBe(b.file)
    // publishing leaves no temporary pointer file
    expect(onlyFiles(dir).filter((f) => f.startsWith("CURRENT"))).toEqual([CURRENT])
  })

  it("refuses to publish a name that is not a snapshot, or a file that does not exist", () => {
    const dir = freshDir()
    expect(() => publishCurrent(dir, "../../etc/passwd")).toThrow()
    expect(() => publishCurrent(dir, "2026-02-06-0123456789abcdef.sqlite")).toThrow()
    expect(existsSync(join(dir, CURRENT))).toBe(false)
  })

  it("a non-snapshot name in CURRENT reads as null", () => {
    const dir = freshDir()
    for (const content of [
      "../accounts.sqlite\n",
      "garbage",
      "",
      "2026-02-06-0123456789ABCDEF.sqlite\n", // upper-case hex is not a name the writer makes
      "2026-02-06-0123456789abcdef.sqlite.tmp\n",
      "sub/2026-02-06-0123456789abcdef.sqlite\n",
    ]) {
      writeFileSync(join(dir, CURRENT), content)
      expect(readCurrent(dir), JSON.stringify(content)).toBeNull()
    }
  })

  it("isSnapshotFileName accepts exactly <YYYY-MM-DD>-<16 lower hex>.sqlite", () => {
    expect(isSnapshotFileName("2026-02-06-0123456789abcdef.sqlite")).toBe(true)
    expect(isSnapshotFileName("2026-02-06-0123456789abcde.sqlite")).toBe(false)
    expect(isSnapshotFileName("2026-02-06-0123456789abcdef.manifest.json")).toBe(false)
    expect(isSnapshotFileName("x2026-02-06-0123456789abcdef.sqlite")).toBe(false)
  })
})
