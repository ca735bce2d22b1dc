/**
 * The cache of past snapshots behind `?batch=` (api/snapshot/PastSnapshots.ts) on real snapshot
 * files (fixtures A and B, each with its manifest): opened on demand after the checks and kept;
 * never more than its places open, counting files evicted while still read; a request waits for
 * a place and gives up with 503 past_batches_busy; a file gone answers 410; a file altered after
 * it was published is refused without being checked again; a file changed on disk while open is
 * checked again. The leases are the snapshot handle's (the requests that waited for the file to
 * open included), and an evicted file's memo goes with its last lease.
 */
import { rmSync, utimesSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { type PastProblem, type PastSnapshot, PastSnapshots, pastLease } from "../../api/snapshot/PastSnapshots.ts"
import { VerifiedFiles } from "../../api/snapshot/VerifiedFiles.ts"
import { BatchNotRetained, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import type { PublishedBatch } from "../../snapshots/PublishedHistory.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { startServer } from "../support/server.ts"
import { makeFixtureA, type PublishedSnapshot, publishFixtureB } from "../support/snapshotFixture.ts"

const batchOf = (p: PublishedSnapshot, contentHash = p.finished.contentHash): PublishedBatch => ({
  id: p.finished.file.replace(/\.sqlite$/, ""),
  file: p.finished.file,
  batchDate: p.data.batchDate,
  contentHash,
  builtAt: null,
  publishedAt: "2026-01-01T00:00:00.000Z",
  supersededAt: null,
  currentIntervals: [{ from: "2026-01-01T00:00:00.000Z", to: null }],
  pipelineVersion: null,
  inputCount: null,
})

const isOpen = (x: PastSnapshot | PastProblem): x is PastSnapshot => !(x instanceof ServiceUnavailable || x instanceof BatchNotRetained)

const opened = (x: PastSnapshot | PastProblem): PastSnapshot => {
  if (!isOpen(x)) throw new Error(`not opened: ${x.message}`)
  return x
}

const fixtures: Array<{ cleanup: () => void }> = []
const twoBatches = () => {
  const fx = makeFixtureA()
  fixtures.push(fx)
  const b = publishFixtureB(fx.snapshotsDir)
  return { dir: fx.snapshotsDir, a: batchOf(fx.snapshot), b: batchOf(b) }
}
const caches: PastSnapshots[] = []
const cache = (dir: string, maxOpen: number, placeWaitMillis = 5000) => {
  const past = new PastSnapshots({ dir, maxOpen, verified: new VerifiedFiles(), placeWaitMillis })
  caches.push(past)
  return past
}
afterAll(async () => {
  await Promise.all(caches.map((c) => c.stop()))
  for (const fx of fixtures) fx.cleanup()
})

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("past snapshots", () => {
  it("opens a batch on demand after its checks, reads it through a lease, and keeps it open for the next request", async () => {
    const { dir, a } = twoBatches()
    const past = cache(dir, 2)
    const first = opened(await past.acquire(a))
    const lease = pastLease(first, past, dir)
    expect([lease.file, lease.contentHash]).toEqual([a.file, a.contentHash])
    expect(await Effect.runPromise(lease.read((r) => r.batchDate))).toBe(a.batchDate)
    expect(lease.intact()).toBe(true)
    past.release(first)
    const again = opened(await past.acquire(a))
    expect(again).toBe(first)
    expect(again.generation).toBe(first.generation)
    past.release(again)
    expect(past.openFiles()).toEqual([a.file])
  })

  it("never holds more files than its places: a request for another batch waits until the last read of the evicted one ends", async () => {
    const { dir, a, b } = twoBatches()
    const past = cache(dir, 1)
    const held = opened(await past.acquire(a))
    let answered: PastSnapshot | PastProblem | null = null
    const waiting = past.acquire(b).then((x) => {
      answered = x
      return x
    })
    await tick(150)
    // A is evicted but still read: it stays open, B waits for its place
    expect(answered).toBeNull()
    expect(past.openFiles()).toEqual([a.file])
    expect(held.reader!.isOpen).toBe(true)
    past.release(held)
    const other = opened(await waiting)
    expect(held.reader!.isOpen).toBe(false)
    expect(past.openFiles()).toEqual([b.file])
    expect(await Effect.runPromise(pastLease(other, past, dir).read((r) => r.batchDate))).toBe(b.batchDate)
    past.release(other)
    // a file nobody reads makes room at once
    const back = opened(await past.acquire(a))
    expect(other.reader!.isOpen).toBe(false)
    expect(past.openFiles()).toEqual([a.file])
    past.release(back)
  })

  it("answers 503 past_batches_busy when no place frees in time; the evicted file closes once its read ends", async () => {
    const { dir, a, b } = twoBatches()
    const past = cache(dir, 1, 200)
    const held = opened(await past.acquire(a))
    const began = performance.now()
    const refused = await past.acquire(b)
    expect(performance.now() - began).toBeGreaterThanOrEqual(190)
    expect(refused).toBeInstanceOf(ServiceUnavailable)
    expect(refused).toMatchObject({ reason: "past_batches_busy", retryAfter: 2 })
    past.release(held)
    expect(held.reader!.isOpen).toBe(false)
    expect(past.openFiles()).toEqual([])
    past.release(opened(await past.acquire(b)))
  })

  it("answers 410 with its hash and the rebuild command once its file is gone, and lets the file go", async () => {
    const { dir, a } = twoBatches()
    const past = cache(dir, 2)
    const entry = opened(await past.acquire(a))
    past.release(entry)
    rmSync(join(dir, a.file))
    const gone = await past.acquire(a)
    expect(gone).toBeInstanceOf(BatchNotRetained)
    expect((gone as BatchNotRetained).message).toContain(a.contentHash)
    expect((gone as BatchNotRetained).message).toContain(`./fds pipeline reproduce --date ${a.batchDate} --file ${a.file} --restore`)
    expect(entry.reader!.isOpen).toBe(false)
    expect(past.openFiles()).toEqual([])
  })

  it("refuses a file altered after it was published (503 batch_unreadable) and does not check it again until it changes", async () => {
    const { dir, a, b } = twoBatches()
    const db = new Database(join(dir, a.file))
    try {
      const first = db.prepare("SELECT asset_id, date FROM quotas ORDER BY asset_id, date LIMIT 1").get() as { asset_id: number; date: number }
      expect(db.prepare("UPDATE quotas SET price = price * 1.01 WHERE asset_id = ? AND date = ?").run(first.asset_id, first.date).changes).toBe(1)
    } finally {
      db.close()
    }
    const past = cache(dir, 2)
    const refused = await past.acquire(a)
    expect(refused).toMatchObject({ reason: "batch_unreadable" })
    expect((refused as ServiceUnavailable).message).toMatch(/content hash [0-9a-f]{64} differs from the manifest's/)
    // refused as it is: answered without a check (a check starts a thread and reads every row)
    const began = performance.now()
    expect(await past.acquire(a)).toMatchObject({ reason: "batch_unreadable" })
    expect(performance.now() - began).toBeLessThan(20)
    expect(past.openFiles()).toEqual([])
    // a manifest that does not give the ledger's hash is refused too
    expect(await past.acquire({ ...b, contentHash: "f".repeat(64) })).toMatchObject({ reason: "batch_unreadable" })
  })

  it("refuses a file whose manifest is gone without quoting the server's folder to the client", async () => {
    const { dir, a } = twoBatches()
    rmSync(join(dir, a.file.replace(/\.sqlite$/, ".manifest.json")))
    const refused = await cache(dir, 2).acquire(a)
    expect(refused).toMatchObject({ reason: "batch_unreadable" })
    const message = (refused as ServiceUnavailable).message
    expect(message).toContain(a.file.replace(/\.sqlite$/, ".manifest.json"))
    expect(message).not.toContain(dir)
    expect(message).not.toMatch(/\/[^\s]*\//)
  })

  it("a bad FDS_PAST_BATCHES_OPEN stops the server at start, naming it", async () => {
    const { dir } = twoBatches()
    for (const bad of ["0", "65", "four", "-1"]) {
      await expect(startServer({ dataDir: join(dir, ".."), env: { FDS_PAST_BATCHES_OPEN: bad } })).rejects.toThrow(
        `FDS_PAST_BATCHES_OPEN must be a whole number from 1 to 64, got ${JSON.stringify(bad)}`,
      )
    }
    const server = await startServer({ dataDir: join(dir, ".."), env: { FDS_PAST_BATCHES_OPEN: "64" } })
    await server.close()
  })

  it("checks a file again when it changed on disk while open, and opens it anew", async () => {
    const { dir, a } = twoBatches()
    const past = cache(dir, 2)
    const first = opened(await past.acquire(a))
    const lease = pastLease(first, past, dir)
    past.release(first)
    const later = new Date(Date.now() + 60_000)
    utimesSync(join(dir, a.file), later, later)
    // the lease a request holds says so (its 404s become 503s), and the file leaves the cache
    expect(lease.intact()).toBe(false)
    expect(first.reader!.isOpen).toBe(false)
    const second = opened(await past.acquire(a))
    expect(second).not.toBe(first)
    expect(second.generation).toBeGreaterThan(first.generation)
    past.release(second)
  })

  it("the requests that waited for a file being opened hold leases on its handle from its opening; it closes once the last ends", async () => {
    const { dir, a, b } = twoBatches()
    const past = cache(dir, 1)
    const first = past.acquire(a)
    // finds A being opened, and waits for it
    const second = past.acquire(a)
    let answered: PastSnapshot | PastProblem | null = null
    const other = past.acquire(b).then((x) => {
      answered = x
      return x
    })
    const x = opened(await first)
    const y = opened(await second)
    expect(y).toBe(x)
    // both leases are the handle's, taken as it opened: the request for B waits for the place
    expect(x.handle!.leases).toBe(2)
    await tick(150)
    expect(answered).toBeNull()
    expect(x.reader!.isOpen).toBe(true)
    past.release(x)
    expect(x.handle!.leases).toBe(1)
    await tick(100)
    expect(answered).toBeNull()
    expect(x.reader!.isOpen).toBe(true)
    past.release(y)
    const o = opened(await other)
    expect(x.reader!.isOpen).toBe(false)
    expect(past.openFiles()).toEqual([b.file])
    expect(o.handle!.leases).toBe(1)
    past.release(o)
    expect(o.handle!.leases).toBe(0)
  })

  it("an evicted file is retired: its memo is kept while it is read and dropped with its last lease; opened again, it computes anew", async () => {
    const { dir, a, b } = twoBatches()
    const past = cache(dir, 1)
    const held = opened(await past.acquire(a))
    const lease = pastLease(held, past, dir)
    const catalog = await Effect.runPromise(lease.read((r) => fiCatalog(r)))
    let computed = 0
    expect(lease.memo("test:answer", () => ++computed)).toBe(1)
    const waiting = past.acquire(b)
    await tick(150)
    // evicted for B, still read: retired, open, its memo whole (the reader's catalog is the handle's entry)
    expect(held.handle!.retired).toBe(true)
    expect(held.reader!.isOpen).toBe(true)
    expect(lease.memo("fi-catalog", () => null)).toBe(catalog)
    expect(lease.memo("test:answer", () => ++computed)).toBe(1)
    past.release(held)
    const other = opened(await waiting)
    expect(held.reader!.isOpen).toBe(false)
    expect(held.reader!.memo.isClosed).toBe(true)
    expect(held.reader!.memo.size).toBe(0)
    expect(lease.memo("fi-catalog", () => null)).toBeNull()
    past.release(other)
    const again = opened(await past.acquire(a))
    expect(again).not.toBe(held)
    expect(pastLease(again, past, dir).memo("test:answer", () => ++computed)).toBe(2)
    past.release(again)
  })
})
