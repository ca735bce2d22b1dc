/** Shared pieces of `make bench`: the project's programs, child servers, autocannon rounds, medians. */
import autocannon from "autocannon"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..", "..")

/** The load of the HTTP parts: BENCH_SECONDS per round (5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (50). */
export const loadSettings = () => ({
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
})

/** Runs one of the project's programs (`script` from the repository root) in `env`: its output, trimmed. */
export const runCli = (env: NodeJS.ProcessEnv, script: string, ...args: string[]): string =>
  execFileSync(process.execPath, [join(root, script), ...args], { env, encoding: "utf8", maxBuffer: 1 << 26 }).trim()

/** The sample at `scale` generated under `work` and published into env's data directory; the run's output. */
export const publishSample = (env: NodeJS.ProcessEnv, work: string, scale: "small" | "full" = "small"): string => {
  runCli(env, "pipeline/main.ts", "sample", "--out", join(work, "sample"), "--scale", scale)
  return runCli(env, "pipeline/main.ts", "pipeline", "run", "--source", join(work, "sample"))
}

/**
 * The small sample generated under `work` and built for two days into env's data directory
 * (2026-11-19, then the sample's last day, which CURRENT names): two snapshots to swap between.
 */
export const publishTwoDays = (env: NodeJS.ProcessEnv, work: string): void => {
  runCli(env, "pipeline/main.ts", "sample", "--out", join(work, "sample"))
  runCli(env, "pipeline/main.ts", "pipeline", "run", "--source", join(work, "sample"), "--date", "2026-11-19")
  runCli(env, "pipeline/main.ts", "pipeline", "run", "--source", join(work, "sample"))
}

/** Key options of a quota no bench reaches: every request is counted and none refused. */
export const COUNTED_KEY = ["--tier", "institutional", "--quota", "1000000000"] as const

/** A key for the load generator (`internal`, no daily limit, unless `options` say otherwise). */
export const benchKey = (env: NodeJS.ProcessEnv, options: ReadonlyArray<string> = ["--tier", "internal"]): string =>
  runCli(env, "api/main.ts", "keys", "create", "--email", "bench@example.com", ...options)

/**
 * `./fds serve` on an ephemeral port, the per-IP limit off (one load generator on one address
 * would be answered 429 after its first 20 requests).
 */
export const startApi = (env: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}) =>
  startProcess([join(root, "api/main.ts"), "serve"], { ...env, PORT: "0", FDS_RATE_LIMIT_PER_SECOND: "0", ...extra })

export interface Round {
  readonly requestsPerSecond: number
  readonly p50: number
  readonly p99: number
  readonly non2xx: number
  readonly errors: number
}

export const startProcess = (args: string[], env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    // Only the output up to the "Listening on" line is kept and searched; after it the streams are
    // drained unread (a server logging a line per request would otherwise have the bench process
    // search an ever-growing text on every chunk, slowing the load generator beside it).
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const m = /Listening on (http:\/\/[0-9.]+:\d+)/.exec(out)
      if (m) {
        child.stdout!.off("data", onData)
        child.stderr!.off("data", onData)
        child.stdout!.resume()
        child.stderr!.resume()
        resolve({ url: m[1]!, child })
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
  })

/** One bounded load round on loopback; `extra`: further autocannon options (a method and body, rotating requests). */
export const round = (
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  extra: Partial<autocannon.Options> = {},
) =>
  new Promise<Round>((resolve, reject) => {
    autocannon({ url, headers, duration: seconds, connections, pipelining: 1, ...extra }, (err, result) => {
      if (err) return reject(err)
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      })
    })
  })

/** Medians of a server's rounds (throughput, p50, p99) and the sums of its failures. */
export const summarizeRounds = (rs: ReadonlyArray<Round>) => ({
  requests_per_second: median(rs.map((r) => r.requestsPerSecond)),
  p50_ms: median(rs.map((r) => r.p50)),
  p99_ms: median(rs.map((r) => r.p99)),
  non_2xx: rs.reduce((n, r) => n + r.non2xx, 0),
  errors: rs.reduce((n, r) => n + r.errors, 0),
})

