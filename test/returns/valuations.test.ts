/**
 * /returns with valuation=clp and real_uf (bases enabled), and currencies without a conversion.
 * Rates and UF values are the fixture's (fixtureData.ts); the arithmetic is in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectReason, expectValue, periodOf, returnsBody } from "./bodies.ts"
import { type ReturnsHarness, startReturnsHarness } from "./fixture.ts"
import { ALL_WINDOWS, DOLLAR, EURO, NO_CURRENCY } from "./fixtureData.ts"

describe("/returns valuations", () => {
  let h: ReturnsHarness
  beforeAll(async () => {
    h = await startReturnsHarness()
  })
  afterAll(async () => {
    await h?.close()
  })
  const returns = async (id: number, valuation: string, query = "") =>
    returnsBody(await h.call(`/api/real_assets/${id}/returns?valuation=${valuation}${query}`), valuation)

  it("a USD fund under accounting: 11/10 − 1 = 0.1 in DOLAR", async () => {
    const b = await returns(DOLLAR.assetId, "accounting")
    expectValue(periodOf(b, "1m"), 0.1)
    expect(b.data.attributes.currency).toBe("DOLAR")
    expect(periodOf(b, "1m").inputs.end?.quota_currency).toBe("DOLAR")
  })

  it("a USD fund under clp: each quota times its date's observed rate, 11·950 / (10·900) − 1", async () => {
    const b = await returns(DOLLAR.assetId, "clp")
    // 2026-03-31 has no rate: the quote uses 2026-03-30's (950), within the 7-day tolerance
    const p = periodOf(b, "1m")
    expectValue(p, 10450 / 9000 - 1) // ≈ 0.1611111
    expect(p.currency).toBe("PESOS")
    expect(p.inputs.start?.fx).toEqual({ code: "dolar", date: "2026-02-27", value: "900", unit: "CLP" })
    expect(p.inputs.end?.fx).toEqual({ code: "dolar", date: "2026-03-30", value: "950", unit: "CLP" })
    expect(p.inputs.end?.quota_value).toBe(11) // quotas stay in the accounting currency
    expectValue(periodOf(b, "last_closed_month"), 10450 / 9000 - 1)
    expectReason(periodOf(b, "1y"), "missing_start_quote")
    expect(b.data.attributes).toMatchObject({
      valuation: "clp",
      currency: "PESOS",
      method_version: "price_return_clp_v1",
      adjustments: ["fx_to_clp"],
      fx_tolerance_days: 7,
      uf_date_policy: "exact",
    })
  })

  it("a USD fund under real_uf: the CLP return deflated by the UF, (10450/9000)/(39390/39000) − 1", async () => {
    const b = await returns(DOLLAR.assetId, "real_uf")
    expectValue(periodOf(b, "1m"), 10450 / 9000 / 1.01 - 1) // ≈ 0.1496149
    expect(b.data.attributes).toMatchObject({ currency: "UF", adjustments: ["fx_to_clp", "uf_deflation"] })
  })

  it("a CLP fund under real_uf: (1 + nominal)/(1 + ΔUF) − 1, UF on the quota dates", async () => {
    const b = await returns(ALL_WINDOWS.assetId, "real_uf")
    const m1 = periodOf(b, "1m")
    expectValue(m1, 133.1 / 132 / 1.01 - 1) // ΔUF = 39390/39000 − 1 = 1 %; ≈ −0.0016502
    expect(m1.inputs.start?.uf).toEqual({ code: "uf", date: "2026-02-27", value: "39000", unit: "CLP" })
    expect(m1.inputs.end?.uf).toEqual({ code: "uf", date: "2026-03-31", value: "39390", unit: "CLP" })
    expectValue(periodOf(b, "1y"), 1.1 / (39390 / 38000) - 1) // ≈ 0.0611830
    expectValue(periodOf(b, "ytd"), 133.1 / 122 / (39390 / 38800) - 1)
    // no UF on 2025-09-30 nor on 2021-03-31 in the fixture
    expectReason(periodOf(b, "6m"), "missing_start_uf")
    expectReason(periodOf(b, "5y_ann"), "missing_start_uf")
    expect(b.data.attributes).toMatchObject({ currency: "UF", method_version: "price_return_real_uf_v1", adjustments: ["uf_deflation"] })
  })

  it("a CLP fund under clp is its accounting return, with no conversion applied", async () => {
    const b = await returns(ALL_WINDOWS.assetId, "clp")
    expectValue(periodOf(b, "1y"), 0.1) // 133.1/121 − 1
    expect(periodOf(b, "1y").inputs.start?.fx).toBeNull()
    expect(b.data.attributes).toMatchObject({ currency: "PESOS", adjustments: [] })
  })

  it("EUR: reported as is under accounting (currency null), unknown_currency under clp and real_uf", async () => {
    const accounting = await returns(EURO.assetId, "accounting")
    expectValue(periodOf(accounting, "1m"), 0.05) // 21/20 − 1
    expect(accounting.data.attributes.currency).toBeNull()
    expect(periodOf(accounting, "1m").inputs.end?.quota_currency).toBe("EURO")
    for (const valuation of ["clp", "real_uf"]) {
      const b = await returns(EURO.assetId, valuation)
      expect(b.data.attributes.currency).toBeNull()
      for (const p of Object.values(b.data.attributes.periods)) {
        expectReason(p, "unknown_currency")
        expect(p.currency).toBeNull()
      }
    }
  })

  it("a series without a currency: every window null with unknown_currency, at any cutoff", async () => {
    for (const query of ["", "&as_of_date=2026-03-15"]) {
      const b = await returns(NO_CURRENCY.assetId, "accounting", query)
      expect(b.data.attributes.currency).toBeNull()
      for (const p of Object.values(b.data.attributes.periods)) expectReason(p, "unknown_currency")
    }
  })
})
