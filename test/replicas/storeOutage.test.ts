/**
 * The PostgreSQL accounts store going away under API processes (`node api/main.ts serve`, what
 * `./fds serve` runs): a fast restart of the cluster under light load, the server closing idle
 * sessions itself (idle_session_timeout), and a partition (a relay that stops answering). No
 * process dies: keyed requests get 503 key_check_unavailable with Retry-After while the store is
 * away, 200 again once it is back (the pool opens new connections by itself), and the lost
 * connections are logged as JSON lines that never show the store's password.
 */
import { execFile } from "node:child_process"
import { connect, createServer, type Server, type Socket } from "node:net"
import { promisify } from "node:util"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, headerOf, type Reply } from "../accounts/support/accountsServer.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { expectErrorShape, waitFor } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { main, type Replica, root, startReplica, stopReplica } from "./support/replica.ts"

const DATA = "/api/asset_providers"
// Trust authentication accepts any password: this one only has to stay out of the logs.
const PASSWORD = "s3cret-store-pass"

const withPassword = (url: string) => url.replace("postgres://fds@", `postgres://fds:${PASSWORD}@`)

const alive = (replica: Replica) => replica.process.exitCode === null && replica.process.signalCode === null

/**
 * One keyed request every `everyMillis` to each replica until stopped; every reply kept in order,
 * with the time its request was sent (the test's own pg_ctl calls block its event loop: a reply
 * read after one of them may answer a request sent before it).
 */
const lightLoad = (replicas: ReadonlyArray<Replica>, key: string, everyMillis = 50) => {
  const replies: Array<Reply & { readonly sentAt: number }> = []
  let running = true
  const loops = replicas.map(async (replica) => {
    while (running && alive(replica)) {
      try {
        const sentAt = Date.now()
        replies.push({ ...(await call(replica.url + DATA, { headers: { "x-api-key": key } })), sentAt })
      } catch {
        // a refused connection is a dead process: `alive` ends the loop and the test says so
      }
      await new Promise((r) => setTimeout(r, everyMillis))
    }
  })
  return {
    replies,
    sentBetween: (from: number, to: number) => replies.filter((r) => r.sentAt > from && r.sentAt < to),
    stop: async () => {
      running = false
      await Promise.all(loops)
    },
  }
}

const expectKeyCheckUnavailable = (reply: Reply) => {
  expect(reply.status).toBe(503)
  expectErrorShape(reply.body, 503)
  expect((reply.body as { error: string }).error).toBe("key_check_unavailable")
  expect(Number(headerOf(reply, "retry-after"))).toBeGreaterThan(0)
}

/**
 * A TCP relay to the cluster that can be cut like a network partition: cut() drops the relayed
 * connections and from then on accepts new ones without ever answering; heal() relays again.
 */
