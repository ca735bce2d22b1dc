/**
 * The snapshot swap: a new CURRENT is picked up by the running server; a snapshot that fails its
 * checks is refused and the previous one keeps serving; leases pin a snapshot and a retired one
 * closes when its last lease ends or after the drain window.
 */
import { it as effectIt } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { SnapshotStore } from "../../api/snapshot/SnapshotStore.ts"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { writeManifest } from "../../snapshots/Manifest.ts"
import { publishCurrent } from "../../snapshots/Pointer.ts"
import {
  type CreatedKey,
  createKey,
  expectErrorShape,
  get,
  header,
  type RunningServer,
  startServer,
  waitFor,
} from "../support/server.ts"
import {
  type FixtureData,
  fixtureA,
  fixtureB,
  makeDataDir,
  makeFixtureA,
  manifestFor,
  publishFixtureB,
  publishGarbageSnapshot,
  publishSnapshot,
  testCrc32,
  writeSnapshotFile,
} from "../support/snapshotFixture.ts"

const POLL = 40
const asset8043A = testCrc32("fm:8043:A")

interface HealthBody {
  status: string
  last_scraped_date: string | null
  total_records: number
}
interface DaysBody {
  data: Array<{ attributes: { date: string; price: number } }>
  meta: { batch_date: string }
}

/** B's content under another batch date: a valid snapshot, different from A and B. */
const variant = (batchDate: string): FixtureData => ({ ...fixtureB(), batchDate })

describe("swap in the running server", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let key: CreatedKey
  const errors: string[] = []

  const health = async (): Promise<HealthBody> => (await get(server.url + "/health")).body as HealthBody
  const lastDays = async (): Promise<DaysBody> => {
    const res = await get(`${server.url}/api/real_assets/${asset8043A}/days`, { "x-api-key": key.key })
    expect(res.status).toBe(200)
    return res.body as DaysBody
  }
  /** Waits (bounded) until the store logs that it refused `file`. */
  const refused = (file: string): Promise<boolean> =>
    waitFor(async () => errors.some((e) => e.includes("refused") && e.includes(file)), 5000)

  beforeAll(async () => {
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      errors.push(args.map(String).join(" "))
    })
    key = await createKey(fx.dataDir, { email: "swap@example.cl" })
    server = await startServer({ dataDir: fx.dataDir, pollMillis: POLL, drainMillis: 200 })
  })
  afterAll(async () => {
    await server?.close()
    vi.restoreAllMocks()
    fx.cleanup()
  })

  it("serves A, then B once B is published (file + manifest + CURRENT)", async () => {
    expect((await health()).last_scraped_date).toBe("2026-02-06")
    expect((await lastDays()).meta.batch_date).toBe("2026-02-06")

    const b = publishFixtureB(fx.snapshotsDir)
    expect(await waitFor(async () => (await health()).last_scraped_date === b.data.batchDate, 5000)).toBe(true)
    expect(await health()).toEqual({
      status: "ok",
      last_scraped_date: "2026-02-09",
      batch_id: b.finished.file.replace(/\.sqlite$/, ""),
      total_records: b.totalRecords,
      reasons: [],
      sources: [],
    })
    const days = await lastDays()
    expect(days.meta.batch_date).toBe("2026-02-09")
    expect(days.data.at(-1)!.attributes).toEqual({ date: "2026-02-09", price: 1004.125 })
  })

  it("a file with a snapshot name but garbage bytes is refused; B keeps serving", async () => {
    const file = publishGarbageSnapshot(fx.snapshotsDir, "2026-02-10")
    expect(await refused(file)).toBe(true)
    expect((await health()).last_scraped_date).toBe("2026-02-09")
    expect((await lastDays()).meta.batch_date).toBe("2026-02-09")
  })

  it("a snapshot whose manifest row counts disagree is refused; B keeps serving", async () => {
    const data = variant("2026-02-11")
    const finished = writeSnapshotFile(fx.snapshotsDir, data)
    const manifest = manifestFor(finished, data.batchDate)
    writeManifest(fx.snapshotsDir, {
      ...manifest,
      row_counts: { ...manifest.row_counts, quotas: (manifest.row_counts.quotas ?? 0) + 1 },
    })
    publishCurrent(fx.snapshotsDir, finished.file)
    expect(await refused(finished.file)).toBe(true)
    expect((await health()).last_scraped_date).toBe("2026-02-09")
  })

  it("a snapshot without a manifest is refused; B keeps serving", async () => {
    const finished = writeSnapshotFile(fx.snapshotsDir, variant("2026-02-12"))
    publishCurrent(fx.snapshotsDir, finished.file)
    expect(await refused(finished.file)).toBe(true)
    expect((await health()).last_scraped_date).toBe("2026-02-09")
  })

  it("a manifest whose hash is not the file's is refused; B keeps serving", async () => {
    const data = variant("2026-02-13")
    const finished = writeSnapshotFile(fx.snapshotsDir, data)
    writeManifest(fx.snapshotsDir, { ...manifestFor(finished, data.batchDate), content_hash: "f".repeat(64) })
    publishCurrent(fx.snapshotsDir, finished.file)
    expect(await refused(finished.file)).toBe(true)
    expect((await health()).last_scraped_date).toBe("2026-02-09")
  })

  it("a manifest naming another batch date is refused; B keeps serving", async () => {
    const data = variant("2026-02-14")
    const finished = writeSnapshotFile(fx.snapshotsDir, data)
    writeManifest(fx.snapshotsDir, { ...manifestFor(finished, data.batchDate), batch_date: "2026-02-15" })
    publishCurrent(fx.snapshotsDir, finished.file)
    expect(await refused(finished.file)).toBe(true)
    expect((await health()).last_scraped_date).toBe("2026-02-09")
  })

  it("a refused snapshot is looked at again once its manifest is fixed and CURRENT re-published", async () => {
    const data = variant("2026-02-15")
    const finished = writeSnapshotFile(fx.snapshotsDir, data)
    publishCurrent(fx.snapshotsDir, finished.file) // no manifest yet: refused
    expect(await refused(finished.file)).toBe(true)
    expect((await health()).last_scraped_date).toBe("2026-02-09")
    await new Promise((r) => setTimeout(r, 20)) // a later mtime for the files written next
    writeManifest(fx.snapshotsDir, manifestFor(finished, data.batchDate))
    publishCurrent(fx.snapshotsDir, finished.file)
    expect(await waitFor(async () => (await health()).last_scraped_date === "2026-02-15", 5000)).toBe(true)
  })

  it("after refusals, the next valid snapshot is swapped in", async () => {
    const good = publishSnapshot(fx.snapshotsDir, variant("2026-02-16"))
    expect(await waitFor(async () => (await health()).last_scraped_date === "2026-02-16", 5000)).toBe(true)
    expect((await lastDays()).meta.batch_date).toBe(good.data.batchDate)
  })

  it("rolling CURRENT back to a retained older snapshot serves it again", async () => {
    publishCurrent(fx.snapshotsDir, fx.snapshot.finished.file)
    expect(await waitFor(async () => (await health()).last_scraped_date === "2026-02-06", 5000)).toBe(true)
    const days = await lastDays()
    expect(days.meta.batch_date).toBe("2026-02-06")
    expect(days.data.at(-1)!.attributes).toEqual({ date: "2026-02-06", price: 1003.5 })
  })
})

