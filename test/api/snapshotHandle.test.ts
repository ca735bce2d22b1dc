/**
 * One snapshot, one memo (api/snapshot/SnapshotHandle.ts, snapshots/SnapshotMemo.ts): what the
 * readers keep for a snapshot (the FI catalog, statements, the indicators, the market values) and
 * what the routes keep on the handle are one store, kept while the snapshot serves or is read,
 * and dropped when a retired batch's last lease ends. A new batch computes its own anew. Real
 * snapshot files, a real swap (SwapState) on them.
 */

import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { snapshotChanged } from "../../api/snapshot/SnapshotHandle.ts"
import { SwapState } from "../../api/snapshot/SwapState.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { memo as marketMemo } from "../../snapshots/readers/MarketDb.ts"
import { loadIndicators } from "../../snapshots/readers/ReturnsHistory.ts"
import { resolveAssetId } from "../../snapshots/readers/ReturnsSeries.ts"
import { memoOf } from "../../snapshots/SnapshotMemo.ts"
import { SPHERES } from "../market/compareFixture.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { type FixtureDir, makeDataDir } from "../support/snapshotFixture.ts"

/** Publishes the market fixture; `variant` changes one rating so that each variant is another file. */
const publish = (dir: FixtureDir, variant: number): string =>
  publishMarketSnapshot(dir.snapshotsDir, {
    returns: true,
    extra: (w) => w.insertRows("cmf_spheres", SPHERES.map((s, i) => (i === 0 ? { ...s, spheres: 1 + (variant % 5) } : s))),
  })

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const swapIn = async (variant: number) => {
  const dir = makeDataDir()
  cleanups.push(() => dir.cleanup())
  // a long drain: the retired snapshot closes when its last lease ends, not on a timer
  const state = new SwapState({ dir: dir.snapshotsDir, pollMillis: 60_000, drainMillis: 60_000 })
  cleanups.push(() => state.stop())
  const file = publish(dir, variant)
  await state.refresh()
  expect(state.loaded?.file).toBe(file)
  return { dir, state }
}

describe("a snapshot's memo", () => {
  it("is one store: the readers' catalogs, statements and values and the routes' entries, for that snapshot only", async () => {
    const { state } = await swapIn(1)
    const handle = state.loaded!
    const reader = handle.reader
    const catalog = fiCatalog(reader)
    // the handle's memo answers with what the reader kept (it does not compute its own)
    expect(handle.memo("fi-catalog", () => "not kept on the handle")).toBe(catalog)
    expect(reader.memo.size).toBe(1)
    expect(memoOf(reader.db)).toBe(reader.memo)
    const indicators = loadIndicators(reader.db)
    expect(loadIndicators(reader.db)).toBe(indicators)
    const assetId = SPHERES[0]!.asset_id
    expect(resolveAssetId(reader.db, assetId)).toBe(assetId)
    let computed = 0
    const value = marketMemo(reader.db, "test:value", () => ({ n: ++computed }))
    expect(marketMemo(reader.db, "test:value", () => ({ n: ++computed }))).toBe(value)
    expect(computed).toBe(1)
    // the FI catalog, the indicators and their statements, the series statements, the market value
    expect(reader.memo.size).toBe(5)
  })

  it("is kept while a retired batch is still read and dropped when its last lease ends; the next batch computes its own", async () => {
    const { dir, state } = await swapIn(2)
    const old = state.loaded!.acquire()
    const lease = old.lease({ dir: dir.snapshotsDir, closed: snapshotChanged, damaged: snapshotChanged, doubted: () => false, suspect: () => {} })
    let computed = 0
    const compute = () => ({ n: ++computed })
    const answer = lease.memo("test:answer", compute)
    const catalog = await Effect.runPromise(lease.read((r) => fiCatalog(r)))
    const next = publish(dir, 3)
    await state.refresh()
    expect(state.loaded?.file).toBe(next)
    expect(old.retired).toBe(true)
    // still read: still open, its memo whole
    expect(old.isOpen).toBe(true)
    expect(lease.memo("test:answer", compute)).toBe(answer)
    expect(old.memo("fi-catalog", () => null)).toBe(catalog)
    expect(computed).toBe(1)
    const kept = old.reader.memo.size
    expect(kept).toBeGreaterThanOrEqual(2)
    old.release()
    // its last lease ended: closed, and nothing it kept is kept
    expect(old.isOpen).toBe(false)
    expect(old.reader.memo.isClosed).toBe(true)
    expect(old.reader.memo.size).toBe(0)
    expect(old.memo("fi-catalog", () => null)).toBeNull()
    // a closed handle keeps nothing: each call computes, for nobody
    lease.memo("test:answer", compute)
    lease.memo("test:answer", compute)
    expect(computed).toBe(3)
    expect(old.reader.memo.size).toBe(0)
    // the new batch's handle has its own memo: computed anew, once
    const current = state.loaded!
    expect(current.memo("test:answer", compute)).not.toBe(answer)
    current.memo("test:answer", compute)
    expect(computed).toBe(4)
    expect(fiCatalog(current.reader)).not.toBe(catalog)
  })
})