const startRelay = async (target: URL) => {
  let cut = false
  const open = new Set<Socket>()
  const server: Server = createServer((socket) => {
    open.add(socket)
    socket.on("close", () => open.delete(socket))
    socket.on("error", () => socket.destroy())
    if (cut) return
    const upstream = connect(Number(target.port), target.hostname)
    open.add(upstream)
    upstream.on("close", () => {
      open.delete(upstream)
      socket.destroy()
    })
    upstream.on("error", () => upstream.destroy())
    socket.on("close", () => upstream.destroy())
    socket.pipe(upstream).pipe(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const dropAll = () => {
    for (const s of open) s.destroy()
  }
  return {
    url: (database: URL) => {
      const relayed = new URL(database)
      relayed.port = String(port)
      return relayed.href
    },
    cut: () => {
      cut = true
      dropAll()
    },
    heal: () => {
      cut = false
      dropAll()
    },
    close: () => {
      dropAll()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** `reply`, or a failure after `millis` (a request left hanging). */
const within = <A>(millis: number, reply: Promise<A>): Promise<A> =>
  Promise.race([reply, new Promise<A>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${millis} ms`)), millis).unref())])

const logLines = (replica: Replica) =>
  replica
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)

describe("the PostgreSQL accounts store going away under the API processes", () => {
  const fx = makeFixtureA()
  let cluster: TestPostgres | undefined
  const replicas: Replica[] = []

  const keys = async (url: string, ...args: string[]) => {
    const env = { ...process.env, FDS_DATA_DIR: fx.dataDir, FDS_ACCOUNTS_URL: url }
    const { stdout } = await promisify(execFile)(process.execPath, [main, "keys", ...args], { cwd: root, env, timeout: 20_000 })
    return stdout.trim()
  }
  const serve = async (url: string) => {
    const replica = await startReplica({ FDS_DATA_DIR: fx.dataDir, FDS_ACCOUNTS_URL: url, FDS_RATE_LIMIT_PER_SECOND: "0" })
    replicas.push(replica)
    return replica
  }

  beforeAll(async () => {
    cluster = await startPostgres()
  })
  afterAll(async () => {
    await Promise.all(replicas.map(stopReplica))
    cluster?.stop()
    fx.cleanup()
  })

  it("a fast restart of the cluster under load: both processes live on, 503 key_check_unavailable with Retry-After meanwhile, 200 after", async () => {
    const url = withPassword(await cluster!.createDatabase("restart"))
    const key = await keys(url, "create", "--email", "restart@example.cl")
    const [a, b] = [await serve(url), await serve(url)] as const
    const load = lightLoad([a, b], key)
    const bothAlive = () => expect([alive(a), alive(b)], `a:\n${a.output()}\nb:\n${b.output()}`).toEqual([true, true])
    let halted = false
    try {
      expect(await waitFor(async () => load.replies.filter((r) => r.status === 200).length >= 10, 10_000)).toBe(true)
      cluster!.halt("fast")
      halted = true
      const haltedAt = Date.now()
      await waitFor(async () => load.sentBetween(haltedAt, Infinity).length >= 10 || !alive(a) || !alive(b), 10_000)
      bothAlive()
      const restartAt = Date.now()
      cluster!.restart()
      halted = false
      const restartedAt = Date.now()
      expect(
        await waitFor(async () => load.sentBetween(restartedAt, Infinity).filter((r) => r.status === 200).length >= 10, 15_000),
        "answers return to 200 once the store is back",
      ).toBe(true)
      await load.stop()
      bothAlive()
      const duringOutage = load.sentBetween(haltedAt, restartAt)
      expect(duringOutage.length).toBeGreaterThanOrEqual(10)
      for (const reply of duringOutage) expectKeyCheckUnavailable(reply)
      // once answers are back they stay back: a connection lost in the restart is not handed out again
      const tail = load.replies.slice(-10)
      expect(tail.map((r) => r.status)).toEqual(Array(10).fill(200))
    } finally {
      await load.stop()
      if (halted) cluster!.restart()
    }
    for (const replica of [a, b]) {
      expect(replica.output()).not.toContain(PASSWORD)
      expect(replica.output()).not.toContain(key)
      expect(replica.output()).not.toContain("Unhandled 'error' event")
    }
    // the idle connections the server ended (57P01) are logged, as JSON lines
    const lost = [a, b].flatMap(logLines).filter((l) => l.msg === "accounts store connection lost")
    expect(lost.length).toBeGreaterThan(0)
    expect(lost.every((l) => l.level === "warn" && typeof l.error === "string")).toBe(true)
  }, 120_000)

  it("idle_session_timeout ends the pool's idle connections: the process lives on and the next requests are answered", async () => {
    const url = withPassword(await cluster!.createDatabase("idle"))
    const admin = new pg.Client({ connectionString: cluster!.url() })
    await admin.connect()
    try {
      await admin.query(`ALTER DATABASE ${new URL(url).pathname.slice(1)} SET idle_session_timeout = '1s'`)
    } finally {
      await admin.end()
    }
    const key = await keys(url, "create", "--email", "idle@example.cl")
    const replica = await serve(url)
    // several connections in the pool: a burst of requests at once
    const burst = await Promise.all(Array.from({ length: 8 }, () => call(replica.url + DATA, { headers: { "x-api-key": key } })))
    expect(burst.map((r) => r.status)).toEqual(Array(8).fill(200))
    // the server ends every idle session after 1 s (25P03); twice over, requests between
    for (let round = 0; round < 2; round++) {
      await new Promise((r) => setTimeout(r, 2500))
      expect(alive(replica), replica.output()).toBe(true)
      const next = await Promise.all(Array.from({ length: 4 }, () => call(replica.url + DATA, { headers: { "x-api-key": key } })))
      expect(next.map((r) => r.status)).toEqual(Array(4).fill(200))
    }
    expect(alive(replica), replica.output()).toBe(true)
    expect(replica.output()).not.toContain(PASSWORD)
    const lost = logLines(replica).filter((l) => l.msg === "accounts store connection lost")
    expect(lost.length).toBeGreaterThan(0)
  }, 120_000)

  it("a store that stops answering (a network partition): keyed requests answer 503 key_check_unavailable within seconds, 200 once it answers again", async () => {
    const direct = new URL(withPassword(await cluster!.createDatabase("partition")))
    const relay = await startRelay(direct)
    try {
      const url = relay.url(direct)
      const key = await keys(url, "create", "--email", "partition@example.cl")
      const replica = await serve(url)
      expect((await call(replica.url + DATA, { headers: { "x-api-key": key } })).status).toBe(200)
      relay.cut()
      const began = Date.now()
      // bounded here: before the pool had a connection timeout these waited for good
      const during = await Promise.all(Array.from({ length: 3 }, () => within(20_000, call(replica.url + DATA, { headers: { "x-api-key": key } }))))
      const waited = Date.now() - began
      for (const reply of during) expectKeyCheckUnavailable(reply)
      // the pool gives up connecting after 5 s: not a request left hanging
      expect(waited).toBeLessThan(10_000)
      relay.heal()
      expect(
        await waitFor(async () => (await call(replica.url + DATA, { headers: { "x-api-key": key } })).status === 200, 15_000, 200),
      ).toBe(true)
      expect(alive(replica), replica.output()).toBe(true)
      expect(replica.output()).not.toContain(PASSWORD)
    } finally {
      await relay.close()
    }
  }, 120_000)
})