/**
 * CPU milliseconds a process has used (Linux /proc, 100 ticks a second), NaN elsewhere. CPU per
 * request is steadier than throughput on a small shared machine, where the load generator and the
 * servers compete for the same cores.
 */
export const cpuMs = (pid: number | undefined): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** One finished child process as `runMeasured` saw it. */
export interface MeasuredRun {
  readonly code: number | null
  readonly wallMs: number
  /** Peak resident set (VmHWM) in MB (10^6 bytes, as the pipeline's rss_mb), last read before exit; null where /proc is missing. */
  readonly peakRssMb: number | null
  /**
   * Peak of the resident sets of the process and its descendants together (a build's child
   * processes: the parse ahead), sampled every poll (VmRSS summed), and never below `peakRssMb`.
   */
  readonly peakTreeRssMb: number | null
  readonly stdout: string
  /** Each stderr line with the milliseconds since spawn at which it arrived. */
  readonly stderrLines: ReadonlyArray<{ readonly atMs: number; readonly text: string }>
}

const peakRssKb = (pid: number): number | null => {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m ? Number(m[1]) : null
  } catch {
    return null // gone already, or no /proc
  }
}

const statusKb = (pid: number, field: string): number | null => {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m ? Number(m[1]) : null
  } catch {
    return null
  }
}

/** The process and its descendants, from /proc/<pid>/task/<tid>/children. */
const treeOf = (pid: number): number[] => {
  const out = [pid]
  for (let i = 0; i < out.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${out[i]}/task`)) {
        const children = readFileSync(`/proc/${out[i]}/task/${tid}/children`, "utf8").trim()
        if (children !== "") out.push(...children.split(/\s+/).map(Number))
      }
    } catch {
      // gone meanwhile
    }
  }
  return out
}

/** The resident sets of the process and its descendants, summed (kB). */
const treeRssKb = (pid: number): number | null => {
  let sum = 0
  let any = false
  for (const p of treeOf(pid)) {
    const kb = statusKb(p, "VmRSS")
    if (kb !== null) {
      sum += kb
      any = true
    }
  }
  return any ? sum : null
}

/**
 * Runs `node <args>` to its end: wall time, and peak RSS from /proc/<pid>/status VmHWM (a
 * high-water mark, so polling every `pollMs` loses nothing but growth in the last interval).
 * Output is kept up to `keepBytes` per stream (the oldest stdout / stderr lines are dropped past it).
 */
export const runMeasured = (args: string[], env: NodeJS.ProcessEnv, pollMs = 200, keepBytes = 8_000_000) =>
  new Promise<MeasuredRun>((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] })
    let peakKb: number | null = null
    let treeKb: number | null = null
    const poll = () => {
      const kb = child.pid === undefined ? null : peakRssKb(child.pid)
      if (kb !== null) peakKb = Math.max(peakKb ?? 0, kb)
      const tree = child.pid === undefined ? null : treeRssKb(child.pid)
      if (tree !== null) treeKb = Math.max(treeKb ?? 0, tree)
    }
    poll()
    const timer = setInterval(poll, pollMs)
    let stdout = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.length > keepBytes) stdout = stdout.slice(-keepBytes)
    })
    const lines: Array<{ atMs: number; text: string }> = []
    let kept = 0
    let partial = ""
    const push = (text: string) => {
      lines.push({ atMs: Math.round(performance.now() - started), text })
      kept += text.length
      while (kept > keepBytes && lines.length > 1) kept -= lines.shift()!.text.length
    }
    child.stderr!.on("data", (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split("\n")
      partial = parts.pop()!
      for (const p of parts) push(p)
    })
    child.on("error", (e) => {
      clearInterval(timer)
      reject(e)
    })
    child.on("close", (code) => {
      clearInterval(timer)
      if (partial !== "") push(partial)
      const wallMs = Math.round(performance.now() - started)
      const mb = (kb: number | null) => (kb === null ? null : Math.round((kb * 1024) / 1e6))
      const tree = peakKb === null && treeKb === null ? null : Math.max(peakKb ?? 0, treeKb ?? 0)
      resolve({ code, wallMs, peakRssMb: mb(peakKb), peakTreeRssMb: mb(tree), stdout, stderrLines: lines })
    })
  })
