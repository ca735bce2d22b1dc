/**
 * Each daemon tick in a child process of its own (RunChild.ts), with a memory limit
 * (FDS_PIPELINE_MAX_MEMORY_MB): V8's heap is capped (`--max-old-space-size`), and the resident
 * memory of the child and the processes it starts (its parse-ahead child) is read from /proc every
 * 250 ms; over the limit, the child is killed. A child that dies without its result (the limit,
 * the kernel's OOM killer, a signal, a crash) fails that run, not the daemon: its `running`
 * STATUS.json is written as `killed` with the cause, the daemon logs it and takes the next tick
 * (the next run takes the dead run's lock over). Stopping the daemon sends SIGTERM, which
 * interrupts the run; a child still there 30 s later is killed.
 */
import { type ChildProcess, fork } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { killedStatus, readStatusFile, writeStatus } from "../../snapshots/Status.ts"
import type { RetryPolicy } from "./Retry.ts"
import { santiagoToday } from "./RunConfig.ts"
import type { ChildMessage, RunTick, TickResult } from "./Tick.ts"

const CHILD = join(import.meta.dirname, "RunChild.ts")
const WATCH_MILLIS = 250
const STOP_GRACE_MILLIS = 30_000

export interface ChildTickOptions {
  readonly dataDir: string
  readonly retry: RetryPolicy
  /** The child's memory limit in MB (its heap and its resident memory with its own children); 0: none. */
  readonly maxMemoryMb: number
}

const readOrNull = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return null
  }
}

/** Resident memory (bytes) of `pid` and its descendants, from /proc; null where /proc does not say. */
export const treeRssBytes = (pid: number): number | null => {
  const status = readOrNull(`/proc/${pid}/status`)
  if (status === null) return null
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/mu.exec(status)?.[1] ?? 0)
  let total = kb * 1024
  for (const child of (readOrNull(`/proc/${pid}/task/${pid}/children`) ?? "").trim().split(/\s+/u)) {
    if (child !== "") total += treeRssBytes(Number(child)) ?? 0
  }
  return total
}

/** Why a child ended without its result. */
const causeOf = (code: number | null, signal: NodeJS.Signals | null, overLimit: string | null, maxMemoryMb: number): string => {
  if (overLimit !== null) return `killed: ${overLimit}`
  // V8 aborts (SIGABRT, or exit code 134 through a shell) when the heap reaches --max-old-space-size
  if (signal === "SIGABRT" || code === 134) {
    return `killed: out of memory (its heap reached the limit${maxMemoryMb > 0 ? `, FDS_PIPELINE_MAX_MEMORY_MB=${maxMemoryMb}` : ""})`
  }
  if (signal === "SIGKILL") return "killed by SIGKILL (the kernel's OOM killer, or an operator)"
  if (signal !== null) return `killed by ${signal}`
  return `killed: its process exited with code ${code} before it finished`
}

/** STATUS.json's `running` of this child, written as `killed` with the cause. */
const recordKilled = (dataDir: string, pid: number, cause: string): void => {
  const dir = join(dataDir, "snapshots")
  try {
    const status = readStatusFile(dir)
    if (status?.outcome === "running" && status.process?.pid === pid) writeStatus(dir, killedStatus(status, cause))
  } catch {
    // the daemon's log says it all the same
  }
}

export const childTick =
  (options: ChildTickOptions): RunTick =>
  (run, signal, log) =>
    new Promise<TickResult>((resolve) => {
      const limit = options.maxMemoryMb
      const execArgv = [
        ...process.execArgv.filter((a) => !a.startsWith("--max-old-space-size")),
        ...(limit > 0 ? [`--max-old-space-size=${limit}`] : []),
      ]
      const child: ChildProcess = fork(CHILD, [JSON.stringify({ run, retry: options.retry })], {
        execArgv,
        // the environment is the daemon's (inherited): the child reads the same settings
        // the daemon's stdout holds its JSON lines only: whatever the run prints goes to stderr
        stdio: ["ignore", 2, 2, "ipc"],
        serialization: "advanced",
      })
      log("info", "run started", { run, today: santiagoToday(), pid: child.pid ?? null })
      let result: TickResult | null = null
      let overLimit: string | null = null
      let peak = 0
      child.on("message", (m: ChildMessage) => {
        if (m.type === "log") log(m.level, m.msg, m.fields)
        else result = m.result
      })
      const watch =
        limit > 0
          ? setInterval(() => {
              const rss = child.pid === undefined ? null : treeRssBytes(child.pid)
              if (rss === null) return
              peak = Math.max(peak, rss)
              if (rss > limit * 1024 * 1024 && overLimit === null) {
                overLimit = `its resident memory (${Math.round(rss / 1048576)} MB) went over FDS_PIPELINE_MAX_MEMORY_MB=${limit}`
                child.kill("SIGKILL")
              }
            }, WATCH_MILLIS)
          : undefined
      let forced: NodeJS.Timeout | undefined
      const onAbort = () => {
        child.kill("SIGTERM")
        forced = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MILLIS)
      }
      signal.addEventListener("abort", onAbort, { once: true })
      child.on("error", (e) => log("error", "run child failed", { run, reason: String(e) }))
      child.on("close", (code, sig) => {
        clearInterval(watch)
        clearTimeout(forced)
        signal.removeEventListener("abort", onAbort)
        if (result !== null) return resolve(result)
        if (signal.aborted && sig === "SIGTERM") return resolve({ level: "warn", fields: { outcome: "interrupted" }, published: null })
        const cause = causeOf(code, sig, overLimit, limit)
        if (child.pid !== undefined) recordKilled(options.dataDir, child.pid, cause)
        resolve({
          level: "error",
          fields: { outcome: "killed", reason: cause, exit_code: code, signal: sig, ...(peak > 0 ? { peak_rss_mb: Math.round(peak / 1048576) } : {}) },
          published: null,
        })
      })
    })
