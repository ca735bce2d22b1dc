/**
 * Debian's haproxy (/usr/sbin/haproxy, installed by `make test` when missing) on a free port of
 * 127.0.0.1 in front of N backends, with a config file this helper writes: round-robin (or
 * `balance`), each backend health-checked on `checkPath` (default /readyz) every 200 ms (a check may
 * take 2 s), out after two failed checks, back after two good ones; `X-Forwarded-For` added.
 * `url` is the balancer's; `stop` ends it.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./ports.ts"

export const HAPROXY = "/usr/sbin/haproxy"

export interface Balancer {
  readonly url: string
  readonly process: ChildProcess
  readonly stop: () => Promise<void>
}


/** The test's haproxy configuration: round-robin over `backends`, checked on `checkPath`, listening on `port`. */
const testConfig = (port: number, options: BalancerOptions): string =>
  [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 30s",
    "  timeout server 30s",
    // a check's own time limit (without it, `inter`: a loaded machine would mark a good backend down)
    "  timeout check 2s",
    "  option forwardfor",
    "frontend api",
    `  bind 127.0.0.1:${port}`,
    "  default_backend replicas",
    "backend replicas",
    `  balance ${options.balance ?? "roundrobin"}`,
    `  option httpchk GET ${options.checkPath ?? "/readyz"}`,
    "  http-check expect status 200",
    ...options.backends.map((b, i) => `  server r${i} ${b} check inter 200ms fall 2 rise 2`),
    "",
  ].join("\n")

export interface BalancerOptions {
  /** host:port of each backend */
  readonly backends: ReadonlyArray<string>
  readonly checkPath?: string
  readonly balance?: string
}

/**
 * Debian's haproxy on a free port of 127.0.0.1, with the test's configuration for `backends`, or
 * with a configuration of the caller's (`config(port)`: a text that binds `port`).
 */
export const startHaproxy = async (options: BalancerOptions | { readonly config: (port: number) => string }): Promise<Balancer> => {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), "fds-haproxy-"))
  const config = join(dir, "haproxy.cfg")
  writeFileSync(config, "config" in options ? options.config(port) : testConfig(port, options))
  const child = spawn(HAPROXY, ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()))
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`)
    try {
      await fetch(`${url}/livez`, { signal: AbortSignal.timeout(1000) }).then((r) => r.text())
      break
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL")
        throw new Error(`haproxy did not start: ${output}`)
      }
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  // the first health checks pass before traffic is sent
  await new Promise((r) => setTimeout(r, 500))
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        }
        if (child.exitCode !== null || child.signalCode !== null) return done()
        child.once("exit", done)
        child.kill("SIGTERM")
      }),
  }
}
