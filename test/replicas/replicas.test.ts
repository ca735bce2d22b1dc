/**
 * Two API processes (`node api/main.ts serve` with PORT=0, what `./fds serve` runs) on one PostgreSQL accounts
 * store and one snapshot folder: the requests of one key spread over both are each counted once,
 * the limit holds across them, and a key revoked with `./fds keys revoke` (node api/main.ts keys
 * revoke) against the shared store is refused by both at once.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "../accounts/support/accountsServer.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { main, type Replica, root, startReplica, stopReplica } from "./support/replica.ts"

const DATA = "/api/asset_providers"

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
