/**
 * Price returns over the eight windows on hand-made series; every expected value is the ratio of
 * two prices written in the fixture (arithmetic in the comments), never the code's own output.
 */
import { describe, expect, it } from "vitest"
import { computeReturns, type ReturnPeriod } from "../../snapshots/compute/Returns.ts"
import { WINDOWS } from "../../snapshots/compute/Windows.ts"
import { seriesOf } from "./fixtures.ts"

// Cutoff Fri 2026-11-20. Targets: 1m 2026-10-20, 3m 08-20, 6m 05-20, 1y 2025-11-20, ytd
// 2025-12-31, 3y 2023-11-20, 5y 2021-11-20 (a Saturday: base is Fri 11-19), last closed month =
// October 2026 (end Sat 10-31 → quote Fri 10-30; start 09-30).
const main = seriesOf([
  [20211119, 66.55],
  [20231120, 100],
  [20251120, 121],
  [20251231, 122],
  [20260520, 125],
  [20260820, 130],
  [20260930, 128],
  [20261020, 132],
  [20261030, 131.2],
  [20261120, 133.1],
])
const clp = { currency: "CLP" } as const

const expectAvailable = (p: ReturnPeriod, value: number): void => {
  expect(p.status).toBe("available")
  expect(p.reason).toBeNull()
  expect(p.value).toBeCloseTo(value, 12)
}
const expectUnavailable = (p: ReturnPeriod, reason: string): void => {
  expect(p.status).toBe("unavailable")
  expect(p.reason).toBe(reason)
  expect(p.value).toBeNull()
}

describe("every window on one series", () => {
  const r = computeReturns(main, 20261120, clp)
  it("values", () => {
    expectAvailable(r.periods["1m"], 1.1 / 132) // 133.1/132 − 1 = 1.1/132 = 1/120
    expectAvailable(r.periods["3m"], 3.1 / 130) // 133.1/130 − 1
    expectAvailable(r.periods["6m"], 0.0648) // 133.1/125 − 1 = 8.1/125
    expectAvailable(r.periods["1y"], 0.1) // 133.1/121 = 1.1
    expectAvailable(r.periods.ytd, 11.1 / 122) // 133.1/122 − 1
    expectAvailable(r.periods["3y_ann"], 0.1) // 133.1/100 = 1.331 = 1.1³
    expectAvailable(r.periods["5y_ann"], 2 ** (1 / 5) - 1) // 133.1/66.55 = 2, ≈ 0.1486984
    expectAvailable(r.periods.last_closed_month, 0.025) // 131.2/128 = 1.025
  })
  it("only 3y and 5y are annualized", () => {
    for (const key of WINDOWS) expect(r.periods[key].annualized).toBe(key === "3y_ann" || key === "5y_ann")
  })
  it("reports target and effective dates and prices", () => {
    expect(r.as_of_date).toBe("2026-11-20")
    expect(r.requested_as_of_date).toBe("2026-11-20")
    expect(r.method_version).toBe("price_return_v1")
    expect(r.currency).toBe("PESOS")
    expect(r.periods["5y_ann"]).toMatchObject({
      target_start_date: "2021-11-20",
      effective_start_date: "2021-11-19",
      target_end_date: "2026-11-20",
      effective_end_date: "2026-11-20",
      start_price: 66.55,
      end_price: 133.1,
      currency: "PESOS",
    })
    expect(r.periods.ytd.target_start_date).toBe("2025-12-31")
    expect(r.periods.last_closed_month).toMatchObject({
      target_start_date: "2026-09-30",
      effective_start_date: "2026-09-30",
      target_end_date: "2026-10-31",
      effective_end_date: "2026-10-30",
    })
  })
})

describe("month-end clamps", () => {
  it("31 Mar − 1m = 28 Feb: the base is Fri 27 Feb, not a March quote", () => {
    const s = seriesOf([[20260227, 100], [20260302, 101], [20260331, 103]])
    const p = computeReturns(s, 20260331, clp).periods["1m"]
    expect(p.target_start_date).toBe("2026-02-28")
    expect(p.effective_start_date).toBe("2026-02-27")
    expectAvailable(p, 0.03) // 103/100 − 1
  })
  it("29 Feb 2024 − 1y = 28 Feb 2023, not 1 Mar", () => {
    const s = seriesOf([[20230228, 100], [20230301, 90], [20240229, 110]])
    const p = computeReturns(s, 20240229, clp).periods["1y"]
    expect(p.target_start_date).toBe("2023-02-28")
    expectAvailable(p, 0.1) // 110/100 − 1 (with 1 Mar it would be 110/90 − 1)
  })
})

