/**
 * `return_basis=total`: distributions (FACTOR DE REPARTO) reinvested on their date and
 * adjustments (FACTOR DE AJUSTE) applied; expected values multiply the fixture's numbers by hand.
 */
import { describe, expect, it } from "vitest"
import { computeReturns } from "../../snapshots/compute/Returns.ts"
import { seriesOf } from "./fixtures.ts"

const total = { currency: "CLP", basis: "total" } as const

describe("total return", () => {
  it("price 100 → 98 on a day with FR = 1.03 gives 98·1.03/100 − 1 = 0.0094", () => {
    const s = seriesOf([[20260921, 100], [20261021, 98, 1.03]])
    const r = computeReturns(s, 20261021, total)
    const p = r.periods["1m"]
    expect(p.status).toBe("available")
    expect(p.value).toBeCloseTo(0.0094, 12)
    expect(p.applied_distributions).toEqual([{ date: "2026-10-21", factor: 1.03 }])
    expect(p.applied_exchanges).toEqual([])
    expect(p.distribution_multiplier).toBeCloseTo(1.03, 12)
    expect(p.exchange_multiplier).toBe(1)
    expect(r.method_version).toBe("total_return_v1")
    // The price basis on the same data: 98/100 − 1
    expect(computeReturns(s, 20261021, { currency: "CLP" }).periods["1m"].value).toBeCloseTo(-0.02, 12)
  })

  it("chains through intermediate quotes: (101/100)·(98·1.03/101) = 98·1.03/100", () => {
    const s = seriesOf([[20260921, 100], [20261001, 101], [20261021, 98, 1.03]])
    expect(computeReturns(s, 20261021, total).periods["1m"].value).toBeCloseTo(0.0094, 12)
  })

  it("a factor on the base date is already in the base price and is not applied", () => {
    const s = seriesOf([[20260921, 100, 1.5], [20261021, 98, 1.03]])
    const p = computeReturns(s, 20261021, total).periods["1m"]
    expect(p.value).toBeCloseTo(0.0094, 12)
    expect(p.applied_distributions.map((d) => d.date)).toEqual(["2026-10-21"])
  })

  it("FACTOR DE AJUSTE 2 on a day the quota halves leaves the total return at 0", () => {
    const s = seriesOf([[20260921, 100], [20261021, 50, null, 2]])
    const p = computeReturns(s, 20261021, total).periods["1m"]
    expect(p.value).toBeCloseTo(0, 12) // 50·2/100 − 1
    expect(p.applied_exchanges).toEqual([{ date: "2026-10-21", factor: 2 }])
    expect(p.exchange_multiplier).toBe(2)
  })

  it("null, 0 and NaN factors mean no event (CMF leaves them blank or 0)", () => {
    const s = {
      dates: [20260921, 20261001, 20261021],
      prices: [100, 101, 102],
      factorReparto: Float64Array.from([Number.NaN, 0, Number.NaN]),
      factorAjuste: [null, null, 0],
    }
    const p = computeReturns(s, 20261021, total).periods["1m"]
    expect(p.value).toBeCloseTo(0.02, 12) // 102/100 − 1
    expect(p.applied_distributions).toEqual([])
  })

  // Cutoff 2026-11-20: 1m base 2026-10-20 (96); 6m base 2026-05-20 (100); distribution 1.05 on
  // 2026-06-01. 6m total = (95·1.05/100)·(96/95)·(99/96) = 99·1.05/100 = 1.0395.
  const withOldEvent = seriesOf([[20260520, 100], [20260601, 95, 1.05], [20261020, 96], [20261120, 99]])

  it("a window with an unverified event is null; windows without it are unaffected", () => {
    const r = computeReturns(withOldEvent, 20261120, { ...total, verified: (date) => date !== 20260601 })
    expect(r.periods["1m"].value).toBeCloseTo(99 / 96 - 1, 12) // 0.03125, no event inside
    expect(r.periods["6m"].status).toBe("unavailable")
    expect(r.periods["6m"].reason).toBe("missing_factor_coverage")
    expect(r.periods["6m"].value).toBeNull()
  })

  it("the same window with the event verified", () => {
    const r = computeReturns(withOldEvent, 20261120, total)
    expect(r.periods["6m"].value).toBeCloseTo(0.0395, 12)
    expect(computeReturns(withOldEvent, 20261120, { currency: "CLP" }).periods["6m"].value).toBeCloseTo(-0.01, 12) // 99/100 − 1
  })

  it("a negative factor is invalid_distribution_factor", () => {
    const s = seriesOf([[20260921, 100], [20261021, 98, -1]])
    expect(computeReturns(s, 20261021, total).periods["1m"].reason).toBe("invalid_distribution_factor")
  })

  it("total with 3y annualization: (110·1.21/100)^(1/3) − 1 = 1.331^(1/3) − 1 = 0.1", () => {
    const s = seriesOf([[20231120, 100], [20250602, 100, 1.21], [20261120, 110]])
    expect(computeReturns(s, 20261120, total).periods["3y_ann"].value).toBeCloseTo(0.1, 12)
  })

  it("a window without events equals its price return exactly (no rounding from the chain)", () => {
    const s = seriesOf([[20261020, 1003.7], [20261021, 1001.1], [20261023, 1007.3], [20261120, 1009.9]])
    const price = computeReturns(s, 20261120, { currency: "CLP" }).periods["1m"].value
    expect(computeReturns(s, 20261120, total).periods["1m"].value).toBe(price)
  })
})

describe("coverage: no hole longer than coverageGapDays between consecutive quotas", () => {
  // 1m window 2026-10-20 → 2026-11-20. Quotes every 7 days are covered; one 8-day hole is not,
  // because a distribution paid inside it would never have been seen.
  const weekly = seriesOf([[20261020, 100], [20261027, 101], [20261103, 102], [20261110, 103], [20261117, 104], [20261120, 105]])
  const holed = seriesOf([[20261020, 100], [20261027, 101], [20261104, 102], [20261110, 103], [20261120, 105]])
  it("gaps of 7 days are covered", () => {
    const p = computeReturns(weekly, 20261120, { ...total, coverageGapDays: 7 }).periods["1m"]
    expect(p.status).toBe("available")
    expect(p.value).toBeCloseTo(0.05, 12) // 105/100 − 1
  })
  it("an 8-day gap (10-27 → 11-04) or a 10-day one (11-10 → 11-20) is missing_factor_coverage", () => {
    const p = computeReturns(holed, 20261120, { ...total, coverageGapDays: 7 }).periods["1m"]
    expect(p.status).toBe("unavailable")
    expect(p.reason).toBe("missing_factor_coverage")
    // the price basis does not need coverage
    expect(computeReturns(holed, 20261120, { currency: "CLP" }).periods["1m"].value).toBeCloseTo(0.05, 12)
  })
  it("a gap across a month end is counted in calendar days: 10-26 → 11-02 is 7, 10-26 → 11-03 is 8", () => {
    const ok = seriesOf([[20261020, 100], [20261026, 100], [20261102, 101], [20261109, 102], [20261116, 103], [20261120, 104]])
    expect(computeReturns(ok, 20261120, { ...total, coverageGapDays: 7 }).periods["1m"].status).toBe("available")
    const gap = seriesOf([[20261020, 100], [20261026, 100], [20261103, 101], [20261110, 102], [20261117, 103], [20261120, 104]])
    expect(computeReturns(gap, 20261120, { ...total, coverageGapDays: 7 }).periods["1m"].reason).toBe("missing_factor_coverage")
  })
})
