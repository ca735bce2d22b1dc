/** The family index arithmetic on plain numbers, worked by hand (snapshots/readers/MarketIndexMath.ts). */
import { describe, expect, it } from "vitest"
import { IndexAccumulator } from "../../snapshots/readers/MarketIndexMath.ts"

describe("IndexAccumulator", () => {
  it("weights each day's changes by the opening patrimony and chains them", () => {
    const acc = new IndexAccumulator()
    // A: 10 → 11 (+10 %), opening patrimony 100; B: 20 → 19 (−5 %), opening patrimony 300
    acc.add([1, 2], [10, 11], [100, 120])
    acc.add([1, 2], [20, 19], [300, 280])
    // (100 × 0.10 + 300 × (−0.05)) / 400 = (10 − 15) / 400 = −0.0125 → 98.75
    const points = acc.points()
    expect(points[0]).toEqual({ date: 1, value: 100, change: null, seriesCount: 0 })
    expect(points[1]!.change).toBeCloseTo(-0.0125, 12)
    expect(points[1]!.value).toBeCloseTo(98.75, 10)
    expect(points[1]!.seriesCount).toBe(2)
  })

  it("a pair counts only when its opening date is the family's previous date; a weightless pair never", () => {
    const acc = new IndexAccumulator()
    acc.add([1, 2, 3], [100, 101, 102], [50, 50, 50]) // quoted every day
    acc.add([1, 3], [10, 20], [1000, 1000]) // skips day 2: its 1 → 3 pair (+100 %) is not a day's change
    acc.add([2, 3], [5, 6], [null, 10]) // no opening patrimony on day 2: no weight
    const p = acc.points()
    expect(p.map((x) => x.date)).toEqual([1, 2, 3])
    expect(p[1]!.change).toBeCloseTo(0.01, 12) // only the first series
    expect(p[2]!.change).toBeCloseTo(102 / 101 - 1, 12)
    expect(p[2]!.value).toBeCloseTo(102, 10) // 100 × 1.01 × 102/101
    expect(p[2]!.seriesCount).toBe(1)
  })

  it("a date with no contributing pair keeps the value, with a null change", () => {
    const acc = new IndexAccumulator()
    acc.add([1], [10], [100])
    acc.add([2], [30], [100]) // a new series: no pair
    expect(acc.points()).toEqual([
      { date: 1, value: 100, change: null, seriesCount: 0 },
      { date: 2, value: 100, change: null, seriesCount: 0 },
    ])
  })
})
