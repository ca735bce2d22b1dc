/**
 * A broken CURRENT (garbage, empty, missing) or a served snapshot file deleted from disk: the
 * running API keeps serving what it has, /health turns degraded and the log names the cause; an
 * API started in that state serves the newest published snapshot (by the ledger) that passes its
 * checks, and says so loudly, naming what CURRENT said and what it serves instead.
 */
import Database from "better-sqlite3"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, get, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { runCli, writeMiniSample } from "./support/ops.ts"
import { captureStoreLog } from "./support/storeLog.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

let work: string
let dataDir: string
let snapshots: string
let older: string
let newer: string
let assetId: number
let key: string
let server: RunningServer
const log = captureStoreLog()

interface Health {
  status: string
  last_scraped_date: string | null
  reasons: string[]
}
const healthOf = async (s: RunningServer): Promise<Health> => (await get(s.url + "/health")).body as Health
const daysOf = async (s: RunningServer) => {
  const res = await get(`${s.url}/api/real_assets/${assetId}/days`, { "x-api-key": key })
  return { status: res.status, batch: (res.body as { meta?: { batch_date?: string } }).meta?.batch_date }
}
const currentPath = () => join(snapshots, "CURRENT")

/** An API started now: what it serves and what it logged while starting. */
const restart = async (): Promise<{ health: Health; days: { status: number; batch: string | undefined } }> => {
  log.clear()
  const fresh = await startServer({ dataDir })
  try {
    return { health: await healthOf(fresh), days: await daysOf(fresh) }
  } finally {
    await fresh.close()
  }
}

/** The log never says that a previous snapshot keeps serving when nothing does. */
const expectTruthfulLog = () => {
  expect(log.lines.filter((l) => /previous one keeps serving/.test(l.msg))).toEqual([])
  for (const l of log.lines.filter((l) => /keeps serving/.test(l.msg))) expect(typeof l.serving).toBe("string")
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-broken-current-"))
  const { mini } = await writeMiniSample(join(work, "mini"))
  dataDir = join(work, "data")
  snapshots = join(dataDir, "snapshots")
  expect((await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-19"])).code).toBe(0)
  older = readFileSync(currentPath(), "utf8").trim()
  expect((await runCli(dataDir, ["pipeline", "run", "--source", mini])).code).toBe(0)
  newer = readFileSync(currentPath(), "utf8").trim()
  expect(newer).not.toBe(older)
  const db = new Database(join(snapshots, newer), { readonly: true })
  try {
    assetId = db.prepare("SELECT asset_id FROM quotas ORDER BY asset_id LIMIT 1").pluck().get() as number
  } finally {
    db.close()
  }
  key = (await createKey(dataDir, { email: "ops@example.cl" })).key
  server = await startServer({ dataDir, pollMillis: 50 })
})
afterAll(async () => {
  await server?.close()
  log.restore()
  rmSync(work, { recursive: true, force: true })
})

describe("a broken CURRENT", () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly said: string | null; readonly cause: RegExp; readonly breakIt: () => void }> = [
    {
      name: "garbage",
      said: "not a snapshot name",
      cause: /CURRENT does not name a snapshot file/,
      breakIt: () => writeFileSync(currentPath(), "not a snapshot name\n"),
    },
    { name: "an empty string", said: "", cause: /CURRENT is empty/, breakIt: () => writeFileSync(currentPath(), "") },
    { name: "a missing CURRENT", said: null, cause: /CURRENT is missing/, breakIt: () => rmSync(currentPath()) },
  ]

  for (const c of cases) {
    it(`${c.name}: /health degraded and the cause logged while the batch keeps serving; a restart serves the newest published snapshot and says so`, async () => {
      expect(await healthOf(server)).toMatchObject({ status: "ok", last_scraped_date: "2026-11-20" })
      log.clear()
      c.breakIt()
      expect(await waitFor(async () => (await healthOf(server)).status === "degraded", 5000)).toBe(true)
      expect(await healthOf(server)).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-20" })
      // /health names the cause, as the log does
      expect((await healthOf(server)).reasons.some((r) => c.cause.test(r))).toBe(true)
      expect(log.loud().some((l) => c.cause.test(l.msg) && l.current === c.said && l.serving === newer)).toBe(true)
      expect(await daysOf(server)).toEqual({ status: 200, batch: "2026-11-20" })

      const started = await restart()
      expect(started.health).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-20" })
      expect(started.days).toEqual({ status: 200, batch: "2026-11-20" })
      expect(log.loud().some((l) => /instead/.test(l.msg) && l.current === c.said && l.serving === newer)).toBe(true)
      expectTruthfulLog()

      log.clear()
      writeFileSync(currentPath(), newer + "\n")
      expect(await waitFor(async () => (await healthOf(server)).status === "ok", 5000)).toBe(true)
    })
  }

  it("the served file deleted: /health degraded and logged, the open file keeps serving; a restart serves the newest published snapshot still on disk", async () => {
    expect(await healthOf(server)).toMatchObject({ status: "ok", last_scraped_date: "2026-11-20" })
    log.clear()
    rmSync(join(snapshots, newer))
    expect(await waitFor(async () => (await healthOf(server)).status === "degraded", 5000)).toBe(true)
    expect(log.loud().some((l) => /gone/.test(l.msg) && l.file === newer)).toBe(true)
    expect((await healthOf(server)).reasons.some((r) => /gone/.test(r))).toBe(true)
    expect(await daysOf(server)).toEqual({ status: 200, batch: "2026-11-20" })

    const started = await restart()
    expect(started.health).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-19" })
    expect(started.days).toEqual({ status: 200, batch: "2026-11-19" })
    expect(log.loud().some((l) => /instead/.test(l.msg) && l.current === newer && l.serving === older)).toBe(true)
    expect(log.lines.some((l) => /refused/.test(l.msg) && l.file === newer && l.serving === null)).toBe(true)
    expectTruthfulLog()
  })
})