describe("the file watch alone notices a new CURRENT", () => {
  const fx = makeFixtureA()
  let server: RunningServer

  beforeAll(async () => {
    // the poll is far longer than the test: only fs.watch can trigger the swap
    server = await startServer({ dataDir: fx.dataDir, pollMillis: 600_000 })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("swaps to B without waiting for the poll", async () => {
    publishFixtureB(fx.snapshotsDir)
    const swapped = await waitFor(
      async () => ((await get(server.url + "/health")).body as HealthBody).last_scraped_date === "2026-02-09",
      5000,
    )
    expect(swapped).toBe(true)
  })
})

describe("a server started before anything is published", () => {
  const fx = makeDataDir()
  let server: RunningServer
  let key: CreatedKey

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "empty@example.cl" })
    server = await startServer({ dataDir: fx.dataDir, pollMillis: POLL })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("answers 503 with Retry-After on data routes and 'unavailable' on /health, then serves once A is published", async () => {
    const h = await get(server.url + "/health")
    expect(h.status).toBe(503)
    expect(header(h, "retry-after")).toBe("5")
    expect(h.body).toMatchObject({ status: "unavailable", last_scraped_date: null })

    const res = await get(server.url + "/api/asset_providers", { "x-api-key": key.key })
    expect(res.status).toBe(503)
    expect(Number(header(res, "retry-after"))).toBeGreaterThan(0)
    expectErrorShape(res.body, 503)

    publishSnapshot(fx.snapshotsDir, fixtureA())
    expect(
      await waitFor(async () => ((await get(server.url + "/health")).body as HealthBody).status === "ok", 5000),
    ).toBe(true)
    const ok = await get(server.url + "/api/asset_providers", { "x-api-key": key.key })
    expect(ok.status).toBe(200)
  })
})

