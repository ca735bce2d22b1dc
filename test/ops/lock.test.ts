/**
 * The data folder's pipeline lock (<data>/pipeline.lock) with real processes: a lock whose pid is
 * the caller's own (left by an earlier process that had the same pid: a restarted container's
 * PID 1) or a reused pid (a process started after the lock was written), or written before a
 * reboot, is stale and taken over; a live holder (a run in progress) still turns a run away with
 * exit 3 and makes the daemon skip its tick; of processes racing to take over one stale lock,
 * exactly one gets it. Every wait is bounded; children are killed at the end.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeSolver } from "../support/captchaSolver.ts"
import { type CmfServer, startCmfServer } from "../support/cmfServer.ts"
import { waitFor } from "../support/server.ts"
import { logChildOutput } from "../support/testLog.ts"
import { root, runCli, writeMiniSample } from "./support/ops.ts"

let work: string
let mini: string
let cmf: CmfServer
let solveCommand = ""
let folders = 0
const children: ChildProcess[] = []

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-lock-"))
  const sample = await writeMiniSample(join(work, "mini"))
  mini = sample.mini
  cmf = await startCmfServer(sample.full)
  solveCommand = writeSolver(work)
})
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL")
  await cmf?.close()
  rmSync(work, { recursive: true, force: true })
})

const dataDir = (): string => {
  const dir = join(work, `data-${++folders}`)
  mkdirSync(dir, { recursive: true })
  return dir
}
const lockOf = (dir: string) => join(dir, "pipeline.lock")
const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()
/** Field 22 of /proc/<pid>/stat: the process's start time in clock ticks after boot. */
const startTimeOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19])
}
/** The pid of a process that has exited. */
const deadPid = (): number => spawnSync("true").pid!

const spawnTracked = (command: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): ChildProcess => {
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } })
  children.push(child)
  logChildOutput(child, `${[command, ...args].map((a) => a.split("/").at(-1)).slice(0, 4).join(" ")} (pid ${child.pid})`)
  return child
}
const exitOf = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.on("exit", (code) => resolve(code)))

/** `pipeline daemon` ticking every second on the CMF stand-in, through bash when `shellPrefix` is given. */
const startDaemon = (dir: string, shellPrefix?: string) => {
  const main = join(root, "pipeline", "main.ts")
  const env = { FDS_DATA_DIR: dir, FDS_CMF_BASE_URL: cmf.url, FDS_CAPTCHA_COMMAND: solveCommand, FDS_HISTORY_START: "2026-10-01", FDS_PIPELINE_CRON: "* * * * * *", FDS_PIPELINE_RETRIES: "0" }
  const child =
    shellPrefix === undefined
      ? spawnTracked(process.execPath, [main, "pipeline", "daemon"], env)
      : spawnTracked("bash", ["-c", `${shellPrefix}; exec "$0" "$@"`, process.execPath, main, "pipeline", "daemon"], env)
  const lines: Array<Record<string, unknown>> = []
  let buffer = ""
  child.stdout!.on("data", (c: Buffer) => {
    buffer += c.toString()
    const parts = buffer.split("\n")
    buffer = parts.pop()!
    for (const p of parts) if (p.trim() !== "") lines.push(JSON.parse(p) as Record<string, unknown>)
  })
  const stop = async () => {
    child.kill("SIGTERM")
    const code = await Promise.race([exitOf(child), new Promise<string>((r) => setTimeout(() => r("still running"), 20_000))])
    expect(code).toBe(0)
  }
  return { child, lines, stop }
}

