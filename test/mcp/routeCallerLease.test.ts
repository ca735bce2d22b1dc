/**
 * One tool call reads one batch: every route RouteCaller reaches for a call reads the snapshot the
 * call pinned (its lease), not the batch current when the route runs, and a tool's answer kept by
 * the answer cache is the call batch's. A real SnapshotStore on real snapshot files (fixtures A
 * and B): a lease is pinned on A, B is published and swapped in, and the routes are called on A's
 * lease (and on B's).
 */
import { Effect, Exit, Layer, ManagedRuntime, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OffThreadRenderer } from "../../api/market/OffThreadRender.ts"
import { RouteCaller } from "../../api/mcp/RouteCaller.ts"
import { AnswerCacheService } from "../../api/snapshot/AnswerCache.ts"
import { type Lease, SnapshotStore } from "../../api/snapshot/SnapshotStore.ts"
import { makeFixtureA, type PublishedSnapshot, publishFixtureB, testCrc32 } from "../support/snapshotFixture.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any

const DAYS = `/api/real_assets/${testCrc32("fm:8043:A")}/days`
const batchOf = (file: string) => file.replace(/\.sqlite$/, "")

describe("RouteCaller reads the call's lease, whatever batch is current", () => {
  const fx = makeFixtureA()
  const fileA = fx.snapshot.finished.file
  let b: PublishedSnapshot
  let runtime: ManagedRuntime.ManagedRuntime<RouteCaller | SnapshotStore | AnswerCacheService, unknown>
  let scope: Scope.Closeable
  let leaseA: Lease
  let leaseB: Lease

  beforeAll(async () => {
    runtime = ManagedRuntime.make(
      RouteCaller.layer.pipe(
        Layer.provideMerge(
          Layer.mergeAll(
            // a long drain: A stays open while its lease is held
            SnapshotStore.layer({ dir: fx.snapshotsDir, pollMillis: 60_000, drainMillis: 60_000 }),
            OffThreadRenderer.layer,
            AnswerCacheService.layer,
          ),
        ),
      ),
    )
    scope = Scope.makeUnsafe()
    const store = await runtime.runPromise(Effect.service(SnapshotStore))
    leaseA = await runtime.runPromise(Scope.provide(store.lease, scope))
    expect(leaseA.file).toBe(fileA)
    b = publishFixtureB(fx.snapshotsDir)
    await runtime.runPromise(store.refresh)
    expect(store.current()?.file).toBe(b.finished.file)
    leaseB = await runtime.runPromise(Scope.provide(store.lease, scope))
    expect(leaseB.file).toBe(b.finished.file)
  }, 60_000)

  afterAll(async () => {
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
    await runtime?.dispose()
    fx.cleanup()
  })

  const days = (lease: Lease): Promise<Json> =>
    runtime.runPromise(
      Effect.flatMap(Effect.service(RouteCaller), (routes) => routes.get(lease, DAYS)).pipe(
        Effect.map((answer) => {
          expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200)
          return answer.body
        }),
      ),
    )

  it("answers from A on A's lease after B swapped in", async () => {
    const body = await days(leaseA)
    expect(body.meta.batch_id).toBe(batchOf(fileA))
    expect(body.meta.batch_date).toBe("2026-02-06")
  })

  it("answers from B on B's lease, and again from A on A's: the kept answers are each batch's", async () => {
    const cache = await runtime.runPromise(Effect.service(AnswerCacheService))
    const hits = cache.stats.hits
    const onB = await days(leaseB)
    expect(onB.meta.batch_id).toBe(batchOf(b.finished.file))
    expect(onB.meta.batch_date).toBe("2026-02-09")
    // the same tool target on A after B's answer was kept: not B's answer
    const onA = await days(leaseA)
    expect(onA.meta.batch_id).toBe(batchOf(fileA))
    expect(onA.meta.batch_date).toBe("2026-02-06")
    // and kept on each batch's own shelf: asked again, each lease gets its batch's answer
    expect((await days(leaseB)).meta.batch_id).toBe(batchOf(b.finished.file))
    expect((await days(leaseA)).meta.batch_id).toBe(batchOf(fileA))
    // from the cache: A's first (kept by the test above), then both again; B's first answer ran its route
    expect(cache.stats.hits).toBe(hits + 3)
  })
})