describe("SnapshotStore leases", () => {
  const dirs: Array<() => void> = []
  afterEach(() => {
    for (const d of dirs.splice(0)) d()
  })

  /** A store over a fresh data dir with A published. The poll is long: the tests call refresh. */
  const storeWithA = (drainMillis: number) =>
    Effect.gen(function* () {
      const fx = makeDataDir()
      dirs.push(fx.cleanup)
      publishSnapshot(fx.snapshotsDir, fixtureA())
      const ctx = yield* Layer.build(SnapshotStore.layer({ dir: fx.snapshotsDir, pollMillis: 60_000, drainMillis }))
      return { store: Context.get(ctx, SnapshotStore), snapshotsDir: fx.snapshotsDir }
    })

  const batchOf = (lease: { read: <A>(f: (r: { batchDate: string }) => A) => Effect.Effect<A, ServiceUnavailable> }) =>
    lease.read((r) => r.batchDate)

  effectIt.live(
    "a lease pins its snapshot across a swap; after the drain window its reads fail with snapshot_changed",
    () =>
      Effect.gen(function* () {
        // long enough that a pause of the test (GC, a busy machine) does not end it before the reads below
        const drainMillis = 1000
        const { store, snapshotsDir } = yield* storeWithA(drainMillis)
        const leaseScope = yield* Scope.make()
        const lease = yield* Scope.provide(leaseScope)(store.lease)
        expect(yield* batchOf(lease)).toBe("2026-02-06")

        publishFixtureB(snapshotsDir)
        yield* store.refresh
        expect(store.current()?.reader.batchDate).toBe("2026-02-09")

        // the old snapshot still answers its lease during the drain window
        expect(yield* batchOf(lease)).toBe("2026-02-06")
        const newLease = yield* Scope.provide(yield* Scope.make())(store.lease)
        expect(yield* batchOf(newLease)).toBe("2026-02-09")
        expect(newLease.generation).toBeGreaterThan(lease.generation)

        yield* Effect.sleep(drainMillis + 300)
        const failure = yield* Effect.flip(batchOf(lease))
        expect(failure).toBeInstanceOf(ServiceUnavailable)
        expect(failure.reason).toBe("snapshot_changed")
        expect(failure.retryAfter).toBeGreaterThan(0)

        // a fresh lease reads the new batch
        const fresh = yield* Scope.provide(yield* Scope.make())(store.lease)
        expect(yield* batchOf(fresh)).toBe("2026-02-09")
        yield* Scope.close(leaseScope, Exit.void)
      }),
  )

  effectIt.live("a retired snapshot with no leases is closed at once", () =>
    Effect.gen(function* () {
      const { store, snapshotsDir } = yield* storeWithA(60_000)
      // a lease taken and ended before the swap
      yield* Effect.scoped(Effect.flatMap(store.lease, (lease) => batchOf(lease)))
      const old = store.current()!
      expect(old.reader.isOpen).toBe(true)
      publishFixtureB(snapshotsDir)
      yield* store.refresh
      expect(store.current()!.file).not.toBe(old.file)
      expect(old.reader.isOpen).toBe(false)
    }),
  )

  effectIt.live("a retired snapshot closes when its last lease ends, before the drain window", () =>
    Effect.gen(function* () {
      const { store, snapshotsDir } = yield* storeWithA(60_000)
      const s1 = yield* Scope.make()
      const s2 = yield* Scope.make()
      yield* Scope.provide(s1)(store.lease)
      yield* Scope.provide(s2)(store.lease)
      const old = store.current()!
      publishFixtureB(snapshotsDir)
      yield* store.refresh
      expect(old.reader.isOpen).toBe(true)
      yield* Scope.close(s1, Exit.void)
      expect(old.reader.isOpen).toBe(true) // one lease still holds it
      yield* Scope.close(s2, Exit.void)
      expect(old.reader.isOpen).toBe(false)
      expect(store.current()!.reader.isOpen).toBe(true)
    }),
  )

  effectIt.live("a corrupt snapshot is refused at refresh and the old one keeps serving", () =>
    Effect.gen(function* () {
      vi.spyOn(console, "error").mockImplementation(() => {})
      yield* Effect.addFinalizer(() => Effect.sync(() => vi.restoreAllMocks()))
      const { store, snapshotsDir } = yield* storeWithA(60_000)
      const before = store.current()!
      publishGarbageSnapshot(snapshotsDir, "2026-02-20")
      yield* store.refresh
      expect(store.current()).toBe(before)
      expect(before.reader.isOpen).toBe(true)
      const lease = yield* Scope.provide(yield* Scope.make())(store.lease)
      expect(yield* batchOf(lease)).toBe("2026-02-06")
    }),
  )

  effectIt.live("with nothing published, a lease fails with SnapshotMissing", () =>
    Effect.gen(function* () {
      const fx = makeDataDir()
      dirs.push(fx.cleanup)
      const ctx = yield* Layer.build(
        SnapshotStore.layer({ dir: fx.snapshotsDir, pollMillis: 60_000, drainMillis: 100 }),
      )
      const store = Context.get(ctx, SnapshotStore)
      expect(store.current()).toBeNull()
      const failure = yield* Effect.flip(Effect.scoped(store.lease))
      expect(failure._tag).toBe("SnapshotMissing")
      publishSnapshot(fx.snapshotsDir, fixtureA())
      yield* store.refresh
      const lease = yield* Scope.provide(yield* Scope.make())(store.lease)
      expect(yield* batchOf(lease)).toBe("2026-02-06")
    }),
  )
})
