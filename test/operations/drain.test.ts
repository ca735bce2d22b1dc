/**
 * A clean drain under load through a real haproxy: two `node api/main.ts serve` processes (what
 * ./fds serve runs) behind haproxy checking /readyz every 200 ms; one gets SIGTERM while clients
 * send requests without pause. Readiness fails at once, haproxy takes it out, it keeps serving
 * for FDS_DRAIN_SECONDS, then stops and exits 0; not one request fails. A second signal exits at once.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { type Balancer, HAPROXY, startHaproxy } from "../support/haproxy.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { main, type Replica, root, startReplica, stopReplica } from "../replicas/support/replica.ts"

const exitOf = (replica: Replica) =>
  new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    replica.process.once("exit", (code, signal) => resolve({ code, signal, at: Date.now() })),
  )

/** The figures the report quotes: printed whether the test passes or not (vitest keeps console output of passing tests). */
const figure = (text: string) => process.stdout.write(`${text}\n`)

describe.skipIf(!existsSync(HAPROXY))("SIGTERM drains behind haproxy", () => {
  const fx = makeFixtureA()
  const replicas: Replica[] = []
  let balancer: Balancer | undefined
  afterAll(async () => {
    await balancer?.stop()
    await Promise.all(replicas.map(stopReplica))
    fx.cleanup()
  })

  it("0 failed requests; exits 0 after the grace period", async () => {
    const env = { FDS_DATA_DIR: fx.dataDir, FDS_RATE_LIMIT_PER_SECOND: "0", FDS_DRAIN_SECONDS: "2" }
    replicas.push(...(await Promise.all([startReplica(env), startReplica(env)])))
    balancer = await startHaproxy({ backends: replicas.map((r) => new URL(r.url).host) })
    const [leaving] = replicas as [Replica, Replica]
    const { stdout } = await promisify(execFile)(process.execPath, [main, "keys", "create", "--email", "drain@example.cl", "--tier", "internal"], {
      cwd: root,
      env: { ...process.env, ...env },
    })
    const key = stdout.trim()
    let running = true
    let ok = 0
    const failed: string[] = []
    const client = async () => {
      while (running) {
        try {
          const r = await fetch(`${balancer?.url}/api/asset_providers`, { headers: { "x-api-key": key } })
          const body = await r.text()
          if (r.status === 200) ok++
          else failed.push(`${r.status} ${body.slice(0, 160)}`)
        } catch (e) {
          failed.push(String(e))
        }
      }
    }
    const clients = Array.from({ length: 8 }, client)
    await new Promise((r) => setTimeout(r, 1000))
    const signalledAt = Date.now()
    const exited = exitOf(leaving)
    leaving.process.kill("SIGTERM")
    // readiness fails at once, while it still serves
    await new Promise((r) => setTimeout(r, 300))
    const ready = await fetch(`${leaving.url}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ reasons: ["draining: the process is shutting down"] })
    const exit = await exited
    await new Promise((r) => setTimeout(r, 1000))
    running = false
    await Promise.all(clients)
    figure(
      `drain: ${ok} requests answered 200 through haproxy, ${failed.length} failed; the replica exited ${exit.code} ${((exit.at - signalledAt) / 1000).toFixed(2)} s after SIGTERM (FDS_DRAIN_SECONDS=2)`,
    )
    expect(failed).toEqual([])
    expect(exit).toMatchObject({ code: 0, signal: null })
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(2000)
    expect(leaving.output()).toContain("drained: exiting 0")
  }, 60_000)

  it("a second signal exits at once", async () => {
    const replica = await startReplica({ FDS_DATA_DIR: fx.dataDir, FDS_DRAIN_SECONDS: "30" })
    replicas.push(replica)
    const exited = exitOf(replica)
    const at = Date.now()
    replica.process.kill("SIGTERM")
    await new Promise((r) => setTimeout(r, 200))
    replica.process.kill("SIGTERM")
    const exit = await exited
    expect(exit.code).toBe(143)
    expect(exit.at - at).toBeLessThan(5000)
  }, 60_000)
})
