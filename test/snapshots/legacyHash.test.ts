/**
 * A batch built before pipeline 0.5 hashed its quotas table whole (SHA-256 over every row in
 * (asset_id, date) order, seven little-endian float64, NULL as NaN), not per month: after the
 * upgrade it keeps the hash its manifest and the ledger recorded, and the API's checks accept it.
 * The whole-table digest is worked out here, independently, from the rows. Likewise a batch built
 * by pipeline 0.5 (quotas per month, fi_prices hashed whole, before 0.6 cut it by month too).
 */
import { createHash } from "node:crypto"
import { readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, describe, expect, it } from "vitest"
import { verifySnapshot } from "../../api/snapshot/SnapshotVerification.ts"
import { TABLES } from "../../snapshots/Tables.ts"
import { fixtureA, fixtureB, makeDataDir, publishSnapshot } from "../support/snapshotFixture.ts"

const dir = makeDataDir()
afterAll(() => dir.cleanup())

const quotaBytes = (row: Array<number | null>): Buffer => {
  const bytes = Buffer.alloc(row.length * 8)
  for (const [i, v] of row.entries()) bytes.writeDoubleLE(v === null ? Number.NaN : v, i * 8)
  return bytes
}

/**
 * Pipeline 0.5's quotas digest, from the rows: `<YYYYMM> <month digest>` lines over each month's
 * rows, each row every column of the file's format (format 5 adds units_subscribed and
 * units_redeemed to 0.5's seven; a format-4 file is refused by the reader before its hash).
 */
const monthlyDigest = (path: string): string => {
  const db = new Database(path, { readonly: true })
  try {
    const rows = db
      .prepare(
        "SELECT asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto, units_subscribed, units_redeemed FROM quotas ORDER BY asset_id, date",
      )
      .raw(true)
      .all() as Array<Array<number | null>>
    const months = new Map<number, Buffer[]>()
    for (const row of rows) {
      const month = Math.floor((row[1] as number) / 100)
      months.set(month, [...(months.get(month) ?? []), quotaBytes(row)])
    }
    const lines = [...months.keys()]
      .sort((a, b) => a - b)
      .map((m) => `${m} ${createHash("sha256").update(Buffer.concat(months.get(m)!)).digest("hex")}\n`)
    return createHash("sha256").update(lines.join("")).digest("hex")
  } finally {
    db.close()
  }
}

/** Pipeline 0.4's quotas digest, from the rows. */
const wholeDigest = (path: string): string => {
  const db = new Database(path, { readonly: true })
  try {
    const hash = createHash("sha256")
    const rows = db
      .prepare("SELECT asset_id, date, price, patrimony, holders, factor_ajuste, factor_reparto FROM quotas ORDER BY asset_id, date")
      .raw(true)
      .all() as Array<Array<number | null>>
    for (const row of rows) hash.update(quotaBytes(row))
    return hash.digest("hex")
  } finally {
    db.close()
  }
}

describe("a batch built before pipeline 0.5 (quotas hashed whole)", () => {
  it("passes the API's checks with the hash it was published with; the same file under a per-month manifest hash does not", () => {
    const published = publishSnapshot(dir.snapshotsDir, fixtureA())
    const manifestPath = join(dir.snapshotsDir, published.finished.file.replace(/\.sqlite$/, ".manifest.json"))
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"))
    // the other tables' digests as 0.4 wrote them too (unchanged), with the quotas digest of 0.4
    const db = new Database(published.finished.path, { readonly: true })
    const digestOf = (table: string, orderBy: string) => {
      const h = createHash("sha256")
      for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY ${orderBy}`).raw(true).iterate()) h.update(`${JSON.stringify(row)}\n`)
      return h.digest("hex")
    }
    const lines = TABLES.map((t) => `${t.name} ${t.name === "quotas" ? wholeDigest(published.finished.path) : digestOf(t.name, t.orderBy)}\n`)
    db.close()
    const legacyHash = createHash("sha256").update(lines.join("")).digest("hex")
    expect(legacyHash).not.toBe(published.finished.contentHash)
    // the file and manifest as 0.4 published them: its name carries its hash, no month digests
    const file = `${published.data.batchDate}-${legacyHash.slice(0, 16)}.sqlite`
    renameSync(published.finished.path, join(dir.snapshotsDir, file))
    writeFileSync(
      join(dir.snapshotsDir, file.replace(/\.sqlite$/, ".manifest.json")),
      JSON.stringify({ ...manifest, file, content_hash: legacyHash, pipeline_version: "0.4.0" }),
    )
    expect(verifySnapshot(dir.snapshotsDir, file).contentHash).toBe(legacyHash)
    // a manifest that lists month digests is held to the per-month hash alone
    writeFileSync(
      join(dir.snapshotsDir, file.replace(/\.sqlite$/, ".manifest.json")),
      JSON.stringify({ ...manifest, file, content_hash: legacyHash, quota_month_digests: {} }),
    )
    expect(() => verifySnapshot(dir.snapshotsDir, file)).toThrow(/content hash/)
  })
})

describe("a batch built by pipeline 0.5 (fi_prices hashed whole)", () => {
  it("passes the API's checks with the hash it was published with", () => {
    const published = publishSnapshot(dir.snapshotsDir, fixtureB())
    const manifestPath = join(dir.snapshotsDir, published.finished.file.replace(/\.sqlite$/, ".manifest.json"))
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"))
    // FI prices over two months, which 0.6 hashes by month and 0.5 hashed whole
    const db = new Database(published.finished.path)
    const insert = db.prepare("INSERT INTO fi_prices (serie_id, date, book_value, patrimony) VALUES (?, ?, ?, ?)")
    insert.run("aaaaaaaa-0000-5000-8000-000000000000", 20261030, 1.5, 100)
    insert.run("aaaaaaaa-0000-5000-8000-000000000000", 20261102, 1.75, 101)
    insert.run("bbbbbbbb-0000-5000-8000-000000000000", 20261029, 10, null)
    const whole = (table: string, orderBy: string) => {
      const h = createHash("sha256")
      for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY ${orderBy}`).raw(true).iterate()) h.update(`${JSON.stringify(row)}\n`)
      return h.digest("hex")
    }
    const lines = TABLES.map((t) => `${t.name} ${t.name === "quotas" ? monthlyDigest(published.finished.path) : whole(t.name, t.orderBy)}\n`)
    db.close()
    const hash05 = createHash("sha256").update(lines.join("")).digest("hex")
    const file = `${published.data.batchDate}-${hash05.slice(0, 16)}.sqlite`
    renameSync(published.finished.path, join(dir.snapshotsDir, file))
    const written = { ...manifest, file, content_hash: hash05, pipeline_version: "0.5.0", row_counts: { ...manifest.row_counts, fi_prices: 3 } }
    delete written.table_month_digests
    writeFileSync(join(dir.snapshotsDir, file.replace(/\.sqlite$/, ".manifest.json")), JSON.stringify({ ...written, quota_month_digests: {} }))
    expect(verifySnapshot(dir.snapshotsDir, file).contentHash).toBe(hash05)
    // a manifest of 0.6 (fi_prices' month digests listed) is held to the per-month hash
    writeFileSync(
      join(dir.snapshotsDir, file.replace(/\.sqlite$/, ".manifest.json")),
      JSON.stringify({ ...written, quota_month_digests: {}, table_month_digests: {} }),
    )
    expect(() => verifySnapshot(dir.snapshotsDir, file)).toThrow(/content hash/)
  })
})
