/**
 * A checked snapshot is warmed before it is swapped in (SnapshotStore's `warm`): the compare and
 * screener rows are built while the previous snapshot keeps serving, so the first such request
 * after a swap finds them ready. A warm-up whose swap is given up (a newer CURRENT) stops and its
 * file is closed; one that fails still lets the snapshot in.
 */

import { closeSync, fstatSync, openSync, writeSync } from "node:fs"
import { join } from "node:path"
import { Effect, Exit } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { batchInfo, compareRows, warmCompareRows } from "../../api/market/MarketCompareRows.ts"
import type { WarmSnapshot } from "../../api/snapshot/SnapshotStore.ts"
import { snapshotChanged, snapshotDamaged } from "../../api/snapshot/SnapshotHandle.ts"
import { SwapState } from "../../api/snapshot/SwapState.ts"
import { warmSnapshot } from "../../api/snapshot/Warm.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { DEFAULT_SERIES_GRACE_WEEKDAYS as GRACE } from "../../snapshots/compute/SeriesActivity.ts"
import { SnapshotReader } from "../../snapshots/Reader.ts"
import { isMemoised } from "../../snapshots/readers/MarketDb.ts"
import { SPHERES } from "../market/compareFixture.ts"
import { publishMarketSnapshot } from "../market/marketSnapshot.ts"
import { type FixtureDir, makeDataDir } from "../support/snapshotFixture.ts"

const KEY = (w: WarmSnapshot) => `compareRows:${dateToInt(w.reader.batchDate)}:${GRACE}:${batchInfo(w.file, w.contentHash, w.reader.batchDate).batchId}`

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

/** A fresh data folder, removed after the test. */
const dataDir = (): FixtureDir => {
  const dir = makeDataDir()
  cleanups.push(() => dir.cleanup())
  return dir
}

const store = (dir: FixtureDir, warm: ConstructorParameters<typeof SwapState>[0]["warm"]) => {
  const state = new SwapState({ dir: dir.snapshotsDir, pollMillis: 60_000, drainMillis: 1_000, ...(warm === undefined ? {} : { warm }) })
  cleanups.push(() => state.stop())
  return state
}

