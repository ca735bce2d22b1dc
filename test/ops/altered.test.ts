/**
 * A published snapshot altered in place (one value changed: the row counts hold and quick_check
 * passes) is caught by what vouches for a past day: rollback refuses it, and reproduce says the
 * file on disk is not what was published (a rebuild that matches does not vouch for the file), and
 * with --restore puts the rebuilt file back.
 */
import Database from "better-sqlite3"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli, writeMiniSample } from "./support/ops.ts"

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
