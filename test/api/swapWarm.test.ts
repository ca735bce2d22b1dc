/**
 * A checked snapshot is warmed before it is swapped in (SnapshotStore's `warm`): the compare and
 * screener rows are built while the previous snapshot keeps serving, so the first such request
 * after a swap finds them ready. A warm-up whose swap is given up (a newer CURRENT) stops and its
 * file is closed; one that fails still lets the snapshot in.
 */
import { afterEach, describe, expect, it } from "vitest"
import { SwapState } from "../../api/snapshot/SwapState.ts"
import { warmSnapshot } from "../../api/snapshot/Warm.ts"
import type { WarmSnapshot } from "../../api/SnapshotStore.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { batchInfo, compareRows } from "../../snapshots/readers/MarketCompareRows.ts"
import { isMemoised } from "../../snapshots/readers/MarketDb.ts"
import { SPHERES } from "../market/compareFixture.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { type FixtureDir, makeDataDir } from "../support/snapshotFixture.ts"

const KEY = (w: WarmSnapshot) => `compareRows:${dateToInt(w.reader.batchDate)}:${batchInfo(w.file, w.contentHash, w.reader.batchDate).batchId}`

/** Publishes the compare fixture; `variant` changes one rating so that each variant is another file. */
const publish = (dir: FixtureDir, variant: number): string =>
  publishMarketSnapshot(dir.snapshotsDir, {
    returns: true,
    extra: (w) => w.insertRows("cmf_spheres", SPHERES.map((s, i) => (i === 0 ? { ...s, spheres: 1 + (variant % 5) } : s))),
  })

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

const store = (dir: FixtureDir, warm: ConstructorParameters<typeof SwapState>[0]["warm"]) => {
  const state = new SwapState({ dir: dir.snapshotsDir, pollMillis: 60_000, drainMillis: 1_000, ...(warm === undefined ? {} : { warm }) })
  cleanups.push(() => state.stop())
  return state
}

describe("warming a snapshot before the swap", () => {
  it("builds the compare rows before the snapshot serves; the previous one serves meanwhile", async () => {
    const dir = makeDataDir()
    cleanups.push(() => dir.cleanup())
    const first = publish(dir, 1)
    const seen: Array<{ file: string; servingMeanwhile: string | null }> = []
    const state: SwapState = store(dir, async (w, stillWanted) => {
      seen.push({ file: w.file, servingMeanwhile: state.loaded?.file ?? null })
      await warmSnapshot(w, stillWanted)
      expect(isMemoised(w.reader.db, KEY(w))).toBe(true)
    })
    await state.refresh()
    expect(state.loaded?.file).toBe(first)
    const second = publish(dir, 2)
    await state.refresh()
    expect(state.loaded?.file).toBe(second)
    expect(seen).toEqual([
      { file: first, servingMeanwhile: null },
      { file: second, servingMeanwhile: first },
    ])
    // the served snapshot's rows are the warmed ones: asking for them builds nothing new
    const loaded = state.loaded!
    const info = batchInfo(loaded.file, loaded.contentHash, loaded.reader.batchDate)
    expect(isMemoised(loaded.reader.db, `compareRows:${dateToInt(loaded.reader.batchDate)}:${info.batchId}`)).toBe(true)
    expect(compareRows(loaded.reader.db, dateToInt(loaded.reader.batchDate), info).length).toBe(10)
  })

  it("without a warm step nothing is built ahead (the control)", async () => {
    const dir = makeDataDir()
    cleanups.push(() => dir.cleanup())
    publish(dir, 3)
    const state = store(dir, undefined)
    await state.refresh()
    const loaded = state.loaded!
    const info = batchInfo(loaded.file, loaded.contentHash, loaded.reader.batchDate)
    expect(isMemoised(loaded.reader.db, `compareRows:${dateToInt(loaded.reader.batchDate)}:${info.batchId}`)).toBe(false)
  })

  it("a newer CURRENT during the warm-up: that swap is given up, its file closed, the newer one swaps in", async () => {
    const dir = makeDataDir()
    cleanups.push(() => dir.cleanup())
    const first = publish(dir, 4)
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const warmed: Array<{ file: string; wanted: boolean; open: () => boolean }> = []
    const state: SwapState = store(dir, async (w, stillWanted) => {
      const entry = { file: w.file, wanted: true, open: () => w.reader.db.open }
      warmed.push(entry)
      if (warmed.length === 2) await held // the second file's warm-up waits
      entry.wanted = stillWanted()
    })
    await state.refresh()
    const second = publish(dir, 5)
    const secondSwap = state.refresh()
    // the second file is checked (in a worker), then its warm-up begins and waits
    const deadline = Date.now() + 10_000
    while (warmed.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(warmed.map((w) => w.file)).toEqual([first, second])
    expect(state.loaded?.file).toBe(first) // still serving while the second warms
    const third = publish(dir, 6)
    const thirdSwap = state.refresh()
    release()
    await Promise.all([secondSwap, thirdSwap])
    expect(state.loaded?.file).toBe(third)
    expect(warmed[1]).toMatchObject({ file: second, wanted: false })
    expect(warmed[1]!.open()).toBe(false)
    expect(warmed.map((w) => w.file)).toEqual([first, second, third])
  })

  it("a warm-up that fails still lets the snapshot in", async () => {
    const dir = makeDataDir()
    cleanups.push(() => dir.cleanup())
    const file = publish(dir, 7)
    const state = store(dir, async () => {
      throw new Error("warm-up broke")
    })
    await state.refresh()
    expect(state.loaded?.file).toBe(file)
  })
})