describe("warming a snapshot before the swap", () => {
  it("builds the compare rows before the snapshot serves; the previous one serves meanwhile", async () => {
    const dir = dataDir()
    const first = publish(dir, 1)
    const seen: Array<{ file: string; servingMeanwhile: string | null; builtBefore: boolean; builtAfter: boolean }> = []
    const state: SwapState = store(dir, async (w, stillWanted) => {
      const builtBefore = isMemoised(w.reader.db, KEY(w))
      await warmSnapshot(w, stillWanted)
      // (an expect here would be caught as a failed warm-up: recorded, checked below)
      seen.push({ file: w.file, servingMeanwhile: state.loaded?.file ?? null, builtBefore, builtAfter: isMemoised(w.reader.db, KEY(w)) })
    })
    await state.refresh()
    expect(state.loaded?.file).toBe(first)
    const second = publish(dir, 2)
    await state.refresh()
    expect(state.loaded?.file).toBe(second)
    expect(seen).toEqual([
      { file: first, servingMeanwhile: null, builtBefore: false, builtAfter: true },
      { file: second, servingMeanwhile: first, builtBefore: false, builtAfter: true },
    ])
    // the served snapshot's rows are the warmed ones: asking for them builds nothing new
    const loaded = state.loaded!
    const info = batchInfo(loaded.file, loaded.contentHash, loaded.reader.batchDate)
    expect(isMemoised(loaded.reader.db, `compareRows:${dateToInt(loaded.reader.batchDate)}:${GRACE}:${info.batchId}`)).toBe(true)
    expect(compareRows(loaded.reader.db, dateToInt(loaded.reader.batchDate), GRACE, info).length).toBe(10)
  })

  it("without a warm step nothing is built ahead (the control)", async () => {
    const dir = dataDir()
    publish(dir, 3)
    const state = store(dir, undefined)
    await state.refresh()
    const loaded = state.loaded!
    const info = batchInfo(loaded.file, loaded.contentHash, loaded.reader.batchDate)
    expect(isMemoised(loaded.reader.db, `compareRows:${dateToInt(loaded.reader.batchDate)}:${GRACE}:${info.batchId}`)).toBe(false)
  })

  it("a newer CURRENT during the warm-up: that swap is given up, its file closed, the newer one swaps in", async () => {
    const dir = dataDir()
    const first = publish(dir, 4)
    const { promise: held, resolve: release } = Promise.withResolvers<void>()
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

  it("CURRENT moved during the warm-up with nobody asking: the file it names now is checked and swapped in instead", async () => {
    const dir = dataDir()
    const first = publish(dir, 9)
    const { promise: held, resolve: release } = Promise.withResolvers<void>()
    const warmed: Array<{ file: string; open: () => boolean }> = []
    const state = store(dir, async (w) => {
      warmed.push({ file: w.file, open: () => w.reader.db.open })
      if (warmed.length === 1) await held
    })
    const swap = state.refresh()
    const deadline = Date.now() + 10_000
    while (warmed.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    const second = publish(dir, 10) // no refresh: the store here neither watches nor polls
    release()
    await swap
    expect(state.loaded?.file).toBe(second)
    expect(warmed.map((w) => w.file)).toEqual([first, second])
    expect(warmed[0]!.open()).toBe(false)
  })

  it("stop during a warm-up waits for it to end, and its file is closed", async () => {
    const dir = dataDir()
    publish(dir, 11)
    let open: (() => boolean) | null = null
    let stepsAfterStop = 0
    const state = new SwapState({
      dir: dir.snapshotsDir,
      pollMillis: 60_000,
      drainMillis: 1_000,
      warm: async (w, stillWanted) => {
        open = () => w.reader.db.open
        // a warm-up in steps, as warmCompareRows: it ends at the first step after it is no longer wanted
        while (stillWanted()) await new Promise((r) => setTimeout(r, 5))
        stepsAfterStop++
      },
    })
    const swap = state.refresh()
    const deadline = Date.now() + 10_000 // the check (in a worker) is done and the warm-up turns
    while (open === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(open).not.toBeNull()
    await state.stop()
    expect(stepsAfterStop).toBe(1) // stop returned after the warm-up saw it
    expect(open!()).toBe(false)
    expect(state.loaded).toBeNull()
    await swap
  })

  it("warmCompareRows reads in steps, giving the event loop back between them; stopped midway it keeps nothing", async () => {
    const dir = dataDir()
    publish(dir, 8)
    const state = store(dir, undefined)
    await state.refresh()
    const { reader, file, contentHash } = state.loaded!
    const batchDate = dateToInt(reader.batchDate)
    const info = batchInfo(file, contentHash, reader.batchDate)
    const key = `compareRows:${batchDate}:${GRACE}:${info.batchId}`
    // 10 series, 3 per step: it asks whether it is still wanted after each step; false the second time
    let asked = 0
    await warmCompareRows(reader.db, batchDate, info, () => ++asked < 2, 3)
    expect(asked).toBe(2)
    expect(isMemoised(reader.db, key)).toBe(false)
    // to the end: 3 steps, each after a turn of the event loop (an immediate queued first runs in between)
    const order: string[] = []
    setImmediate(() => order.push("immediate"))
    await warmCompareRows(reader.db, batchDate, info, () => {
      order.push("step")
      return true
    }, 3)
    expect(order).toEqual(["immediate", "step", "step", "step"])
    expect(isMemoised(reader.db, key)).toBe(true)
    // the stepwise rows are the rows built in one piece (a fresh handle has none memoised)
    const other = new SnapshotReader(join(dir.snapshotsDir, file))
    cleanups.push(() => other.close())
    expect(compareRows(other.db, batchDate, GRACE, info)).toHaveLength(10)
    expect(compareRows(reader.db, batchDate, GRACE, info)).toEqual(compareRows(other.db, batchDate, GRACE, info))
  })

  it("a read through a lease during the warm-up finds the file corrupt: it is refused, the previous one keeps serving", async () => {
    const dir = dataDir()
    const first = publish(dir, 12)
    const reads: Array<{ file: string; ok: boolean; damaged: boolean }> = []
    const state = store(dir, async (w, stillWanted) => {
      if (w.file !== first) {
        // the data pages overwritten after the file's check (its first page, with the schema, kept)
        const fd = openSync(join(dir.snapshotsDir, w.file), "r+")
        const size = fstatSync(fd).size
        writeSync(fd, Buffer.alloc(size - 4096, 0xa5), 0, size - 4096, 4096)
        closeSync(fd)
      }
      const lease = w.lease({ dir: dir.snapshotsDir, closed: snapshotChanged, damaged: snapshotDamaged, doubted: () => false, suspect: () => {} })
      const exit = await Effect.runPromiseExit(lease.read((r) => r.db.prepare("SELECT * FROM quotas").all().length))
      reads.push({ file: w.file, ok: Exit.isSuccess(exit), damaged: w.damaged })
      await warmSnapshot(w, stillWanted)
    })
    await state.refresh()
    const second = publish(dir, 13)
    await state.refresh()
    expect(reads).toEqual([
      { file: first, ok: true, damaged: false },
      { file: second, ok: false, damaged: true },
    ])
    expect(state.loaded?.file).toBe(first)
  })

  it("a warm-up that fails still lets the snapshot in", async () => {
    const dir = dataDir()
    const file = publish(dir, 7)
    const state = store(dir, async () => {
      throw new Error("warm-up broke")
    })
    await state.refresh()
    expect(state.loaded?.file).toBe(file)
  })
})
