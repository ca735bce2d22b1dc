/**
 * /api/all-funds rules that need more than one request to see: a snapshot swapped (and closed)
 * between two reads of one request answers 503 snapshot_changed, never a mix; and the `meta`
 * rules per vehicle, checked on the composer with hand-made ETF/FI parts (their rows come later).
 */
import { it as effectIt } from "@effect/vitest"
import { Context, Effect, Layer, Scope } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { allFundsAnswer } from "../../api/market/MarketAllFunds.ts"
import { OffThreadRenderer } from "../../api/market/OffThreadRender.ts"
import { PinnedSnapshot } from "../../api/snapshot/Pinned.ts"
import { type Lease, SnapshotStore } from "../../api/snapshot/SnapshotStore.ts"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { allFundsJson, allFundsMeta, filterRows, type VehiclePart } from "../../snapshots/readers/MarketAllFunds.ts"
import type { RenderedRow } from "../../snapshots/readers/MarketFundRow.ts"
import { fixtureA, makeDataDir, publishSnapshot } from "../support/snapshotFixture.ts"
import { publishMarketSnapshot } from "./marketSnapshot.ts"

describe("a swap between two reads of one request", () => {
  const cleanups: Array<() => void> = []
  afterEach(() => {
    for (const c of cleanups.splice(0)) c()
  })

  const setup = Effect.gen(function* () {
    const dir = makeDataDir()
    cleanups.push(dir.cleanup)
    publishMarketSnapshot(dir.snapshotsDir)
    const ctx = yield* Layer.build(SnapshotStore.layer({ dir: dir.snapshotsDir, pollMillis: 60_000, drainMillis: 0 }))
    const store = Context.get(ctx, SnapshotStore)
    const lease = yield* Scope.provide(yield* Scope.make())(store.lease)
    return { dir, store, lease }
  })

  effectIt.live("without a swap, the filtered request (two reads) answers 200", () =>
    Effect.gen(function* () {
      const { lease } = yield* setup
      const response = yield* allFundsAnswer({ category: "equity", vehicle: "mutual_fund" }, 10).pipe(
        Effect.provideService(PinnedSnapshot, lease),
        Effect.provide(OffThreadRenderer.layer),
      )
      expect(response.status).toBe(200)
    }),
  )

  effectIt.live("a new batch published and the old one closed before the second read → 503 snapshot_changed", () =>
    Effect.gen(function* () {
      const { dir, store, lease } = yield* setup
      let reads = 0
      const crossing: Lease = {
        ...lease,
        read: (f) =>
          Effect.suspend(() => {
            reads++
            if (reads !== 2) return lease.read(f)
            publishSnapshot(dir.snapshotsDir, fixtureA())
            return store.refresh.pipe(Effect.andThen(Effect.sleep(30)), Effect.andThen(lease.read(f)))
          }),
      }
      const failure = yield* Effect.flip(allFundsAnswer({ category: "equity", vehicle: "mutual_fund" }, 10)).pipe(
        Effect.provideService(PinnedSnapshot, crossing),
        Effect.provide(OffThreadRenderer.layer),
      )
      expect(reads).toBe(2)
      expect(failure).toBeInstanceOf(ServiceUnavailable)
      expect((failure as ServiceUnavailable).reason).toBe("snapshot_changed")
      expect((failure as ServiceUnavailable).retryAfter).toBeGreaterThan(0)
      expect(store.current()?.reader.batchDate).toBe("2026-02-06")
    }),
  )
})

const row = (serieId: string, providerId: number, category: string | null): RenderedRow => ({
  json: JSON.stringify({ serieId }),
  serieId,
  category,
  familySlug: null,
  article107Status: null,
  providerId,
})

const fm: VehiclePart = {
  vehicle: "mutual_fund",
  rows: [row("1", 10, "equity"), row("2", 11, "balanced"), row("3", 10, "equity")],
  date: "2026-03-04",
  previousDate: "2026-03-03",
}
const etf: VehiclePart = {
  vehicle: "etf",
  rows: [row("e1", 20, null), row("e2", 21, null)],
  date: "2026-02-27",
  previousDate: "2026-02-26",
}
const fi: VehiclePart = { vehicle: "investment_fund", rows: [row("f1", 21, null)], date: "2026-02-27", previousDate: "2026-02-26" }

describe("meta per vehicle", () => {
  it("mutual_fund: FM dates, distinct administrators of the rows", () => {
    expect(allFundsMeta("mutual_fund", [fm])).toEqual({
      vehicle: "mutual_fund",
      date: "2026-03-04",
      previousDate: "2026-03-03",
      agfCount: 2,
      count: 3,
    })
  })

  it("etf alone: the FI/ETF cutoff, agfCount 0, etfAgfCount", () => {
    expect(allFundsMeta("etf", [etf])).toEqual({
      vehicle: "etf",
      date: "2026-02-27",
      previousDate: "2026-02-26",
      agfCount: 0,
      etfAgfCount: 2,
      count: 2,
    })
    expect(allFundsMeta("investment_fund", [fi])).toMatchObject({ date: "2026-02-27", agfCount: 0, investmentFundAgfCount: 1 })
  })

  it("all: FM date, previousDate and agfCount kept; the other counts and datesByVehicle added", () => {
    expect(allFundsMeta("all", [fm, etf, fi])).toEqual({
      vehicle: "all",
      date: "2026-03-04",
      previousDate: "2026-03-03",
      agfCount: 2,
      etfAgfCount: 2,
      investmentFundAgfCount: 1,
      datesByVehicle: {
        mutual_fund: { date: "2026-03-04", previousDate: "2026-03-03" },
        etf: { date: "2026-02-27", previousDate: "2026-02-26" },
        investment_fund: { date: "2026-02-27", previousDate: "2026-02-26" },
      },
      count: 6,
    })
    const body = JSON.parse(allFundsJson("all", [fm, etf, fi]))
    expect(body.data.map((r: { serieId: string }) => r.serieId)).toEqual(["1", "2", "3", "e1", "e2", "f1"])
  })

  it("category, family and article 107 filters exclude ETF/FI rows (their fields are null)", () => {
    expect(filterRows(etf.rows, { category: "equity" })).toEqual([])
    expect(filterRows(fm.rows, { category: "equity" }).map((r) => r.serieId)).toEqual(["1", "3"])
    expect(filterRows(etf.rows, {})).toBe(etf.rows)
  })
})
