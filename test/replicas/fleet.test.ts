/**
 * The fleet's agreement on its current batch (docs/replicas.md, "One batch across the fleet"):
 * two API processes (`node api/main.ts serve`) on one PostgreSQL, each on its own data folder,
 * the first with FDS_FLEET_ROLE=primary. Checked through their HTTP answers and the fleet's
 * tables: a batch the primary's folder publishes is held ready, not served, until the replica
 * holds it too, then both switch; a replica that never gets the batch is left out when the
 * deadline passes and answers 503 not_in_step (never the older batch); a rollback on the primary
 * goes through the same step; a member that stops leaves the fleet.
 */
import { copyFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { createKeyIn } from "../support/fleet.ts"
import { fixtureA, fixtureB, makeDataDir, type PublishedSnapshot, publishSnapshot } from "../support/snapshotFixture.ts"
import { type Replica, startReplica, stopReplica } from "./support/replica.ts"

// biome-ignore lint/suspicious/noExplicitAny: answers are plain JSON
type Json = any

const health = async (r: Replica): Promise<Json> => (await fetch(`${r.url}/health`)).json()

const waitUntil = async (what: string, ok: () => Promise<boolean>, millis = 20_000): Promise<number> => {
  const began = performance.now()
  while (performance.now() - began < millis) {
    if (await ok()) return performance.now() - began
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Copies a batch's file and manifest into another data folder and names it in CURRENT, as `follow` does. */
const bringIn = (from: string, to: string, file: string) => {
  copyFileSync(join(from, file), join(to, file))
  copyFileSync(join(from, file.replace(/\.sqlite$/, ".manifest.json")), join(to, file.replace(/\.sqlite$/, ".manifest.json")))
  publishCurrent(to, file)
}

describe("the fleet switches together (PostgreSQL decides the current batch)", () => {
  const primaryDir = makeDataDir()
  const replicaDir = makeDataDir()
  let cluster: TestPostgres | undefined
  let url = ""
  let a: PublishedSnapshot
  let primary: Replica | undefined
  let replica: Replica | undefined
  let key = ""
  let db: pg.Client

  const data = (r: Replica) => fetch(`${r.url}/api/asset_providers`, { headers: { "x-api-key": key } })

  beforeAll(async () => {
    cluster = await startPostgres()
    url = await cluster.createDatabase("fleet")
    a = publishSnapshot(primaryDir.snapshotsDir, fixtureA())
    bringIn(primaryDir.snapshotsDir, replicaDir.snapshotsDir, a.finished.file)
    const env = { FDS_ACCOUNTS_URL: url, FDS_RATE_LIMIT_PER_SECOND: "0", FDS_STALE_AFTER_HOURS: "1000000", FDS_FLEET_SWITCH_TIMEOUT_SECONDS: "4" }
    primary = await startReplica({ ...env, FDS_DATA_DIR: primaryDir.dataDir, FDS_FLEET_ROLE: "primary" })
    replica = await startReplica({ ...env, FDS_DATA_DIR: replicaDir.dataDir })
    key = await createKeyIn({ FDS_ACCOUNTS_URL: url, FDS_DATA_DIR: primaryDir.dataDir })
    db = new pg.Client({ connectionString: url })
    await db.connect()
  })
  afterAll(async () => {
    await db?.end()
    await Promise.all([stopReplica(primary), stopReplica(replica)])
    cluster?.stop()
    primaryDir.cleanup()
    replicaDir.cleanup()
  })

  it("a fresh fleet makes the batch both hold current; both serve it", async () => {
    await waitUntil("both serve A", async () => {
      const [p, r] = await Promise.all([health(primary!), health(replica!)])
      return p.last_scraped_date === a.data.batchDate && r.last_scraped_date === a.data.batchDate
    })
    const { rows } = await db.query("SELECT seq, batch_id FROM fleet_current")
    expect(rows).toEqual([{ seq: "1", batch_id: a.finished.file.replace(".sqlite", "") }])
    expect((await data(replica!)).status).toBe(200)
  })

  it("a new batch on the primary is held ready until the replica holds it; then both switch", async () => {
    const b = publishSnapshot(primaryDir.snapshotsDir, fixtureB())
    const idB = b.finished.file.replace(".sqlite", "")
    await waitUntil("the proposal of B", async () => (await db.query("SELECT batch_id FROM fleet_proposal")).rows[0]?.batch_id === idB)
    // the primary checked B and holds it, but keeps serving A: the replica does not hold B yet
    await new Promise((r) => setTimeout(r, 500))
    expect((await health(primary!)).last_scraped_date).toBe(a.data.batchDate)
    expect((await data(primary!)).status).toBe(200)

    const decided = performance.now()
    bringIn(primaryDir.snapshotsDir, replicaDir.snapshotsDir, b.finished.file)
    await waitUntil("both serve B", async () => {
      const [p, r] = await Promise.all([health(primary!), health(replica!)])
      return p.last_scraped_date === b.data.batchDate && r.last_scraped_date === b.data.batchDate
    })
    // from the replica's copy to both serving: its check, the decision and the NOTIFY
    expect(performance.now() - decided).toBeLessThan(10_000)
    const decisions = await db.query("SELECT seq, batch_id, kind FROM fleet_decisions ORDER BY seq")
    expect(decisions.rows.map((r) => [r.batch_id, r.kind])).toEqual([
      [a.finished.file.replace(".sqlite", ""), "publish"],
      [idB, "publish"],
    ])
  })

  it("a rollback on the primary goes through the same step; a replica that does not hold it is left out and answers 503, never the other batch", async () => {
    const idA = a.finished.file.replace(".sqlite", "")
    // the primary's CURRENT back to A (what `pipeline rollback` writes); the replica's folder is not told
    publishCurrent(primaryDir.snapshotsDir, a.finished.file)
    await waitUntil("the rollback decided after the deadline", async () => (await db.query("SELECT batch_id FROM fleet_current")).rows[0]?.batch_id === idA)
    const kinds = await db.query("SELECT kind FROM fleet_decisions ORDER BY seq DESC LIMIT 1")
    expect(kinds.rows[0]?.kind).toBe("rollback")
    await waitUntil("the primary serves A", async () => (await health(primary!)).last_scraped_date === a.data.batchDate)
    // the replica still holds only B: out of step, it refuses rather than answer from B
    const refused = await data(replica!)
    expect(refused.status).toBe(503)
    expect(refused.headers.get("retry-after")).toBe("1")
    expect(((await refused.json()) as Json).error).toBe("not_in_step")
    // once it holds A again (follow names it), it serves A
    publishCurrent(replicaDir.snapshotsDir, a.finished.file)
    await waitUntil("the replica serves A", async () => (await data(replica!)).status === 200)
    expect((await health(replica!)).last_scraped_date).toBe(a.data.batchDate)
  })

  it("every member lists the fleet's history; a batch the fleet retains that a replica lacks answers 503 batch_fetching, then from the batch once it is brought in", async () => {
    const c = publishSnapshot(primaryDir.snapshotsDir, { ...fixtureB(), batchDate: "2031-01-10" })
    const idC = c.finished.file.replace(".sqlite", "")
    // the replica never gets C: the fleet switches without it at the deadline
    await waitUntil("C decided", async () => (await db.query("SELECT batch_id FROM fleet_current")).rows[0]?.batch_id === idC)
    await waitUntil("the primary serves C", async () => (await health(primary!)).last_scraped_date === "2031-01-10")
    const list = async (r: Replica) => ((await (await fetch(`${r.url}/api/batches`, { headers: { "x-api-key": key } })).json()) as Json).data
    await waitUntil("both list C", async () => (await list(replica!))[0]?.id === idC && (await list(primary!))[0]?.id === idC)
    const [onPrimary, onReplica] = [await list(primary!), await list(replica!)]
    // the same history on both (the fleet's decisions), newest first: C, then A (rolled back to), then B
    const idA = a.finished.file.replace(".sqlite", "")
    expect(onReplica.map((b: Json) => b.id)).toEqual([idC, onPrimary[1].id, onPrimary[2].id])
    expect(onReplica.map((b: Json) => [b.id, b.attributes.published_at, b.attributes.superseded_at])).toEqual(
      onPrimary.map((b: Json) => [b.id, b.attributes.published_at, b.attributes.superseded_at]),
    )
    expect(onReplica.find((b: Json) => b.id === idA).attributes.superseded_at).not.toBeNull()
    // C is retained by the fleet (the primary holds it), so the replica lists it retained and fetches it
    expect(onReplica[0].attributes.retained).toBe(true)
    const pinned = () => fetch(`${replica!.url}/api/asset_providers?batch=${idC}`, { headers: { "x-api-key": key } })
    const fetching = await pinned()
    expect(fetching.status).toBe(503)
    expect(fetching.headers.get("retry-after")).toBe("5")
    expect(((await fetching.json()) as Json).error).toBe("batch_fetching")
    // a batch the fleet never had is still a 404
    const unknown = await fetch(`${replica!.url}/api/asset_providers?batch=2031-01-11-0123456789abcdef`, { headers: { "x-api-key": key } })
    expect(unknown.status).toBe(404)
    bringIn(primaryDir.snapshotsDir, replicaDir.snapshotsDir, c.finished.file)
    await waitUntil("the replica answers C", async () => (await pinned()).status === 200)
  })

  it("a replica's own newer batch never becomes the fleet's, a second primary is refused, and a member holding a batch the fleet does not serve checks it once", async () => {
    const current = (await db.query("SELECT batch_id FROM fleet_current")).rows[0]?.batch_id as string
    const rogueDir = makeDataDir()
    const twinDir = makeDataDir()
    let rogue: Replica | undefined
    let twin: Replica | undefined
    try {
      // a careless `pipeline run` on a replica: a newer batch nobody else has
      const own = publishSnapshot(rogueDir.snapshotsDir, { ...fixtureB(), batchDate: "2031-02-03" })
      const env = { FDS_ACCOUNTS_URL: url, FDS_RATE_LIMIT_PER_SECOND: "0", FDS_STALE_AFTER_HOURS: "1000000", FDS_FLEET_SWITCH_TIMEOUT_SECONDS: "4" }
      // and a second primary on an older folder; started together (neither will serve the fleet's
      // batch, so each binds its port after the 10 s a member waits for it)
      bringIn(primaryDir.snapshotsDir, twinDir.snapshotsDir, a.finished.file)
      const started = await Promise.allSettled([
        startReplica({ ...env, FDS_DATA_DIR: rogueDir.dataDir }),
        startReplica({ ...env, FDS_DATA_DIR: twinDir.dataDir, FDS_FLEET_ROLE: "primary" }),
      ])
      rogue = started[0].status === "fulfilled" ? started[0].value : undefined
      twin = started[1].status === "fulfilled" ? started[1].value : undefined
      for (const s of started) if (s.status === "rejected") throw s.reason
      // longer than the switch timeout: a proposal would have been decided by now
      await new Promise((r) => setTimeout(r, 6_000))
      expect((await db.query("SELECT batch_id FROM fleet_current")).rows[0]?.batch_id).toBe(current)
      expect((await db.query("SELECT batch_id FROM fleet_proposal")).rows).toEqual([])
      expect((await db.query("SELECT 1 FROM fleet_batches WHERE batch_id = $1", [own.finished.file.replace(".sqlite", "")])).rows).toEqual([])
      expect(twin!.output()).toContain("another FDS_FLEET_ROLE=primary member is live")
      // neither serves another batch than the fleet's; both say they are out of step
      for (const member of [rogue!, twin!]) {
        const res = await data(member)
        expect(res.status).toBe(503)
        expect(((await res.json()) as Json).error).toBe("not_in_step")
        expect((await fetch(`${member.url}/readyz`)).status).toBe(503)
        // the fleet's current batch is the current one in their list too
        const listed = ((await (await fetch(`${member.url}/api/batches`, { headers: { "x-api-key": key } })).json()) as Json).data
        expect(listed.filter((b: Json) => b.attributes.current).map((b: Json) => b.id)).toEqual([current])
      }
      // the batch it holds ready is checked once, not again and again in a fallback loop
      expect(rogue!.output().match(/"msg":"checking snapshot"/g)?.length ?? 0).toBeLessThanOrEqual(2)
    } finally {
      await Promise.all([stopReplica(rogue), stopReplica(twin)])
      rogueDir.cleanup()
      twinDir.cleanup()
    }
  })

  it("a member that stops leaves the fleet's members", async () => {
    const before = await db.query("SELECT count(*)::int AS n FROM fleet_members")
    expect(before.rows[0]?.n).toBe(2)
    await stopReplica(replica)
    replica = undefined
    const after = await db.query("SELECT count(*)::int AS n FROM fleet_members")
    expect(after.rows[0]?.n).toBe(1)
  })
})
