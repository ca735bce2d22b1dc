/**
 * A batch whose FI/ETF part fails its checks is still published (the mutual fund routes are the
 * core of the day), but nobody is left to find it out from an FI route's 503: the command line
 * warns, STATUS.json says what the batch lacks and why, and /health is degraded.
 */
import Database from "better-sqlite3"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { get, type RunningServer, startServer } from "../support/server.ts"
import { readStatusFile, runCli, writeMiniSample } from "./support/ops.ts"

describe("a batch published without its FI/ETF part", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-fipart-"))
  const dataDir = join(work, "data")
  let source: string
  let server: RunningServer | undefined
  const staleBefore = process.env.FDS_STALE_AFTER_HOURS
  beforeAll(async () => {
    source = (await writeMiniSample(join(work, "src"))).mini
    // the batch (2026-11-20) must not count as stale on whatever day this runs: only the FI part is judged
    process.env.FDS_STALE_AFTER_HOURS = String(24 * 365 * 100)
  })
  afterAll(async () => {
    if (staleBefore === undefined) delete process.env.FDS_STALE_AFTER_HOURS
    else process.env.FDS_STALE_AFTER_HOURS = staleBefore
    await server?.close()
    rmSync(work, { recursive: true, force: true })
    rmSync(`${join(work, "src")}-full`, { recursive: true, force: true })
  })

  it("is published as before, and a clean run reports ok", async () => {
    const clean = await runCli(dataDir, ["pipeline", "run", "--source", source])
    expect(clean.code).toBe(0)
    expect(clean.stderr).not.toContain("warning")
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "published", reason: null })
    server = await startServer({ dataDir, pollMillis: 50 })
    expect(((await get(`${server.url}/health`)).body as { status: string }).status).toBe("ok")
  })

  it("with an FI list page that is not one: warns, says so in STATUS.json, and /health is degraded", async () => {
    // still the FI registry's page (its heading and table), with a RUT that is not one
    const page = join(source, "fi_consulta_FINRE_NV.html")
    const text = readFileSync(page, "latin1")
    expect(text).toContain(">7021-1<")
    writeFileSync(page, text.replace(">7021-1<", ">70X1-1<"), "latin1")
    const run = await runCli(dataDir, ["pipeline", "run", "--source", source])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^published 2026-11-20/m)
    expect(run.stderr).toContain("fds: warning: published without its FI/ETF part")
    expect(run.stderr).toMatch(/fi_consulta_FINRE_NV\.html line \d+ field R\.U\.T\.: .*"70X1-1"/)
    const status = readStatusFile(dataDir) as { outcome: string; reason: string; file: string }
    expect(status.outcome).toBe("published")
    expect(status.reason).toMatch(/^published without its FI\/ETF part .*fi_consulta_FINRE_NV\.html/)
    const db = new Database(join(dataDir, "snapshots", status.file), { readonly: true })
    try {
      expect(db.prepare("SELECT value FROM meta WHERE key = 'fi_status'").get()).toEqual({ value: "unavailable" })
    } finally {
      db.close()
    }
    // the running API takes the new batch (it polls), and says degraded
    const deadline = Date.now() + 10_000
    let health = ""
    while (Date.now() < deadline) {
      health = ((await get(`${server!.url}/health`)).body as { status: string }).status
      if (health === "degraded") break
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(health).toBe("degraded")
    expect(readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()).toBe(status.file)
  })
})
