/**
 * The fleet on one PostgreSQL accounts store, through a real haproxy:
 *   - the per-IP limit (10/s, bursts of 20) holds across three `node api/main.ts serve` processes
 *     behind round-robin: one client address gets at most the spec's rate through the balancer,
 *     with the spec's 429 (Retry-After: 1, no X-RateLimit-*, the JSON error body);
 *   - a server started while the store cannot be reached waits for it (a log line each try),
 *     alive (/livez 200) but not ready (/readyz 503), and serves once it answers.
 *   - a limit no client reaches refuses nothing through the shared buckets (their cost per request
 *     beside each process's own is measured by `make bench`: test/bench/postgres.ts).
 */
import { execFile, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Balancer, HAPROXY, startHaproxy } from "../support/haproxy.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { logChildOutput } from "../support/testLog.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { main, type Replica, root, startReplica, stopReplica } from "../replicas/support/replica.ts"

/** The figures the report quotes: printed whether the test passes or not (vitest keeps console output of passing tests). */
const figure = (text: string) => process.stdout.write(`${text}\n`)

describe.skipIf(!existsSync(HAPROXY))("the fleet on one PostgreSQL behind haproxy", () => {
  const fx = makeFixtureA()
  let cluster: TestPostgres | undefined
  let url = ""
  const replicas: Replica[] = []
  let balancer: Balancer | undefined
  beforeAll(async () => {
    cluster = await startPostgres()
    url = await cluster.createDatabase("fleet")
  })
  afterAll(async () => {
    await balancer?.stop()
    await Promise.all(replicas.map(stopReplica))
    cluster?.stop()
    fx.cleanup()
  })

  it("one address gets at most 10/s with bursts of 20 across three replicas", async () => {
    // haproxy's X-Forwarded-For is believed: the client's address is the limit's key, as in production
    const env = { FDS_DATA_DIR: fx.dataDir, FDS_ACCOUNTS_URL: url, FDS_TRUSTED_PROXIES: "127.0.0.1" }
    // one after the other: three starting at once on a loaded machine may exceed startReplica's 30 s
    const three: Replica[] = []
    for (let i = 0; i < 3; i++) three.push(await startReplica(env))
    replicas.push(...three)
    balancer = await startHaproxy({ backends: three.map((r) => new URL(r.url).host) })
    const send = () => fetch(`${balancer?.url}/health`).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.text() }))

    const began = Date.now()
    const burst = await Promise.all(Array.from({ length: 60 }, send))
    const seconds = (Date.now() - began) / 1000
    const served = burst.filter((r) => r.status === 200).length
    const refused = burst.filter((r) => r.status === 429)
    figure(`fleet limit: 60 requests at once from one address through haproxy to 3 replicas: ${served} served, ${refused.length} refused (${seconds.toFixed(2)} s)`)
    // per process, as before, it would serve up to 60 (20 a replica)
    expect(served).toBeGreaterThanOrEqual(20)
    expect(served).toBeLessThanOrEqual(20 + Math.ceil(10 * seconds) + 1)
    expect(served + refused.length).toBe(60)
    const one = refused[0]
    expect(one?.headers.get("retry-after")).toBe("1")
    expect([...(one?.headers.keys() ?? [])].filter((h) => h.startsWith("x-ratelimit"))).toEqual([])
    expect(JSON.parse(one?.body ?? "{}")).toMatchObject({ error: "rate_limited", status: 429 })

    // then a steady 30/s for 3 s: about 10/s served, whichever replica answers
    await new Promise((r) => setTimeout(r, 2_100)) // the bucket full again
    const steady: Array<Promise<{ status: number }>> = []
    const start = Date.now()
    while (Date.now() - start < 3_000) {
      steady.push(send())
      await new Promise((r) => setTimeout(r, 33))
    }
    const steadyServed = (await Promise.all(steady)).filter((r) => r.status === 200).length
    const elapsed = (Date.now() - start) / 1000
    figure(`fleet limit: ${steady.length} requests over ${elapsed.toFixed(1)} s from one address: ${steadyServed} served`)
    expect(steadyServed).toBeLessThanOrEqual(20 + Math.ceil(10 * elapsed) + 1)
  }, 120_000)

  it("a limit no client reaches refuses nothing: 400 requests, 4 at a time, through the shared buckets all answer 200", async () => {
    // its cost per request beside the per-process buckets is measured by `make bench` (test/bench/postgres.ts)
    const base = { FDS_DATA_DIR: fx.dataDir, FDS_ACCOUNTS_URL: url, FDS_RATE_LIMIT_PER_SECOND: "1000000", FDS_RATE_LIMIT_BURST: "1000000" }
    const shared = await startReplica({ ...base, FDS_RATE_LIMIT_STORE: "shared" })
    replicas.push(shared)
    const statuses: number[] = []
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 100; i++) {
          const r = await fetch(`${shared.url}/health`)
          await r.arrayBuffer()
          statuses.push(r.status)
        }
      }),
    )
    expect(statuses.length).toBe(400)
    expect(statuses.filter((s) => s !== 200)).toEqual([])
  }, 120_000)

  it("started with the store unreachable: waits with a log line, alive but not ready, serves once it answers", async () => {
    cluster?.halt()
    const child = spawn(process.execPath, [main, "serve"], {
      cwd: root,
      env: { ...process.env, FDS_DATA_DIR: fx.dataDir, FDS_ACCOUNTS_URL: url, PORT: "0", HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    logChildOutput(child, `serve (pid ${child.pid})`)
    let output = ""
    child.stdout?.on("data", (d: Buffer) => (output += d.toString()))
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()))
    replicas.push({ url: "", process: child, output: () => output })
    const until = async (what: () => boolean | Promise<boolean>, ms = 30_000) => {
      const deadline = Date.now() + ms
      while (!(await what())) {
        if (Date.now() > deadline) throw new Error(`timed out:\n${output}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    await until(() => /"port bound[^"]*","url":"http:\/\/127\.0\.0\.1:\d+"/.test(output) && output.includes("cannot be reached; trying again"), 90_000)
    const base = /"port bound[^"]*","url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1] ?? ""
    expect((await fetch(`${base}/livez`)).status).toBe(200)
    expect((await fetch(`${base}/readyz`)).status).toBe(503)
    expect(output).not.toContain("at ") // no stack trace
    expect(child.exitCode).toBeNull()
    cluster?.restart()
    await until(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200, 90_000)
    const { stdout } = await promisify(execFile)(process.execPath, [main, "keys", "create", "--email", "late@example.cl"], {
      cwd: root,
      env: { ...process.env, FDS_DATA_DIR: fx.dataDir, FDS_ACCOUNTS_URL: url },
    })
    expect((await fetch(`${base}/api/asset_providers`, { headers: { "x-api-key": stdout.trim() } })).status).toBe(200)
  }, 120_000)
})
