/**
 * Two API processes (`node api/main.ts serve` with PORT=0, what `./fds serve` runs) on one PostgreSQL accounts
 * store and one snapshot folder: the requests of one key spread over both are each counted once,
 * the limit holds across them, and a key revoked with `./fds keys revoke` (node api/main.ts keys
 * revoke) against the shared store is refused by both at once.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../accounts/support/accountsServer.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"

const root = join(import.meta.dirname, "..", "..")
const main = join(root, "api", "main.ts")
const DATA = "/api/asset_providers"

interface Replica {
  readonly url: string
  readonly process: ChildProcess
  readonly output: () => string
}

/** `node api/main.ts serve` with PORT=0; its URL from the "Listening on" log line, then ready when it answers. */
const startReplica = async (env: Record<string, string>): Promise<Replica> => {
  const child = spawn(process.execPath, [main, "serve"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  })
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

const stopReplica = (replica: Replica | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (replica === undefined || replica.process.exitCode !== null) return resolve()
    const timer = setTimeout(() => replica.process.kill("SIGKILL"), 10_000)
    replica.process.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
    replica.process.kill("SIGTERM")
  })

describe("two API replicas on one PostgreSQL and one snapshot folder", () => {
  const fx = makeFixtureA()
  let cluster: TestPostgres | undefined
  let env: Record<string, string> = {}
  const replicas: Replica[] = []

  const keys = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [main, "keys", ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 20_000 })
    return stdout
  }
  const get = (replica: Replica, path: string, key: string) => call(replica.url + path, { headers: { "x-api-key": key } })

  beforeAll(async () => {
    cluster = await startPostgres()
    env = {
      FDS_DATA_DIR: fx.dataDir,
      FDS_ACCOUNTS_URL: await cluster.createDatabase("replicas"),
      // Every request comes from 127.0.0.1: the per-IP limit is not what is tested here.
      FDS_RATE_LIMIT_PER_SECOND: "0",
    }
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env)])))
  })
  afterAll(async () => {
    await Promise.all(replicas.map(stopReplica))
    cluster?.stop()
    fx.cleanup()
  })

  it("N requests of one key spread over both replicas consume exactly N units; the limit holds across them", async () => {
    const [a, b] = replicas as [Replica, Replica]
    const key = (await keys("create", "--email", "shared@example.cl", "--quota", "40")).trim()
    const lookup = key.slice(4, 12)
    const N = 30
    const first = await Promise.all(Array.from({ length: N }, (_, i) => get(i % 2 === 0 ? a : b, DATA, key)))
    expect(first.map((r) => r.status)).toEqual(Array(N).fill(200))
    for (const replica of [a, b]) {
      expect((await get(replica, "/api/key/info", key)).body).toMatchObject({ daily_quota: 40, requests_today: N })
    }
    const usage = await keys("usage", lookup, "--days", "1")
    expect(usage.trim().split("\n")[1]?.split(/\s+/)).toEqual([lookup, expect.stringMatching(/^\d{4}-\d\d-\d\d$/), String(N)])

    // 20 more at once against the 10 units left: exactly 10 served, 10 refused with 429, none past the limit.
    const second = await Promise.all(Array.from({ length: 20 }, (_, i) => get(i % 2 === 0 ? a : b, DATA, key)))
    const statuses = second.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(10)
    expect(second.filter((r) => r.status === 429).every((r) => (r.body as { error: string }).error === "quota_exceeded")).toBe(true)
    for (const replica of [a, b]) {
      expect((await get(replica, DATA, key)).status).toBe(429)
      expect((await get(replica, "/api/key/info", key)).body).toMatchObject({ requests_today: 40 })
    }
  })

  it("a key revoked with `keys revoke` against the shared store is refused by both replicas at once", async () => {
    const [a, b] = replicas as [Replica, Replica]
    const key = (await keys("create", "--email", "revoked@example.cl")).trim()
    expect((await get(a, DATA, key)).status).toBe(200)
    expect((await get(b, DATA, key)).status).toBe(200)
    expect(await keys("revoke", key.slice(4, 12))).toBe(`revoked ${key.slice(4, 12)}\n`)
    const after = await Promise.all([get(a, DATA, key), get(b, DATA, key)])
    expect(after.map((r) => r.status)).toEqual([401, 401])
  })
})
