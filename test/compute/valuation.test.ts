/**
 * `valuation=clp` and `real_uf`, and currencies without a conversion. Rates and UF values are
 * chosen so the expected answers are short hand calculations (in the comments).
 */
import { describe, expect, it } from "vitest"
import { computeReturns } from "../../snapshots/compute/Returns.ts"
import { WINDOWS } from "../../snapshots/compute/Windows.ts"
import { ratesOf, seriesOf } from "./fixtures.ts"

// 1m window at cutoff 2026-11-20: base 2026-10-20, end 2026-11-20.
const usdFund = seriesOf([[20261020, 10], [20261120, 11]])
const clpFund = seriesOf([[20261020, 1000], [20261120, 1050]])
const usdClp = ratesOf([[20261020, 900], [20261119, 950]]) // no rate on 11-20: use 11-19
const uf = ratesOf([[20261020, 40000], [20261119, 40300], [20261120, 40400]])

describe("clp", () => {
  it("a USD fund: each quota times its date's observed rate", () => {
    const r = computeReturns(usdFund, 20261120, { currency: "USD", valuation: "clp", usdClp })
    const p = r.periods["1m"]
    expect(p.value).toBeCloseTo((11 * 950) / (10 * 900) - 1, 12) // 10450/9000 − 1 = 0.16111…
    expect(p.start_fx).toEqual({ date: "2026-10-20", value: 900 })
    expect(p.end_fx).toEqual({ date: "2026-11-19", value: 950 })
    expect(p.currency).toBe("PESOS")
    expect(r.method_version).toBe("price_return_clp_v1")
    // accounting on the same fund: 11/10 − 1, in dollars
    const a = computeReturns(usdFund, 20261120, { currency: "PROM" }).periods["1m"]
    expect(a.value).toBeCloseTo(0.1, 12)
    expect(a.currency).toBe("DOLAR")
  })
  it("a CLP fund: clp equals accounting and needs no rate", () => {
    const p = computeReturns(clpFund, 20261120, { currency: "$$", valuation: "clp" }).periods["1m"]
    expect(p.value).toBeCloseTo(0.05, 12) // 1050/1000 − 1
    expect(p.start_fx).toBeNull()
  })
  it("a rate more than 7 days before the quota date is stale; none at all is missing", () => {
    const old = ratesOf([[20261020, 900], [20261112, 950]]) // 8 days before 11-20
    expect(computeReturns(usdFund, 20261120, { currency: "USD", valuation: "clp", usdClp: old }).periods["1m"].reason).toBe(
      "stale_end_fx"
    )
    const late = ratesOf([[20261021, 900], [20261120, 950]]) // nothing on or before 10-20
    expect(computeReturns(usdFund, 20261120, { currency: "USD", valuation: "clp", usdClp: late }).periods["1m"].reason).toBe(
      "missing_start_fx"
    )
    expect(computeReturns(usdFund, 20261120, { currency: "USD", valuation: "clp" }).periods["1m"].reason).toBe("missing_start_fx")
  })
})

describe("real_uf", () => {
  it("CLP fund: (1 + 0.05)/(1 + 0.01) − 1 with UF 40000 → 40400", () => {
    const r = computeReturns(clpFund, 20261120, { currency: "CLP", valuation: "real_uf", uf })
    const p = r.periods["1m"]
    expect(p.value).toBeCloseTo(1.05 / 1.01 - 1, 12) // ≈ 0.0396040
    expect(p.start_uf).toEqual({ date: "2026-10-20", value: 40000 })
    expect(p.end_uf).toEqual({ date: "2026-11-20", value: 40400 })
    expect(p.currency).toBe("UF")
    expect(r.method_version).toBe("price_return_real_uf_v1")
  })
  it("USD fund: nominal in CLP first, then deflated", () => {
    const p = computeReturns(usdFund, 20261120, { currency: "USD", valuation: "real_uf", usdClp, uf }).periods["1m"]
    expect(p.value).toBeCloseTo((11 * 950) / (10 * 900) / 1.01 - 1, 12)
  })
  it("annualizes the real cumulative return: 146.41/100 / (33000/30000) = 1.331 → 0.1 a year", () => {
    const s = seriesOf([[20231120, 100], [20261120, 146.41]])
    const ufs = ratesOf([[20231120, 30000], [20261120, 33000]])
    const p = computeReturns(s, 20261120, { currency: "CLP", valuation: "real_uf", uf: ufs }).periods["3y_ann"]
    expect(p.value).toBeCloseTo(0.1, 12)
  })
  it("the UF must exist on the quota date itself", () => {
    const gap = ratesOf([[20261020, 40000], [20261119, 40300]])
    expect(computeReturns(clpFund, 20261120, { currency: "CLP", valuation: "real_uf", uf: gap }).periods["1m"].reason).toBe(
      "missing_end_uf"
    )
  })
})

describe("unknown_currency", () => {
  it("COP (no conversion) nulls every window, whatever the valuation", () => {
    for (const valuation of ["accounting", "clp", "real_uf"] as const) {
      const r = computeReturns(usdFund, 20261120, { currency: "COP", valuation, usdClp, uf })
      expect(r.currency).toBeNull()
      for (const key of WINDOWS) {
        expect(r.periods[key].reason).toBe("unknown_currency")
        expect(r.periods[key].value).toBeNull()
      }
    }
  })
  it("EUR is reported as is under accounting but has no rate for clp / real_uf", () => {
    expect(computeReturns(usdFund, 20261120, { currency: "EUR" }).periods["1m"].value).toBeCloseTo(0.1, 12)
    expect(computeReturns(usdFund, 20261120, { currency: "EUR", valuation: "clp", usdClp }).periods["1m"].reason).toBe(
      "unknown_currency"
    )
    expect(computeReturns(usdFund, 20261120, { currency: "EUR", valuation: "real_uf", uf }).periods["1m"].reason).toBe(
      "unknown_currency"
    )
  })
  it("a missing currency is unknown", () => {
    expect(computeReturns(clpFund, 20261120, { currency: null }).periods["1m"].reason).toBe("unknown_currency")
  })
})
