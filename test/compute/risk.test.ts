/**
 * Risk metrics: sample σ of daily simple returns worked out by hand on tiny series, a drawdown
 * visible by eye, the history thresholds and the 1–7 bands.
 */
import { describe, expect, it } from "vitest"
import { computeRisk, riskBand, sampleStdDev } from "../../snapshots/compute/Risk.ts"
import { seriesOf } from "./fixtures.ts"

const tiny = { minReturns12m: 2, minReturns36m: 2 }

describe("sampleStdDev", () => {
  it("ddof = 1 on [0, 0.02, −0.02, 0.02, 0]", () => {
    // mean 0.004; squared deviations 0.000016 + 0.000256 + 0.000576 + 0.000256 + 0.000016
    // = 0.00112; / (5 − 1) = 0.00028
    expect(sampleStdDev([0, 0.02, -0.02, 0.02, 0])).toBeCloseTo(Math.sqrt(0.00028), 12)
    expect(sampleStdDev([0.01])).toBeNull()
  })
})

describe("12m volatility on a tiny series", () => {
  // Base 2025-11-20 (= D − 12m) then five quotes whose daily returns are 0, +2%, −2%, +2%, 0:
  // 100 → 100 → 102 → 99.96 (= 102·0.98) → 101.9592 (= 99.96·1.02) → 101.9592.
  const s = seriesOf([
    [20251120, 100],
    [20261116, 100],
    [20261117, 102],
    [20261118, 99.96],
    [20261119, 101.9592],
    [20261120, 101.9592],
  ])
  const sigma = Math.sqrt(0.00028) // as above, ≈ 0.0167332
  it("monthly = σ·√21, annualized = σ·√252; 36m is null (history too short)", () => {
    const r = computeRisk(s, 20261122, tiny) // Sunday cutoff → D = Fri 11-20
    expect(r.as_of_date).toBe("2026-11-20")
    expect(r.volatility_monthly_12m).toBeCloseTo(sigma * Math.sqrt(21), 12)
    expect(r.volatility_annualized_12m).toBeCloseTo(Math.sqrt(0.00028 * 252), 12) // √0.07056 ≈ 0.2656
    expect(r.volatility_monthly_36m).toBeNull()
    expect(r.volatility_annualized_36m).toBeNull()
    expect(r.max_drawdown_36m).toBeNull()
    expect(r.risk_score).toBe(7) // 26.6% ≥ 25%
    expect(r.risk_level).toBe("very_high")
    expect(r.method_version).toBe("risk_v1")
    expect(r.unavailable_reason).toBeNull()
  })
  it("with the default thresholds five returns are not enough", () => {
    const r = computeRisk(s, 20261120)
    expect(r.volatility_annualized_12m).toBeNull()
    expect(r.risk_score).toBeNull()
    expect(r.unavailable_reason).toBe("insufficient_history")
  })
})

describe("36m drawdown and volatility", () => {
  // Peak 120 then trough 90: 90/120 − 1 = −0.25; the later 130 → 117 is only −0.10.
  const s = seriesOf([
    [20231120, 100],
    [20240603, 120],
    [20250106, 90],
    [20250602, 110],
    [20260105, 130],
    [20261120, 117],
  ])
  it("max drawdown = −0.25", () => {
    expect(computeRisk(s, 20261120, tiny).max_drawdown_36m).toBeCloseTo(-0.25, 12)
  })
  it("36m σ from the five returns 0.2, −0.25, 2/9, 2/11, −0.1", () => {
    const rs = [0.2, -0.25, 2 / 9, 2 / 11, -0.1]
    const mean = (0.2 - 0.25 + 2 / 9 + 2 / 11 - 0.1) / 5
    const sd = Math.sqrt(rs.map((x) => (x - mean) ** 2).reduce((a, b) => a + b) / 4)
    const r = computeRisk(s, 20261120, tiny)
    expect(r.volatility_annualized_36m).toBeCloseTo(sd * Math.sqrt(252), 12)
    expect(r.volatility_monthly_36m).toBeCloseTo(sd * Math.sqrt(21), 12)
    // 12m window: base = last quote ≤ 2025-11-20 (110 on 2025-06-02), returns 130/110 − 1, 117/130 − 1
    const r12 = [130 / 110 - 1, 117 / 130 - 1]
    expect(r.volatility_annualized_12m).toBeCloseTo((Math.abs(r12[0]! - r12[1]!) / Math.SQRT2) * Math.sqrt(252), 12)
  })
  it("a rising path has a drawdown of 0", () => {
    const up = seriesOf([[20231120, 100], [20250106, 101], [20261120, 102]])
    expect(computeRisk(up, 20261120, tiny).max_drawdown_36m).toBe(0)
  })
})

describe("thresholds and availability", () => {
  // Base on D − 12m = 2025-11-20, then the last n weekdays up to Fri 2026-11-20, prices 100/101.
  const weekdaySeries = (n: number) => {
    const days: number[] = []
    for (let t = Date.UTC(2026, 10, 20); days.length < n; t -= 86_400_000) {
      const d = new Date(t)
      if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) days.unshift(d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate())
    }
    return seriesOf([[20251120, 100], ...days.map((d, i) => [d, i % 2 === 0 ? 101 : 100] as const)])
  }
  it("200 daily returns in 12m give a figure, 199 do not", () => {
    expect(computeRisk(weekdaySeries(200), 20261120).volatility_annualized_12m).not.toBeNull()
    const short = computeRisk(weekdaySeries(199), 20261120)
    expect(short.volatility_annualized_12m).toBeNull()
    expect(short.unavailable_reason).toBe("insufficient_history")
  })
  it("a series younger than 12 months has no 12m figure whatever its count", () => {
    const young = seriesOf([[20251121, 100], [20261119, 101], [20261120, 102]])
    expect(computeRisk(young, 20261120, tiny).volatility_annualized_12m).toBeNull()
  })
  it("no quota on or before the cutoff", () => {
    const r = computeRisk(seriesOf([[20261120, 100]]), 20261119)
    expect(r.as_of_date).toBeNull()
    expect(r.unavailable_reason).toBe("no_quota_at_cutoff")
  })
})

describe("risk bands (SRRI: <0.5%, 0.5–2%, 2–5%, 5–10%, 10–15%, 15–25%, ≥25%)", () => {
  it.each([
    [0, 1, "very_low"],
    [0.0049, 1, "very_low"],
    [0.005, 2, "low"],
    [0.0199, 2, "low"],
    [0.02, 3, "medium_low"],
    [0.05, 4, "medium"],
    [0.1, 5, "medium_high"],
    [0.15, 6, "high"],
    [0.2499, 6, "high"],
    [0.25, 7, "very_high"],
  ])("σ = %f → %i %s", (vol, score, level) => {
    expect(riskBand(vol)).toEqual({ score, level })
  })
})

describe("unknown currency", () => {
  const s = seriesOf([[20251120, 100], [20261119, 101], [20261120, 102]])
  it("a currency without a known unit (COP) gives unknown_currency and no figure", () => {
    const r = computeRisk(s, 20261120, { ...tiny, currency: "COP" })
    expect(r.unavailable_reason).toBe("unknown_currency")
    expect(r.volatility_annualized_12m).toBeNull()
    expect(r.risk_score).toBeNull()
    expect(r.as_of_date).toBe("2026-11-20")
  })
  it("CMF codes of known currencies are fine", () => {
    for (const currency of ["$$", "PROM", "EUR"]) {
      expect(computeRisk(s, 20261120, { ...tiny, currency }).unavailable_reason).toBeNull()
    }
  })
})
