/** Shared pieces of `make bench`: child servers, autocannon rounds, medians. */
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"

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
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const m = /Listening on (http:\/\/[0-9.]+:\d+)/.exec(out)
      if (m) resolve({ url: m[1]!, child })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)))
  })

/** One bounded load round on loopback. */
export const round = (url: string, headers: Record<string, string>, seconds: number, connections: number) =>
  new Promise<Round>((resolve, reject) => {
    autocannon({ url, headers, duration: seconds, connections, pipelining: 1 }, (err, result) => {
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

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
