/**
 * docs/snapshot-format.md as a public format: it names the format version the writer writes, every
 * table and every column of a snapshot file (read from the file, not from Tables.ts), and the
 * content hash's table order; and scripts/snapshot_content_hash.py, the definition written out in
 * Python's standard library, gives each fixture's manifest content hash, on a file downloaded from
 * the API too (null values, FI/ETF rows, the precomputed market tables with their BLOB).
 */
import { execFile } from "node:child_process"
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import Database from "better-sqlite3"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readManifest } from "../../snapshots/Manifest.ts"
import { FORMAT_VERSION, TABLES } from "../../snapshots/Tables.ts"
import { makeFiFixture } from "../fi/fiFixture.ts"
import { runCli, writeMiniSample } from "../ops/support/ops.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { fixtureB, makeFixtureA, publishSnapshot } from "../support/snapshotFixture.ts"

const root = join(import.meta.dirname, "..", "..")
const doc = readFileSync(join(root, "docs", "snapshot-format.md"), "utf8")
const SCRIPT = join(root, "scripts", "snapshot_content_hash.py")

const pythonHash = async (file: string): Promise<string> =>
  (await promisify(execFile)("python3", [SCRIPT, file], { timeout: 60_000 })).stdout.trim()

/** The script's check against a manifest: its exit code and what it printed. */
const pythonCheck = (file: string, manifest: string): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    execFile("python3", [SCRIPT, file, "--manifest", manifest], { timeout: 60_000 }, (error, stdout) =>
      resolve({ code: error === null ? 0 : Number((error as { code?: number }).code ?? -1), out: stdout }),
    )
  })

/** The paragraph of the doc that describes `table` (it starts with **`table`**). */
const paragraphOf = (table: string): string => {
  const at = doc.indexOf(`**\`${table}\`** —`)
  if (at < 0) return ""
  const end = doc.indexOf("\n\n", at)
  return doc.slice(at, end < 0 ? undefined : end)
}

describe("docs/snapshot-format.md", () => {
  const fi = makeFiFixture("available", true)
  const plain = makeFixtureA()

  afterAll(() => {
    fi.cleanup()
    plain.cleanup()
  })

  it("describes the format version the writer writes", () => {
    expect(doc).toMatch(new RegExp(`^# The snapshot format \\(format version ${FORMAT_VERSION}\\)`))
  })

  it("describes every table and every column of a snapshot file", () => {
    const db = new Database(join(fi.snapshotsDir, fi.file), { readonly: true })
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]
      expect(tables.length).toBe(28)
      const missing: string[] = []
      for (const table of tables) {
        const paragraph = paragraphOf(table)
        if (paragraph === "") missing.push(table)
        for (const column of db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]) {
          if (!paragraph.includes(`\`${column}\``)) missing.push(`${table}.${column}`)
        }
      }
      expect(missing).toEqual([])
    } finally {
      db.close()
    }
  })

  it("gives the content hash's tables in the order the service hashes them", () => {
    const listed = /for the 28 tables in this\s+order: ([^.]+)\./.exec(doc)?.[1] ?? ""
    expect([...listed.matchAll(/`(\w+)`/g)].map((m) => m[1])).toEqual(TABLES.map((t) => t.name))
  })

  it("its Python definition of the content hash gives the manifests' hashes", async () => {
    const files = [
      { dir: fi.snapshotsDir, file: fi.file },
      { dir: plain.snapshotsDir, file: plain.snapshot.finished.file },
      { dir: plain.snapshotsDir, file: publishSnapshot(plain.snapshotsDir, fixtureB()).finished.file },
    ]
    // the precomputed market tables are there, the BLOB column included
    expect(readManifest(fi.snapshotsDir, fi.file).row_counts.market_ready).toBeGreaterThan(0)
    for (const { dir, file } of files) {
      const manifest = readManifest(dir, file)
      expect(await pythonHash(join(dir, file)), file).toBe(manifest.content_hash)
      expect(file.slice(11, 27)).toBe(manifest.content_hash.slice(0, 16))
    }
  })
})

describe("a batch the real pipeline built, checked against its manifest by the Python script", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-format-"))
  const dataDir = join(work, "data")
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it("matches every digest of the manifest; a value changed in a copy is named by its table and month", async () => {
    const { mini } = await writeMiniSample(join(work, "mini"))
    const run = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-19"])
    expect(run.code, run.stderr).toBe(0)
    const file = readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()
    const path = join(dataDir, "snapshots", file)
    const manifest = join(dataDir, "snapshots", file.replace(/\.sqlite$/, ".manifest.json"))
    const recorded = JSON.parse(readFileSync(manifest, "utf8"))
    expect(Object.keys(recorded.table_digests ?? {}).length).toBe(28)
    const good = await pythonCheck(path, manifest)
    expect(good.out.trim()).toBe(`${recorded.content_hash} matches ${manifest}`)
    expect(good.code).toBe(0)
    // one quota value changed in a copy: the hash, the quotas table and that month differ, nothing else
    const copy = join(work, "altered.sqlite")
    copyFileSync(path, copy)
    const db = new Database(copy)
    const row = db.prepare("SELECT asset_id, date FROM quotas ORDER BY asset_id, date LIMIT 1").get() as { asset_id: number; date: number }
    db.prepare("UPDATE quotas SET price = price + 0.0001 WHERE asset_id = ? AND date = ?").run(row.asset_id, row.date)
    db.close()
    const bad = await pythonCheck(copy, manifest)
    expect(bad.code).toBe(1)
    const differs = bad.out.split("\n").filter((l) => l.startsWith("differs: "))
    expect(differs).toHaveLength(3)
    expect(differs[0]).toMatch(/^differs: content hash [0-9a-f]{64} \(manifest: /)
    expect(differs[1]).toMatch(/^differs: quotas: digest [0-9a-f]{64} \(manifest: /)
    expect(differs[2]).toMatch(new RegExp(`^differs: quotas of ${Math.floor(row.date / 100)}: digest [0-9a-f]{64} \\(manifest: `))
  }, 120_000)
})

describe("a downloaded snapshot checked as docs/snapshot-format.md says", () => {
  const fx = makeFiFixture("available", true)
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("the Python content hash of the downloaded file is the manifest's; its SHA-256 is the Repr-Digest", async () => {
    const key = (await createKey(fx.dataDir, { email: "format@example.cl" })).key
    const batchId = fx.file.replace(/\.sqlite$/, "")
    const res = await request(`${server.url}/api/batches/${batchId}/snapshot`, { headers: { "x-api-key": key } })
    expect(res.statusCode).toBe(200)
    const bytes = Buffer.from(await res.body.arrayBuffer())
    const copy = join(fx.dataDir, "copy.sqlite")
    writeFileSync(copy, bytes)
    const sha = (await promisify(execFile)("sha256sum", [copy])).stdout.split(" ")[0]!
    expect(res.headers["repr-digest"]).toBe(`sha-256=:${Buffer.from(sha, "hex").toString("base64")}:`)
    expect(await pythonHash(copy)).toBe(readManifest(fx.snapshotsDir, fx.file).content_hash)
  })
})