describe("the pipeline lock", () => {
  it("a lock holding the run's own pid (the pid was reused: bash wrote it, then exec'd the run) is stale: the run publishes", async () => {
    const dir = dataDir()
    const r = await runCli(dir, ["pipeline", "run", "--source", mini], { shellPrefix: `echo $$ > '${lockOf(dir)}'` })
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^published 2026-11-20: /)
    expect(existsSync(lockOf(dir)), "released").toBe(false)
  })

  it("a lock whose pid now belongs to a live process started after it was written, or that was written before a reboot, is stale", async () => {
    const dir = dataDir()
    const unrelated = spawnTracked("sleep", ["60"])
    const pid = unrelated.pid!
    const started = startTimeOf(pid)
    try {
      // the holder that wrote it had this pid and started one tick before this process: a reused pid
      writeFileSync(lockOf(dir), `${pid} ${started - 1} ${bootId()}\n`)
      const reused = await runCli(dir, ["pipeline", "run", "--source", mini])
      expect(reused.code, reused.stderr).toBe(0)
      expect(reused.stdout).toMatch(/^published 2026-11-20: /)
      expect(existsSync(lockOf(dir))).toBe(false)
      // the same process and start time, but another boot: the machine restarted since
      writeFileSync(lockOf(dir), `${pid} ${started} 00000000-0000-4000-8000-000000000000\n`)
      const rebooted = await runCli(dir, ["pipeline", "run", "--source", mini])
      expect(rebooted.code, rebooted.stderr).toBe(0)
      expect(rebooted.stdout).toMatch(/^unchanged: 2026-11-20 is already published/)
      expect(existsSync(lockOf(dir))).toBe(false)
      expect(unrelated.exitCode, "the unrelated process is left alone").toBeNull()
    } finally {
      unrelated.kill("SIGKILL")
    }
  })

  it("a live holder (a run in progress) turns a run away with exit 3 and makes a daemon tick skip; once it is killed, the next run takes over", async () => {
    const dir = dataDir()
    cmf.fault = { path: "fm_ident2.php", kind: "hang", times: 1 }
    let holder: ChildProcess | undefined
    const holding = runCli(dir, ["pipeline", "run", "--source", cmf.url], {
      env: { FDS_FETCH_TIMEOUT_MS: "60000", FDS_FETCH_RETRIES: "0", FDS_HISTORY_START: "2026-10-01" },
      onSpawn: (child) => {
        holder = child
      },
      timeoutMillis: 90_000,
    })
    try {
      const record = () => (existsSync(lockOf(dir)) ? readFileSync(lockOf(dir), "utf8") : "")
      const heldByHolder = () => record().split(/\s/u)[0] === String(holder!.pid)
      expect(await waitFor(async () => heldByHolder(), 30_000, 50), `lock: ${record()}`).toBe(true)
      expect(await waitFor(async () => cmf.requests.some((q) => q.path.endsWith("fm_ident2.php")), 30_000, 50)).toBe(true)

      const turnedAway = await runCli(dir, ["pipeline", "run", "--source", mini])
      expect([turnedAway.code, turnedAway.stderr]).toEqual([3, expect.stringContaining(`another pipeline process (pid ${holder!.pid}) holds`)])

      const daemon = startDaemon(dir)
      const skipped = () => daemon.lines.find((l) => l.msg === "run finished")
      expect(await waitFor(async () => skipped() !== undefined, 30_000, 50)).toBe(true)
      expect(skipped()).toMatchObject({ outcome: "skipped", reason: expect.stringContaining(`pid ${holder!.pid}`) })
      await daemon.stop()
      expect(heldByHolder(), "the holder's lock is untouched").toBe(true)
    } finally {
      holder?.kill("SIGKILL")
      cmf.fault = null
    }
    expect((await holding).signal).toBe("SIGKILL")
    const next = await runCli(dir, ["pipeline", "run", "--source", mini])
    expect(next.code, next.stderr).toBe(0)
    expect(next.stdout).toMatch(/^published 2026-11-20: /)
  }, 120_000)

  it("a daemon restarted with the pid of the one that died holding the lock (PID 1 in a container) takes it over and publishes", async () => {
    const dir = dataDir()
    // the dead daemon had this pid ($$ is the pid the new daemon runs as) and an earlier start time
    const daemon = startDaemon(dir, `echo "$$ 1 $(cat /proc/sys/kernel/random/boot_id)" > '${lockOf(dir)}'`)
    try {
      const finished = () => daemon.lines.find((l) => l.msg === "run finished")
      expect(await waitFor(async () => finished() !== undefined, 60_000, 50)).toBe(true)
      expect(finished()).toMatchObject({ outcome: "published" })
    } finally {
      await daemon.stop()
    }
    expect(existsSync(lockOf(dir))).toBe(false)
  }, 90_000)

  it("of two processes racing to take over the same stale lock, exactly one gets it, round after round", async () => {
    const rounds = 20
    const dirs = Array.from({ length: rounds }, () => dataDir())
    for (const [i, dir] of dirs.entries()) {
      // stale: a dead holder's record, in the current form or the older pid-only one
      writeFileSync(lockOf(dir), i % 2 === 0 ? `${deadPid()} 12345 ${bootId()}\n` : `${deadPid()}\n`)
    }
    const base = Date.now() + 4000 // both contenders are up by then
    const specs = dirs.map((dir, i) => `${base + i * 200}:${dir}`)
    const contender = join(root, "test", "ops", "support", "lockContender.ts")
    const contenders = [0, 1].map(() => spawnTracked(process.execPath, [contender, "2", ...specs]))
    const outputs = contenders.map((child) => {
      let out = ""
      let err = ""
      child.stdout!.on("data", (c: Buffer) => {
        out += c.toString()
      })
      child.stderr!.on("data", (c: Buffer) => {
        err += c.toString()
      })
      return () => ({ out, err })
    })
    const codes = await Promise.race([
      Promise.all(contenders.map(exitOf)),
      new Promise<string>((r) => setTimeout(() => r("timed out"), 80_000)),
    ])
    expect(codes, outputs.map((o) => o().err).join("\n")).toEqual([0, 0])
    const results = contenders.map((child, c) =>
      outputs[c]!()
        .out.trim()
        .split("\n")
        .map((l) => ({ pid: child.pid!, ...(JSON.parse(l) as { round: number; acquired: boolean; holder: number }) })),
    )
    for (let round = 0; round < rounds; round++) {
      const both = results.map((r) => r.find((x) => x.round === round)!)
      expect(both.filter((x) => x.acquired), `round ${round}: ${JSON.stringify(both)}`).toHaveLength(1)
      const winner = both.find((x) => x.acquired)!
      expect(both.find((x) => !x.acquired)!.holder, `round ${round}: the loser names the winner`).toBe(winner.pid)
      expect(existsSync(lockOf(dirs[round]!)), `round ${round}: released`).toBe(false)
    }
  }, 120_000)
})
