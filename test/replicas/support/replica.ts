/**
 * An API process as `./fds serve` runs it (`node api/main.ts serve`, PORT=0 on 127.0.0.1) for the
 * replica and fault tests: its URL read from the "Listening on" log line, ready once it answers;
 * its output kept for the test to read; stopped with SIGTERM (SIGKILL after 10 s). Its drain is
 * 0 s unless the test sets FDS_DRAIN_SECONDS (test/operations/drain.test.ts does): a replica stops
 * at once rather than keep serving 5 s for a balancer, which each stop used to wait for (~70 s of
 * `make test`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { logChildOutput } from "../../support/testLog.ts"

export const root = join(import.meta.dirname, "..", "..", "..")
export const main = join(root, "api", "main.ts")

export interface Replica {
  readonly url: string
  readonly process: ChildProcess
  readonly output: () => string
}

export const startReplica = async (env: Record<string, string>): Promise<Replica> => {
  const child = spawn(process.execPath, [main, "serve"], {
    cwd: root,
    env: { ...process.env, FDS_DRAIN_SECONDS: "0", ...env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  })
  logChildOutput(child, `serve (pid ${child.pid})`)
  let output = ""
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()))
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()))
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline && child.exitCode === null) {
    const url = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
    if (url !== undefined) {
      try {
        const r = await fetch(`${url}/api/key/info`, { signal: AbortSignal.timeout(2000) })
        await r.text()
        if (r.status === 401) return { url, process: child, output: () => output }
      } catch {
        // not answering yet
      }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill("SIGKILL")
  throw new Error(`replica did not start:\n${output}`)
}

export const stopReplica = (replica: Replica | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (replica === undefined || replica.process.exitCode !== null || replica.process.signalCode !== null) return resolve()
    const timer = setTimeout(() => replica.process.kill("SIGKILL"), 10_000)
    replica.process.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    replica.process.kill("SIGTERM")
  })