describe("as-of date and staleness", () => {
  it("a Sunday cutoff uses Friday's quota as D and keeps the cutoff as the target end", () => {
    const r = computeReturns(main, 20261122, clp)
    expect(r.as_of_date).toBe("2026-11-20")
    expect(r.requested_as_of_date).toBe("2026-11-22")
    expect(r.periods["1m"].target_start_date).toBe("2026-10-20") // D − 1m, not cutoff − 1m
    expect(r.periods["1m"].target_end_date).toBe("2026-11-22")
    expectAvailable(r.periods["1m"], 1.1 / 132) // same as on Friday
  })
  it("a holiday cutoff (Fri 18 Sep 2026) uses Thu 17 Sep", () => {
    const s = seriesOf([[20260817, 100], [20260917, 102]])
    const r = computeReturns(s, 20260918, clp)
    expect(r.as_of_date).toBe("2026-09-17")
    expectAvailable(r.periods["1m"], 0.02) // 102/100 − 1, base on 2026-08-17 = D − 1m
  })
  it("no quota on or before the cutoff: every window is missing_end_quote", () => {
    const r = computeReturns(main, 20211118, clp)
    expect(r.as_of_date).toBeNull()
    for (const key of WINDOWS) expectUnavailable(r.periods[key], "missing_end_quote")
  })
  it("a base 7 days before its target is used, 8 days is stale", () => {
    // 1m target 2026-10-20; 10-13 is 7 days before, 10-12 is 8.
    const ok = computeReturns(seriesOf([[20261013, 100], [20261120, 105]]), 20261120, clp).periods["1m"]
    expectAvailable(ok, 0.05)
    const stale = computeReturns(seriesOf([[20261012, 100], [20261120, 105]]), 20261120, clp).periods["1m"]
    expectUnavailable(stale, "stale_start_quote")
    expect(stale.effective_start_date).toBe("2026-10-12")
  })
  it("an end quote more than 7 days before the cutoff is stale", () => {
    const r = computeReturns(main, 20261130, clp) // D = 11-20, 10 days before
    expectUnavailable(r.periods["1m"], "stale_end_quote")
    expect(r.periods["1m"].effective_end_date).toBe("2026-11-20")
  })
})

describe("series younger than the window", () => {
  it("no partial windows: missing_start_quote where the first quota is after the target", () => {
    const s = seriesOf([[20260115, 100], [20260520, 104], [20261120, 110]])
    const r = computeReturns(s, 20261120, clp)
    expectAvailable(r.periods["6m"], 110 / 104 - 1)
    for (const key of ["1y", "ytd", "3y_ann", "5y_ann"] as const) {
      expectUnavailable(r.periods[key], "missing_start_quote")
      expect(r.periods[key].effective_start_date).toBeNull()
    }
    expectUnavailable(r.periods.last_closed_month, "stale_end_quote") // Oct ends 10-31, last quote 05-20
  })
})

describe("last_closed_month rule", () => {
  const s = seriesOf([[20260930, 100], [20261030, 102], [20261127, 103], [20261130, 107.1]])
  it("a cutoff on the month's last day closes that month", () => {
    const p = computeReturns(s, 20261130, clp).periods.last_closed_month
    expect(p.target_end_date).toBe("2026-11-30")
    expectAvailable(p, 0.05) // 107.1/102 − 1
  })
  it("the day before, the previous month is the last closed one", () => {
    const p = computeReturns(s, 20261129, clp).periods.last_closed_month
    expect(p.target_end_date).toBe("2026-10-31")
    expectAvailable(p, 0.02) // 102/100 − 1
  })
  it("Sun 1 Nov closes October even though D is Fri 30 Oct", () => {
    const p = computeReturns(s, 20261101, clp).periods.last_closed_month
    expect(p.target_end_date).toBe("2026-10-31")
    expectAvailable(p, 0.02)
  })
  it("no_closed_month when the series starts after the last closed month", () => {
    const young = seriesOf([[20261105, 100], [20261120, 101]])
    expectUnavailable(computeReturns(young, 20261120, clp).periods.last_closed_month, "no_closed_month")
  })
})

describe("invalid quotes", () => {
  it("a non-positive base quota is invalid_start_quote", () => {
    const s = seriesOf([[20261020, 0], [20261120, 10]])
    expectUnavailable(computeReturns(s, 20261120, clp).periods["1m"], "invalid_start_quote")
  })
})
