/**
 * `./fds serve` as a child process (`node api/main.ts serve`, what ./fds runs once its toolchain
 * is installed): a port already in use is named with its host and the variable to change (it
 * printed only "fds: "), bad limits are refused, and the connection limits of the environment
 * reach the server.
 */
import { spawn } from "node:child_process"
import { once } from "node:events"
import { type AddressInfo, connect, createServer } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { logChildOutput } from "../support/testLog.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))
const fx = makeFixtureA()
afterAll(() => fx.cleanup())

/** Runs `serve` with `env` until it exits (or `timeoutMillis`); its exit code and stderr. */
const serveUntilExit = (env: Record<string, string>, timeoutMillis = 20_000) =>
  new Promise<{ readonly code: number | null; readonly stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "api", "main.ts"), "serve"], {
      cwd: root,
      env: { ...process.env, FDS_DATA_DIR: fx.dataDir, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    })
    logChildOutput(child, `serve (pid ${child.pid})`)
    let stderr = ""
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`serve did not exit: ${stderr}`))
    }, timeoutMillis)
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, stderr })
    })
  })

describe("./fds serve", () => {
  it("on a port in use exits 2 naming the port, the host and PORT", async () => {
    const taken = createServer()
    taken.listen(0, "127.0.0.1")
    await once(taken, "listening")
    const port = (taken.address() as AddressInfo).port
    try {
      const { code, stderr } = await serveUntilExit({ PORT: String(port), HOST: "127.0.0.1" })
      expect(code).toBe(2)
      expect(stderr).toContain(`fds: port ${port} on 127.0.0.1 is in use (EADDRINUSE); set PORT`)
    } finally {
      taken.close()
    }
  }, 30_000)

  it("refuses a headers timeout longer than the request timeout, and a negative cap", async () => {
    const longer = await serveUntilExit({ PORT: "0", FDS_HEADERS_TIMEOUT_MS: "40000", FDS_REQUEST_TIMEOUT_MS: "30000" })
    expect(longer.code).toBe(2)
    expect(longer.stderr).toContain("fds: FDS_HEADERS_TIMEOUT_MS=40000 is not valid: at most FDS_REQUEST_TIMEOUT_MS (30000)")
    const negative = await serveUntilExit({ PORT: "0", FDS_MAX_CONNECTIONS_PER_IP: "-1" })
    expect(negative.code).toBe(2)
    expect(negative.stderr).toContain("fds: FDS_MAX_CONNECTIONS_PER_IP=-1 is not valid: a whole number ≥ 0 (0: no cap)")
  }, 30_000)

  it("applies FDS_MAX_CONNECTIONS_PER_IP and FDS_HEADERS_TIMEOUT_MS", async () => {
    const child = spawn(process.execPath, [join(root, "api", "main.ts"), "serve"], {
      cwd: root,
      env: { ...process.env, FDS_DATA_DIR: fx.dataDir, PORT: "0", FDS_MAX_CONNECTIONS_PER_IP: "2", FDS_HEADERS_TIMEOUT_MS: "500" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    logChildOutput(child, `serve (pid ${child.pid})`)
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = ""
        const onData = (chunk: Buffer) => {
          out += chunk.toString()
          const m = /Listening on http:\/\/[0-9.]+:(\d+)/.exec(out)
          if (m) resolve(Number(m[1]))
        }
        child.stdout!.on("data", onData)
        child.stderr!.on("data", onData)
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)))
        setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 20_000)
      })
      const opened = Date.now()
      const sockets = await Promise.all(
        [0, 1, 2].map(
          (i) =>
            new Promise<{ closedAt: Promise<number>; got: () => string }>((resolve) => {
              // one after the other: the third is the one over the cap
              setTimeout(() => {
                let got = ""
                const socket = connect(port, "127.0.0.1", () => {
                  socket.write("GET /health HTTP/1.1\r\nHost: x\r\n")
                  resolve({ closedAt, got: () => got })
                })
                socket.on("data", (chunk: Buffer) => {
                  got += chunk.toString("latin1")
                })
                socket.on("error", () => {})
                const closedAt = new Promise<number>((r) => socket.on("close", () => r(Date.now())))
              }, i * 100)
            }),
        ),
      )
      const closes = await Promise.all(sockets.map((s) => s.closedAt))
      expect(closes[2]! - opened, "the third is closed at once").toBeLessThan(450)
      expect(sockets[2]!.got()).toBe("")
      for (const i of [0, 1]) {
        expect(sockets[i]!.got()).toMatch(/^HTTP\/1\.1 408 /)
        expect(closes[i]! - opened).toBeGreaterThanOrEqual(450)
        expect(closes[i]! - opened).toBeLessThan(3000)
      }
    } finally {
      child.kill("SIGKILL")
    }
  }, 40_000)
})
