/**
 * snapshots/fleet/Pg.ts under a PostgreSQL fast shutdown: clients checked out of the pool in the
 * middle of a transaction (what the fleet's propose and decide do) lose their connection, and
 * the process must not see an uncaught 'error'; the LISTEN connection comes back by itself once
 * the server is back, and a NOTIFY sent then reaches it.
 */
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { durablePool, listenDurably } from "../../snapshots/fleet/Pg.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { waitFor } from "../support/server.ts"

describe("PostgreSQL connections that outlive the server", () => {
  let cluster: TestPostgres | undefined
  beforeAll(async () => {
    cluster = await startPostgres()
  })
  afterAll(() => cluster?.stop())

  it("a fast shutdown under transactions on checked-out clients raises no uncaught error; queries work again after a restart", async () => {
    const url = await cluster!.createDatabase("durable")
    const lost: Array<string | null> = []
    const pool = durablePool({ connectionString: url, max: 4 }, (e) => lost.push(e.code))
    const uncaught: unknown[] = []
    const onUncaught = (e: unknown) => uncaught.push(e)
    process.on("uncaughtException", onUncaught)
    let running = true
    let committed = 0
    const loops = Array.from({ length: 4 }, async () => {
      while (running) {
        const client = await pool.connect().catch(() => null)
        if (client === null) {
          await new Promise((r) => setTimeout(r, 50))
          continue
        }
        try {
          // most of the time between statements (a transaction's own work): a connection lost
          // then has no query to fail, and pg emits 'error' on the client
          await client.query("begin")
          await client.query("select 1")
          await new Promise((r) => setTimeout(r, 50))
          await client.query("commit")
          committed++
          client.release()
        } catch (e) {
          client.release(e as Error)
        }
      }
    })
    try {
      expect(await waitFor(async () => committed >= 8, 10_000)).toBe(true)
      cluster!.halt("fast")
      await new Promise((r) => setTimeout(r, 1_000))
      cluster!.restart()
      const before = committed
      expect(await waitFor(async () => committed >= before + 8, 15_000), "transactions commit again after the restart").toBe(true)
    } finally {
      running = false
      await Promise.all(loops)
      process.off("uncaughtException", onUncaught)
      await pool.end()
    }
    expect(uncaught).toEqual([])
    // the clients in use were told by the server (57P01 admin_shutdown) or saw the socket close
    // between statements, each reported once
    expect(lost.length).toBeGreaterThanOrEqual(1)
    expect(lost.length).toBeLessThanOrEqual(4)
    expect(lost.every((code) => code === "57P01" || code === null)).toBe(true)
  }, 60_000)

  it("the LISTEN connection is lost once in a restart, listens again by itself, and hears a NOTIFY sent after", async () => {
    const url = await cluster!.createDatabase("listen")
    const heard: Array<string | undefined> = []
    let listened = 0
    let lostCount = 0
    const listener = listenDurably(
      url,
      "fds_test",
      { onNotice: (p) => heard.push(p), onListening: () => listened++, onLost: () => lostCount++ },
      200,
    )
    const notify = async (payload: string) => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      try {
        await c.query("select pg_notify('fds_test', $1)", [payload])
      } finally {
        await c.end()
      }
    }
    try {
      expect(await waitFor(async () => listener.listening(), 10_000)).toBe(true)
      await notify("one")
      expect(await waitFor(async () => heard.includes("one"), 5_000)).toBe(true)
      cluster!.halt("fast")
      expect(await waitFor(async () => !listener.listening(), 5_000)).toBe(true)
      // attempts every 200 ms while the server is down: each fails, none is counted as listening
      await new Promise((r) => setTimeout(r, 1_000))
      cluster!.restart()
      expect(await waitFor(async () => listener.listening(), 15_000)).toBe(true)
      await notify("two")
      expect(await waitFor(async () => heard.includes("two"), 5_000)).toBe(true)
    } finally {
      await listener.close()
    }
    expect(heard).toEqual(["one", "two"])
    expect(listened).toBe(2)
    expect(lostCount).toBe(1)
    // closed: no attempt after close
    expect(listener.listening()).toBe(false)
  }, 60_000)
})
