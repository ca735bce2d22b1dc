/**
 * Truthful run state (#27 item 6). A run marks itself `running` in STATUS.json (its pid and start
 * time) before it works; one SIGKILLed mid-work leaves that behind, and is then reported `killed`
 * by `./fds pipeline status`, by /health's reasons and by the next run (which says so and ends
 * with its own outcome). The daemon runs each batch in a child process with a memory limit: a run
 * that exhausts memory (the hog preload, once the run marked itself running) is killed, STATUS.json
 * says `killed` with the cause, the daemon survives and its next run publishes.
 */
import { type ChildProcess, execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeSolver } from "../support/captchaSolver.ts"
import { type CmfServer, startCmfServer } from "../support/cmfServer.ts"
import { get, startServer, waitFor } from "../support/server.ts"
import { readStatusFile, root, runCli, spawnDaemon, writeMiniSample } from "./support/ops.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000" // /health must not depend on today's date here

let work: string
let mini: string
let full: string
let daemon: ChildProcess | null = null

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-run-state-"))
  ;({ mini, full } = await writeMiniSample(join(work, "mini")))
})
afterAll(() => {
  daemon?.kill("SIGKILL")
  rmSync(work, { recursive: true, force: true })
})

const statusCommand = (dataDir: string): string =>
  execFileSync(process.execPath, [join(root, "pipeline", "main.ts"), "pipeline", "status"], {
    cwd: root,
    env: { ...process.env, FDS_DATA_DIR: dataDir },
    encoding: "utf8",
  })

describe("run state", () => {
  it("a run SIGKILLed mid-work is reported killed by pipeline status, /health and the next run", async () => {
    const dataDir = join(work, "killed")
    const first = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-19"])
    expect(first.stdout, first.stderr).toMatch(/^published 2026-11-19: /)
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "published", finished_at: expect.any(String) })

    // killed from outside while the build's temporary file is written
    let pid = 0
    const killed = await runCli(dataDir, ["pipeline", "run", "--source", mini], {
      onSpawn: (child) => {
        pid = child.pid!
        const dir = join(dataDir, "snapshots")
        const poll = setInterval(() => {
          if (readdirSync(dir).some((n) => n.startsWith(".build-") && n.endsWith(".sqlite.tmp"))) child.kill("SIGKILL")
        }, 2)
        child.on("close", () => clearInterval(poll))
      },
    })
    expect(killed.signal).toBe("SIGKILL")
    // what the run wrote before it worked: running, with its process and start time
    const left = readStatusFile(dataDir) as Record<string, unknown> & { process: { pid: number } }
    expect(left).toMatchObject({ outcome: "running", finished_at: null, batch_date: "2026-11-19", started_at: expect.any(String) })
    expect(left.process.pid).toBe(pid)

    expect(statusCommand(dataDir)).toMatch(new RegExp(`^last run: killed \\(started ${String(left.started_at).replace(/[.]/g, "\\.")}\\)`))
    expect(statusCommand(dataDir)).toContain(`(pid ${pid}) ended without finishing`)

    const server = await startServer({ dataDir })
    try {
      const health = (await get(`${server.url}/health`)).body as { status: string; reasons: string[] }
      expect(health.status).toBe("degraded")
      expect(health.reasons).toEqual([expect.stringMatching(/^the last pipeline run \(started .*\) was killed before it finished/)])
    } finally {
      await server.close()
    }

    const next = await runCli(dataDir, ["pipeline", "run", "--source", mini])
    expect(next.code, next.stderr).toBe(0)
    expect(next.stderr).toContain(`fds: warning: the previous pipeline run was killed: the run started at ${left.started_at} (pid ${pid})`)
    expect(readStatusFile(dataDir)).toMatchObject({ outcome: "published", batch_date: "2026-11-20" })
    expect(statusCommand(dataDir)).toMatch(/^last run: published 2026-11-20/)
  }, 120_000)

  it("the daemon: a run over the memory limit fails that run (killed), the daemon survives and runs the next batch", async () => {
    const dataDir = join(work, "daemon")
    const marker = join(work, "hog")
    writeFileSync(marker, "")
    let cmf: CmfServer | null = await startCmfServer(full)
    try {
      const spawned = spawnDaemon<{ msg: string; level: string; run?: number; outcome?: string; reason?: string; [k: string]: unknown }>({
        FDS_DATA_DIR: dataDir,
        FDS_CMF_BASE_URL: cmf.url,
        FDS_CAPTCHA_COMMAND: writeSolver(work),
        FDS_HISTORY_START: "2026-10-01",
        FDS_PIPELINE_CRON: "* * * * * *",
        FDS_FETCH_RETRIES: "0",
        FDS_PIPELINE_RETRIES: "0",
        FDS_PIPELINE_MAX_MEMORY_MB: "640",
        FDS_HOG_MARKER: marker,
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${join(import.meta.dirname, "support", "memoryHog.ts")}`.trim(),
      })
      daemon = spawned.child
      const { lines } = spawned
      const finished = (outcome: string) => lines.find((l) => l.msg === "run finished" && l.outcome === outcome)
      expect(await waitFor(async () => finished("killed") !== undefined, 60_000, 50), spawned.stderr()).toBe(true)
      const killed = finished("killed")!
      expect(killed.level).toBe("error")
      expect(killed.reason).toMatch(/memory/)
      expect(existsSync(marker)).toBe(false) // the hog ran in that run's child
      expect(readStatusFile(dataDir)).toMatchObject({ outcome: "killed", finished_at: null, reason: expect.stringMatching(/ended without finishing: killed.*memory/) })

      // the daemon lives on: the next tick publishes
      expect(await waitFor(async () => finished("published") !== undefined, 60_000, 50), spawned.stderr()).toBe(true)
      expect(finished("published")!.run).toBeGreaterThan(killed.run!)
      expect(readStatusFile(dataDir)).toMatchObject({ outcome: "published" })
      expect(daemon.exitCode).toBeNull()

      const exited = new Promise<number | null>((resolve) => daemon!.on("exit", (code) => resolve(code)))
      daemon.kill("SIGTERM")
      expect(await exited).toBe(0)
      daemon = null
    } finally {
      await cmf?.close()
      cmf = null
    }
  }, 150_000)
})
