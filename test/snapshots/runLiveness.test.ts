/**
 * When a `running` STATUS.json is believed (snapshots/RunLiveness.ts, through readStatus): while
 * the pipeline lock names that run's live process. A real process (a sleeping child) stands for
 * the run: alive and named by the lock, it is running; the lock gone or naming another process,
 * or the process dead, it is killed; a run recorded in another pid namespace is trusted while
 * the lock names it (its pid cannot be looked up from here).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { formatOwner } from "../../snapshots/LockOwner.ts"
import { pidNamespace, type RunProcessRef, runIsGone } from "../../snapshots/RunLiveness.ts"
import { type PipelineStatus, readStatus, writeStatus } from "../../snapshots/Status.ts"

const work = mkdtempSync(join(tmpdir(), "fds-liveness-"))
const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) c.kill("SIGKILL")
  rmSync(work, { recursive: true, force: true })
})

const startTimeOf = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!
}
const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim()

/** A live process standing for a run, as STATUS.json would record it. */
const aRun = async (): Promise<{ child: ChildProcess; run: RunProcessRef }> => {
  const child = spawn("sleep", ["60"], { stdio: "ignore" })
  children.push(child)
  await new Promise((resolve) => child.once("spawn", resolve))
  return { child, run: { pid: child.pid!, start_time: startTimeOf(child.pid!), boot_id: bootId, pid_namespace: pidNamespace() } }
}

let cases = 0
const dataDir = (): string => {
  const dir = join(work, `d${++cases}`)
  mkdirSync(join(dir, "snapshots"), { recursive: true })
  return dir
}
const lock = (dir: string, run: RunProcessRef) =>
  writeFileSync(join(dir, "pipeline.lock"), formatOwner({ pid: run.pid, startTime: run.start_time, bootId: run.boot_id }))

const running = (run: RunProcessRef): PipelineStatus => ({
  outcome: "running",
  batch_date: "2026-11-19",
  file: "2026-11-19-0123456789abcdef.sqlite",
  reason: null,
  started_at: "2026-11-21T10:30:00.000Z",
  finished_at: null,
  pipeline_version: "0.7.0",
  process: run,
})

describe("a running status is believed while its run lives", () => {
  it("the lock names the live run: running", async () => {
    const dir = dataDir()
    const { run } = await aRun()
    lock(dir, run)
    expect(runIsGone(dir, run)).toBe(false)
    writeStatus(join(dir, "snapshots"), running(run))
    expect(readStatus(join(dir, "snapshots"))?.outcome).toBe("running")
  })

  it("no lock, or a lock naming another process: killed", async () => {
    const dir = dataDir()
    const { run } = await aRun()
    expect(runIsGone(dir, run)).toBe(true)
    const other = await aRun()
    lock(dir, other.run)
    expect(runIsGone(dir, run)).toBe(true)
    writeStatus(join(dir, "snapshots"), running(run))
    const status = readStatus(join(dir, "snapshots"))
    expect(status).toMatchObject({ outcome: "killed", finished_at: null, batch_date: "2026-11-19" })
    expect(status?.reason).toBe(
      `the run started at 2026-11-21T10:30:00.000Z (pid ${run.pid}) ended without finishing: killed (out of memory, SIGKILL, or the machine stopped); CURRENT names what it named before, or the batch it had published`,
    )
  })

  it("the lock left behind by a run that died: killed here; trusted from another pid namespace", async () => {
    const dir = dataDir()
    const { child, run } = await aRun()
    lock(dir, run)
    child.kill("SIGKILL")
    await new Promise((resolve) => child.once("exit", resolve))
    expect(runIsGone(dir, run)).toBe(true)
    const elsewhere = { ...run, pid_namespace: "pid:[1]" }
    lock(dir, elsewhere)
    expect(runIsGone(dir, elsewhere)).toBe(false)
  })

  it("this very process (a run without the lock, as tests run it): running", () => {
    const dir = dataDir()
    const me: RunProcessRef = { pid: process.pid, start_time: startTimeOf(process.pid), boot_id: bootId, pid_namespace: pidNamespace() }
    expect(runIsGone(dir, me)).toBe(false)
  })
})
