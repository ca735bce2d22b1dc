/**
 * The disk fills up while a snapshot is written. Where this runs as root and `mount -t tmpfs`
 * works, the data folder lives on a small tmpfs with just too little room left for the new
 * snapshot (a real ENOSPC); elsewhere the child's file-size limit (`ulimit -f`) refuses the
 * snapshot file (EFBIG), which SQLite reports the same way. The build fails cleanly: the run
 * exits 1 naming the cause, CURRENT and the previous snapshot are untouched, the temporary file is
 * gone, STATUS.json says "failed" and /health turns degraded; with room again the next run
 * publishes.
 */
import { execFileSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { get, startServer } from "../support/server.ts"
import { expectNothingHalfPublished, ledgerRows, readStatusFile, runCli, writeMiniSample } from "./support/ops.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000"

let work: string
let mini: string
let template: string
let mountPoint: string | null = null

const tryMount = (dir: string): boolean => {
  if (process.platform !== "linux" || process.getuid?.() !== 0 || process.env.FDS_TEST_DISK_FULL === "ulimit") return false
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", dir], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}
const resize = (dir: string, bytes: number) =>
  execFileSync("mount", ["-o", `remount,size=${Math.ceil(bytes / 4096) * 4096}`, dir], { stdio: "ignore" })

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-full-"))
  ;({ mini } = await writeMiniSample(join(work, "mini")))
  template = join(work, "template")
  const first = await runCli(template, ["pipeline", "run", "--source", mini, "--date", "2026-11-19"])
  expect(first.stdout).toMatch(/^published 2026-11-19: /)
})
afterAll(() => {
  if (mountPoint !== null) execFileSync("umount", [mountPoint], { stdio: "ignore" })
  rmSync(work, { recursive: true, force: true })
})

describe("the disk full while a snapshot is written", () => {
  it("fails the build cleanly, keeps CURRENT, reports it; the next run with room publishes", async () => {
    const candidate = join(work, "mnt")
    mkdirSync(candidate)
    const tmpfs = tryMount(candidate)
    if (tmpfs) mountPoint = candidate
    const dataDir = tmpfs ? join(candidate, "data") : join(work, "data")
    cpSync(template, dataDir, { recursive: true })
    const before = expectNothingHalfPublished(dataDir)
    const snapshotBytes = 1_000_000 // the new snapshot is ~1.3 MB; leave less than half of that
    let limit: { shellPrefix?: string } = {}
    if (tmpfs) {
      const s = statfsSync(candidate)
      resize(candidate, (s.blocks - s.bfree) * s.bsize + snapshotBytes / 2)
    } else {
      limit = { shellPrefix: `ulimit -f ${Math.floor(snapshotBytes / 2 / 1024)}` } // in 1024-byte blocks
    }

    const full = await runCli(dataDir, ["pipeline", "run", "--source", mini], limit)
    expect(full.code, full.stdout).toBe(1)
    // ENOSPC is SQLite's "database or disk is full", or the copy's "no space left on device" when the
    // day is an increment (its first write copies the previous snapshot); EFBIG (the file-size limit)
    // SQLite's "disk I/O error" or the copy's "file too large".
    expect(full.stderr).toMatch(
      tmpfs
        ? /batch failed: snapshot build failed: .*(disk is full|no space left on device)/
        : /batch failed: snapshot build failed: .*(disk I\/O error|file too large)/i,
    )
    expect(full.stderr).toContain("CURRENT was not changed")
    const after = expectNothingHalfPublished(dataDir)
    expect(after.current).toBe(before.current)
    expect(after.finals).toEqual(before.finals)
    expect(after.leftovers).toEqual([])
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "failed", batch_date: "2026-11-20", file: before.current })
    expect(ledgerRows(dataDir).at(-1)).toMatchObject({ type: "BatchRejected", payload: { batch_date: "2026-11-20" } })

    const server = await startServer({ dataDir, pollMillis: 50 })
    try {
      expect((await get(server.url + "/health")).body).toMatchObject({ status: "degraded", last_scraped_date: "2026-11-19" })
      if (tmpfs) resize(candidate, 64 * 1024 * 1024)
      const next = await runCli(dataDir, ["pipeline", "run", "--source", mini])
      expect(next.code, next.stderr).toBe(0)
      expect(next.stdout).toMatch(/^published 2026-11-20: /)
      const published = expectNothingHalfPublished(dataDir)
      expect(published.withManifest).toEqual(published.finals)
      expect(readdirSync(join(dataDir, "snapshots")).filter((n) => n.endsWith(".tmp"))).toEqual([])
      expect(readStatusFile(dataDir)).toMatchObject({ outcome: "published", file: published.current })
      // The running API swaps to it and is healthy again.
      const deadline = Date.now() + 10_000
      let health = (await get(server.url + "/health")).body as { status: string; last_scraped_date: string }
      while (health.last_scraped_date !== "2026-11-20" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50))
        health = (await get(server.url + "/health")).body as { status: string; last_scraped_date: string }
      }
      expect(health).toMatchObject({ status: "ok", last_scraped_date: "2026-11-20" })
    } finally {
      await server.close()
    }
  })
})
