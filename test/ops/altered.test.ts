/**
 * A published snapshot altered in place (one value changed: the row counts hold and quick_check
 * passes) is caught by what vouches for a past day: rollback refuses it, and reproduce says the
 * file on disk is not what was published (a rebuild that matches does not vouch for the file), and
 * with --restore puts the rebuilt file back. The API checks the content hash too: a copy with one
 * price changed, published by hand with the original's manifest, is refused by the running API
 * (the published batch keeps serving) and by an API started with CURRENT naming it (it serves the
 * newest published snapshot instead).
 */
import Database from "better-sqlite3"
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, get, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { runCli, writeMiniSample } from "./support/ops.ts"
import { captureStoreLog } from "./support/storeLog.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

describe("a published snapshot altered in place", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-altered-"))
  const dataDir = join(work, "data")
  const cli = (...args: string[]) => runCli(dataDir, ["pipeline", ...args])
  const current = () => readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()
  let older = ""

  beforeAll(async () => {
    const { mini } = await writeMiniSample(join(work, "mini"))
    expect((await cli("run", "--source", mini, "--date", "2026-11-19")).code).toBe(0)
    older = current()
    expect((await cli("run", "--source", mini)).code).toBe(0)
    const db = new Database(join(dataDir, "snapshots", older))
    try {
      const first = db.prepare("SELECT asset_id, date FROM quotas ORDER BY asset_id, date LIMIT 1").get() as { asset_id: number; date: number }
      const changed = db.prepare("UPDATE quotas SET price = price * 1.01 WHERE asset_id = ? AND date = ?").run(first.asset_id, first.date)
      expect(changed.changes).toBe(1)
    } finally {
      db.close()
    }
  })
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it("rollback refuses it, naming the content hash", async () => {
    const r = await cli("rollback", "--to", "2026-11-19")
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/may not serve: its content hash [0-9a-f]{64} differs from its manifest's \(the file was altered since it was published\)/)
    expect(current()).not.toBe(older)
  })

  it("reproduce says the file on disk was altered (exit 1); with --restore it puts the rebuilt file back, and rollback then takes it", async () => {
    const check = await cli("reproduce", "--date", "2026-11-19")
    expect(check.code).toBe(1)
    expect(check.stdout).toMatch(new RegExp(`^match: .*; but the file on disk, ${older}, has content hash [0-9a-f]{64}: it was altered since it was published`))
    const restore = await cli("reproduce", "--date", "2026-11-19", "--restore")
    expect(restore.code, restore.stderr).toBe(0)
    expect(restore.stdout).toMatch(/the file on disk had been altered \(content hash [0-9a-f]{64}\) and was replaced by the rebuilt one/)
    expect((await cli("reproduce", "--date", "2026-11-19")).stdout).toMatch(/^match: [^;]*$/m)
    const back = await cli("rollback", "--to", "2026-11-19")
    expect(back.code, back.stderr).toBe(0)
    expect(current()).toBe(older)
  })
})

describe("a copy with one price changed, published by hand under the original's manifest", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-altered-api-"))
  const dataDir = join(work, "data")
  const snapshots = join(dataDir, "snapshots")
  const log = captureStoreLog()
  let published = ""
  let altered = ""
  let assetId = 0
  let lastDay = { batch: "", date: "", price: 0 }
  let key = ""
  let server: RunningServer

  const lastDayOf = async (s: RunningServer) => {
    const res = await get(`${s.url}/api/real_assets/${assetId}/days`, { "x-api-key": key })
    expect(res.status).toBe(200)
    const body = res.body as { data: Array<{ attributes: { date: string; price: number } }>; meta: { batch_date: string } }
    return { batch: body.meta.batch_date, ...body.data.at(-1)!.attributes }
  }
  const healthOf = async (s: RunningServer) => (await get(s.url + "/health")).body as { status: string; last_scraped_date: string | null }

  beforeAll(async () => {
    const { mini } = await writeMiniSample(join(work, "mini"))
    expect((await runCli(dataDir, ["pipeline", "run", "--source", mini])).code).toBe(0)
    published = readFileSync(join(snapshots, "CURRENT"), "utf8").trim()
    // the same name but for its date, so the manifest's hash still matches the name; the manifest
    // is the original's, naming the copy
    altered = published.replace(/^\d{4}-\d{2}-\d{2}/, "2026-11-21")
    copyFileSync(join(snapshots, published), join(snapshots, altered))
    const manifest = JSON.parse(readFileSync(join(snapshots, published.replace(".sqlite", ".manifest.json")), "utf8")) as Record<string, unknown>
    writeFileSync(join(snapshots, altered.replace(".sqlite", ".manifest.json")), JSON.stringify({ ...manifest, file: altered }))
    const db = new Database(join(snapshots, altered))
    try {
      const row = db.prepare("SELECT asset_id, max(date) AS date FROM quotas GROUP BY asset_id ORDER BY asset_id LIMIT 1").get() as { asset_id: number; date: number }
      assetId = row.asset_id
      expect(db.prepare("UPDATE quotas SET price = price * 1.5 WHERE asset_id = ? AND date = ?").run(row.asset_id, row.date).changes).toBe(1)
      expect(db.pragma("quick_check", { simple: true })).toBe("ok")
    } finally {
      db.close()
    }
    key = (await createKey(dataDir, { email: "ops@example.cl" })).key
    server = await startServer({ dataDir, pollMillis: 50 })
    lastDay = await lastDayOf(server)
    expect(lastDay.batch).toBe("2026-11-20")
  })
  afterAll(async () => {
    await server?.close()
    log.restore()
    rmSync(work, { recursive: true, force: true })
  })

  it("is refused by the running API for its content hash; the published batch keeps serving, /health degraded", async () => {
    writeFileSync(join(snapshots, "CURRENT"), altered + "\n") // by hand
    expect(await waitFor(async () => log.lines.some((l) => /refused/.test(l.msg) && l.file === altered), 10_000)).toBe(true)
    const refusal = log.lines.find((l) => /refused/.test(l.msg) && l.file === altered)!
    expect(refusal).toMatchObject({ level: "error", serving: published })
    expect(String(refusal.error)).toMatch(/content hash [0-9a-f]{64} differs from the manifest's/)
    expect(await lastDayOf(server)).toEqual(lastDay)
    expect(await waitFor(async () => (await healthOf(server)).status === "degraded", 5000)).toBe(true)
  })

  it("is refused by an API started with CURRENT naming it, which serves the newest published snapshot instead and says so", async () => {
    log.clear()
    const fresh = await startServer({ dataDir })
    try {
      expect(await lastDayOf(fresh)).toEqual(lastDay)
      expect(await healthOf(fresh)).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-20" })
    } finally {
      await fresh.close()
    }
    expect(log.lines.some((l) => /refused/.test(l.msg) && l.file === altered && /content hash/.test(String(l.error)))).toBe(true)
    expect(log.loud().some((l) => /instead/.test(l.msg) && l.current === altered && l.serving === published)).toBe(true)
  })
})
