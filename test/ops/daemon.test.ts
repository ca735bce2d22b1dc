/**
 * `pipeline daemon` as a child process, ticking every second against a local CMF stand-in. The
 * first run is slow (the registry request hangs until its timeout), fails on the source and is
 * retried: it publishes once, and the ticks that come meanwhile are skipped, never overlapping.
 * Garbage from the source rejects a run without a retry and without publishing; then runs find
 * nothing new. SIGTERM stops it cleanly. Every wait is bounded.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeSolver } from "../support/captchaSolver.ts"
import { type CmfServer, startCmfServer } from "../support/cmfServer.ts"
import { waitFor } from "../support/server.ts"
import { logChildOutput } from "../support/testLog.ts"
import { readStatusFile, root, spawnDaemon, writeMiniSample } from "./support/ops.ts"

interface LogLine {
  readonly msg: string
  readonly level: string
  readonly run?: number
  readonly outcome?: string
  readonly file?: string
  readonly [key: string]: unknown
}

let work: string
let cmf: CmfServer
let solveCommand = ""
let daemon: ChildProcess | null = null
let lines: LogLine[] = []

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-daemon-"))
  const { full } = await writeMiniSample(join(work, "mini"))
  cmf = await startCmfServer(full)
  solveCommand = writeSolver(work)
})
afterAll(async () => {
  daemon?.kill("SIGKILL")
  await cmf?.close()
  rmSync(work, { recursive: true, force: true })
})

const finished = (outcome: string, after = 0) =>
  lines.find((l) => l.msg === "run finished" && l.outcome === outcome && (l.run ?? 0) > after)

describe("pipeline daemon", () => {
  it("publishes on schedule, retries a failing source, skips ticks during a run, never publishes a rejected batch, stops on SIGTERM", async () => {
    const dataDir = join(work, "data")
    cmf.fault = { path: "fm_ident2.php", kind: "hang", times: 1 }
    const spawned = spawnDaemon<LogLine>({
        FDS_DATA_DIR: dataDir,
        FDS_CMF_BASE_URL: cmf.url,
        FDS_CAPTCHA_COMMAND: solveCommand,
        FDS_HISTORY_START: "2026-10-01",
        FDS_PIPELINE_CRON: "* * * * * *",
        FDS_FETCH_TIMEOUT_MS: "1500",
        FDS_FETCH_RETRIES: "0",
        FDS_PIPELINE_RETRIES: "2",
        FDS_PIPELINE_RETRY_BASE_MS: "300",
    })
    const { child } = spawned
    lines = spawned.lines
    daemon = child
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    )

    // 1. The first run: the registry hangs until its timeout (a source failure), the run is retried and publishes.
    expect(await waitFor(async () => finished("published") !== undefined, 60_000, 50), spawned.stderr()).toBe(true)
    const first = finished("published")!
    expect(lines[0]).toMatchObject({ msg: "daemon started", cron: "* * * * * *", timezone: "America/Santiago" })
    expect(lines.find((l) => l.msg === "source failed; retrying the run")).toMatchObject({ run: first.run, retry: 1, after_ms: 300 })
    const firstStart = lines.findIndex((l) => l.msg === "run started" && l.run === first.run)
    const firstEnd = lines.indexOf(first)
    expect(lines.slice(firstStart, firstEnd).some((l) => l.msg.startsWith("tick skipped"))).toBe(true)
    const file = first.file!
    expect(readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()).toBe(file)

    // 2. Garbage from the source: rejected, not retried, nothing published.
    cmf.fault = { path: "cfm_download.php", kind: "garbage", times: 1_000 }
    expect(await waitFor(async () => finished("rejected") !== undefined, 30_000, 50)).toBe(true)
    const rejected = finished("rejected")!
    expect(rejected.reason).toMatch(/matches no CMF data set/)
    expect(lines.some((l) => l.msg.startsWith("source failed") && l.run === rejected.run)).toBe(false)
    expect(readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()).toBe(file)
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "rejected", file })

    // 3. The source healthy again: nothing new.
    cmf.fault = null
    expect(await waitFor(async () => finished("unchanged", rejected.run) !== undefined, 30_000, 50)).toBe(true)

    // 4. SIGTERM: stops (interrupting a run in progress), exit 0.
    child.kill("SIGTERM")
    const exit = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 20_000))])
    expect(exit).toEqual({ code: 0, signal: null })
    daemon = null
    expect(lines.at(-1)).toMatchObject({ msg: "daemon stopped" })

    // Runs never overlapped: each start follows the previous run's end.
    const sequence = lines.filter((l) => l.msg === "run started" || l.msg === "run finished").map((l) => `${l.msg === "run started" ? "S" : "F"}${l.run}`)
    const expected = sequence.map((_, i) => `${i % 2 === 0 ? "S" : "F"}${Math.floor(i / 2) + 1}`)
    expect(sequence).toEqual(expected)
    expect(lines.filter((l) => l.outcome === "published")).toHaveLength(1)
    expect(readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()).toBe(file)
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "unchanged", file })
  }, 120_000)

  it("refuses a bad schedule or setting at start (exit 2), before any tick", async () => {
    for (const [name, value] of [
      ["FDS_PIPELINE_CRON", "every morning"],
      ["FDS_PIPELINE_RETRIES", "-1"],
      ["FDS_FETCH_TIMEOUT_MS", "soon"],
      ["FDS_PIPELINE_MAX_MEMORY_MB", "12"],
    ] as const) {
      const child = spawn(process.execPath, [join(root, "pipeline", "main.ts"), "pipeline", "daemon"], {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, FDS_DATA_DIR: join(work, "never"), [name]: value },
      })
      logChildOutput(child, `pipeline daemon (pid ${child.pid})`)
      let stderr = ""
      child.stderr!.on("data", (c: Buffer) => {
        stderr += c.toString()
      })
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000)
      const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)))
      clearTimeout(timer)
      expect([code, stderr]).toEqual([2, expect.stringContaining(name)])
    }
  })
})
