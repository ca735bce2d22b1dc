/**
 * A corrupt snapshot published by hand: bytes under a snapshot's name and CURRENT pointing at
 * them, as a bad copy or a careless operator would leave them. The running API refuses the file
 * and keeps serving the published one (checked over HTTP); /health says degraded while CURRENT
 * names a refused file, and ok again once CURRENT is put back. An API started while CURRENT names
 * the bad file serves the newest published snapshot that passes its checks instead.
 */
import { copyFileSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync, closeSync } from "node:fs"
import { randomBytes } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { createKey, get, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { runCli, writeMiniSample } from "./support/ops.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

let work: string
let dataDir: string
let snapshots: string
let good: string
let server: RunningServer
let key: string
const errors: string[] = []

interface Health {
  status: string
  last_scraped_date: string | null
}
const health = async (): Promise<Health> => (await get(server.url + "/health")).body as Health
const providers = async () => {
  const res = await get(server.url + "/api/asset_providers", { "x-api-key": key })
  expect(res.status).toBe(200)
  return res.text
}
const pointCurrentAt = (file: string) => writeFileSync(join(snapshots, "CURRENT"), file + "\n") // by hand: no rename

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-corrupt-"))
  const { mini } = await writeMiniSample(join(work, "mini"))
  dataDir = join(work, "data")
  snapshots = join(dataDir, "snapshots")
  const run = await runCli(dataDir, ["pipeline", "run", "--source", mini])
  expect(run.stdout).toMatch(/^published 2026-11-20: /)
  good = readFileSync(join(snapshots, "CURRENT"), "utf8").trim()
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args.map(String).join(" "))
  })
  key = (await createKey(dataDir, { email: "ops@example.cl" })).key
  server = await startServer({ dataDir, pollMillis: 50 })
})
afterAll(async () => {
  await server?.close()
  vi.restoreAllMocks()
  rmSync(work, { recursive: true, force: true })
})

/** CURRENT now names `file`: the API refuses it, keeps serving `good`, and /health turns degraded. */
const expectRefused = async (file: string, served: string) => {
  expect(await waitFor(async () => errors.some((e) => e.includes("refused") && e.includes(file)), 5000)).toBe(true)
  expect(await waitFor(async () => (await health()).status === "degraded", 20_000, 200)).toBe(true)
  expect(await health()).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-20" })
  expect(await providers()).toBe(served)
}

describe("a corrupt snapshot published by hand", () => {
  it("is refused by the running API, which keeps serving the published snapshot", async () => {
    expect(await health()).toEqual({
      status: "ok",
      last_scraped_date: "2026-11-20",
      batch_id: good.replace(/\.sqlite$/, ""),
      total_records: expect.any(Number),
      reasons: [],
      sources: expect.any(Array),
    })
    const served = await providers()

    // 1. Garbage bytes under a snapshot name, no manifest.
    const garbage = "2026-11-21-0123456789abcdef.sqlite"
    writeFileSync(join(snapshots, garbage), randomBytes(256 * 1024))
    pointCurrentAt(garbage)
    await expectRefused(garbage, served)

    // 2. Bit rot: a copy of the real file with its last third overwritten, under a consistent name
    //    and manifest; only the database checks can catch it.
    const rotten = "2026-11-20-fedcba9876543210.sqlite"
    copyFileSync(join(snapshots, good), join(snapshots, rotten))
    const size = statSync(join(snapshots, rotten)).size
    const fd = openSync(join(snapshots, rotten), "r+")
    writeSync(fd, randomBytes(Math.floor(size / 3)), 0, Math.floor(size / 3), size - Math.floor(size / 3))
    closeSync(fd)
    const manifest = JSON.parse(readFileSync(join(snapshots, good.replace(".sqlite", ".manifest.json")), "utf8"))
    manifest.file = rotten
    manifest.content_hash = "fedcba9876543210" + String(manifest.content_hash).slice(16)
    writeFileSync(join(snapshots, rotten.replace(".sqlite", ".manifest.json")), JSON.stringify(manifest))
    pointCurrentAt(rotten)
    await expectRefused(rotten, served)
    const reason = errors.find((e) => e.includes("refused") && e.includes(rotten))!
    expect(reason).toMatch(/malformed|quick_check|row count|disk image/)
    // An API started now refuses the file CURRENT names and serves the newest published snapshot
    // that passes its checks (by the ledger: the good one), degraded; never the bad file.
    const fresh = await startServer({ dataDir })
    try {
      expect((await get(fresh.url + "/health")).body).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-20" })
      expect((await get(fresh.url + "/api/asset_providers", { "x-api-key": key })).text).toBe(served)
    } finally {
      await fresh.close()
    }
    expect(errors.some((e) => e.includes("instead") && e.includes(rotten) && e.includes(good))).toBe(true)

    // 3. CURRENT put back: healthy again, same data.
    pointCurrentAt(good)
    expect(await waitFor(async () => (await health()).status === "ok", 5000)).toBe(true)
    expect(await providers()).toBe(served)
  })
})
