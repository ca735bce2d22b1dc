/**
 * /returns with return_basis=total (enabled): a distribution reinvested, an adjustment applied,
 * only in windows whose daily record is complete. Values from fixtureData.ts (DISTRIBUTING).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectReason, expectValue, periodOf, returnsBody } from "./bodies.ts"
import { type ReturnsHarness, startReturnsHarness } from "./fixture.ts"
import { DISTRIBUTING } from "./fixtureData.ts"

describe("/returns return_basis=total", () => {
  let h: ReturnsHarness
  beforeAll(async () => {
    h = await startReturnsHarness()
  })
  afterAll(async () => {
    await h?.close()
  })
  const returns = async (id: number, query: string, valuation = "accounting", basis = "total") =>
    returnsBody(await h.call(`/api/real_assets/${id}/returns?${query}`), valuation, basis)

  // 1m: base 2026-02-27 (100), end 2026-03-31 (49.5); FR 1.04 on 03-16, FA 2 on 03-23.
  // TR = Π P_t·FR_t·FA_t / P_{t−1} = (49.5/100)·1.04·2 = 1.0296; price: 49.5/100 − 1 = −0.505.
  it("a distribution reinvested and an adjustment applied: 1.0296 − 1", async () => {
    const b = await returns(DISTRIBUTING.assetId, "return_basis=total")
    const p = periodOf(b, "1m")
    expectValue(p, 0.0296)
    expect(p.applied_distributions).toEqual([{ run: "8043-8", serie: "DIST", date: "2026-03-16", factor: "1.04" }])
    expect(p.applied_exchanges).toEqual([
      {
        event_id: `${DISTRIBUTING.assetId}:20260323`,
        revision: 1,
        origin_run: "8043-8",
        origin_serie: "DIST",
        destination_run: "8043-8",
        destination_serie: "DIST",
        effective_date: "2026-03-23",
        valuation_date: "2026-03-23",
        factor: "2",
      },
    ])
    expect(p.distribution_multiplier).toBe("1.04")
    expect(p.exchange_multiplier).toBe("2")
    // 2026-02-27 → 2026-03-31: 1 day to 28 Feb, then 31 in March = 32 calendar days
    expect(p.factor_coverage).toEqual([
      { run: "8043-8", serie: "DIST", start_date: "2026-02-27", end_date: "2026-03-31", calendar_days: 32 },
    ])
    expectValue(periodOf(b, "last_closed_month"), 0.0296)
    expect(b.data.attributes).toMatchObject({
      return_basis: "total",
      valuation: "accounting",
      method_version: "total_return_v1",
      quota_source: "CMF",
      factor_source: "CMF",
      event_verification: "per_period",
      adjustments: ["distributions", "exchanges"],
      calculation_mode: "snapshot",
    })
  })

  it("the price basis of the same window ignores both events: 49.5/100 − 1", async () => {
    const b = returnsBody(await h.call(`/api/real_assets/${DISTRIBUTING.assetId}/returns`))
    expectValue(periodOf(b, "1m"), -0.505)
    expectValue(periodOf(b, "3m"), 49.5 / 95 - 1)
  })

  it("a window over a 58-day hole (2025-12-31 → 2026-02-27) has no coverage: null with a reason", async () => {
    const b = await returns(DISTRIBUTING.assetId, "return_basis=total")
    for (const key of ["3m", "ytd"]) {
      const p = periodOf(b, key)
      expectReason(p, "missing_factor_coverage")
      expect(p.factor_coverage).toEqual([])
      expect(p.applied_distributions).toEqual([])
    }
  })

  it("total in real UF: 1.0296 / (39390/39000) − 1", async () => {
    const b = await returns(DISTRIBUTING.assetId, "return_basis=total&valuation=real_uf", "real_uf")
    expectValue(periodOf(b, "1m"), 1.0296 / 1.01 - 1) // ≈ 0.0194059
    expect(b.data.attributes).toMatchObject({
      currency: "UF",
      method_version: "total_return_real_uf_v1",
      adjustments: ["distributions", "exchanges", "uf_deflation"],
    })
  })

  it("a past cutoff is computed on request the same way: at 2026-03-20 the base of 1m is stale", async () => {
    // D = 2026-03-20, 1m wants 2026-02-20; the last quote by then is 2025-12-31 (51 days before)
    const b = await returns(DISTRIBUTING.assetId, "return_basis=total&as_of_date=2026-03-20")
    expect(b.data.attributes.calculation_mode).toBe("direct")
    expectReason(periodOf(b, "1m"), "stale_start_quote")
    // last closed month at the 20th is February: base 31 Jan → stale too; at 2026-03-31 it was March
    expectReason(periodOf(b, "last_closed_month"), "stale_start_quote")
  })
})
