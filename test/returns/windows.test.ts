/**
 * /returns over real HTTP, accounting valuation and price basis: every window, both month-end
 * clamps, a series younger than its windows, weekend and holiday cutoffs. Expected values are
 * ratios of prices chosen in fixtureData.ts, worked out in the comments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectReason, expectValue, periodOf, returnsBody } from "./bodies.ts"
import { type ReturnsHarness, startReturnsHarness } from "./fixture.ts"
import { ALL_WINDOWS, YOUNG } from "./fixtureData.ts"

describe("/returns windows (accounting, price)", () => {
  let h: ReturnsHarness
  beforeAll(async () => {
    h = await startReturnsHarness()
  })
  afterAll(async () => {
    await h?.close()
  })
  const returns = async (id: number, query = "") => returnsBody(await h.call(`/api/real_assets/${id}/returns${query}`))

  it("every window at the batch cutoff 2026-03-31, D = 2026-03-31 (133.1)", async () => {
    const b = await returns(ALL_WINDOWS.assetId)
    expectValue(periodOf(b, "1m"), 1 / 120) // 133.1/132 − 1 = 1.1/132
    expectValue(periodOf(b, "3m"), 11.1 / 122) // 133.1/122 − 1 ≈ 0.0909836
    expectValue(periodOf(b, "6m"), 0.0648) // 133.1/125 − 1 = 8.1/125
    expectValue(periodOf(b, "1y"), 0.1) // 133.1/121 = 1.1
    expectValue(periodOf(b, "ytd"), 11.1 / 122) // base 2025-12-31 (122)
    expectValue(periodOf(b, "3y_ann"), 0.1) // 133.1/100 = 1.331 = 1.1³ → 1.1 − 1
    expectValue(periodOf(b, "5y_ann"), 2 ** 0.2 - 1) // 133.1/66.55 = 2 → 2^(1/5) − 1 ≈ 0.1486984
    expectValue(periodOf(b, "last_closed_month"), 1 / 120) // March closes on the 31st: 133.1/132 − 1
    const a = b.data.attributes
    expect(b.data).toMatchObject({ id: String(ALL_WINDOWS.assetId), type: "real_asset_returns" })
    expect(a).toMatchObject({
      run: "8043-8",
      serie: "A",
      currency: "PESOS",
      requested_as_of_date: "2026-03-31",
      as_of_date: "2026-03-31",
      tolerance_days: 7,
      unit: "decimal",
      return_basis: "price",
      valuation: "accounting",
      quota_source: "CMF",
      method_version: "price_return_v1",
      calculation_mode: "snapshot",
      calculation_date: "2026-03-31",
      cutoff_age_days: 0,
    })
  })

  it("only 3y_ann and 5y_ann are annualized; each window reports its dates and quotas", async () => {
    const b = await returns(ALL_WINDOWS.assetId)
    for (const [key, p] of Object.entries(b.data.attributes.periods)) expect(p.annualized, key).toBe(key.endsWith("_ann"))
    expect(periodOf(b, "5y_ann")).toMatchObject({
      target_start_date: "2021-03-31",
      effective_start_date: "2021-03-31",
      target_end_date: "2026-03-31",
      effective_end_date: "2026-03-31",
      inputs: {
        start: { quota_date: "2021-03-31", quota_value: 66.55, quota_currency: "PESOS", fx: null, uf: null },
        end: { quota_date: "2026-03-31", quota_value: 133.1, quota_currency: "PESOS", fx: null, uf: null },
      },
    })
    expect(periodOf(b, "ytd").target_start_date).toBe("2025-12-31")
    expect(periodOf(b, "last_closed_month")).toMatchObject({
      target_start_date: "2026-02-28",
      effective_start_date: "2026-02-27",
      target_end_date: "2026-03-31",
    })
  })

  it("31 Mar − 1m = 28 Feb (a Saturday: base Fri 27 Feb, 132), not 3 Mar (140)", async () => {
    const p = periodOf(await returns(ALL_WINDOWS.assetId), "1m")
    expect(p.target_start_date).toBe("2026-02-28")
    expect(p.effective_start_date).toBe("2026-02-27")
    expect(p.inputs.start?.quota_value).toBe(132) // with 3 Mar it would be 133.1/140 − 1 < 0
  })

  it("29 Feb 2024 − 1y = 28 Feb 2023 (90), not 1 Mar 2023 (80): 99/90 − 1 = 0.1", async () => {
    const b = await returns(ALL_WINDOWS.assetId, "?as_of_date=2024-02-29")
    const p = periodOf(b, "1y")
    expect(p.target_start_date).toBe("2023-02-28")
    expect(p.effective_start_date).toBe("2023-02-28")
    expectValue(p, 0.1) // with 1 Mar: 99/80 − 1 = 0.2375
    expect(b.data.attributes).toMatchObject({ requested_as_of_date: "2024-02-29", as_of_date: "2024-02-29", calculation_mode: "direct" })
  })

  it("a series younger than the window: missing_start_quote, no partial window", async () => {
    const b = await returns(YOUNG.assetId) // first quota 2025-06-30
    for (const key of ["1y", "3y_ann", "5y_ann"]) {
      expectReason(periodOf(b, key), "missing_start_quote")
      expect(periodOf(b, key).effective_start_date).toBeNull()
      expect(periodOf(b, key).inputs.start).toBeNull()
    }
    expectValue(periodOf(b, "6m"), 56.1 / 52 - 1) // base 2025-09-30 (52)
    expectValue(periodOf(b, "3m"), 56.1 / 54 - 1) // base 2025-12-31 (54)
    expectValue(periodOf(b, "ytd"), 56.1 / 54 - 1)
    expectValue(periodOf(b, "1m"), 0.02) // 56.1/55 − 1
    expectValue(periodOf(b, "last_closed_month"), 0.02)
  })

  it("a Sunday cutoff (2026-03-29): D = Fri 27 Mar, windows from D, the target end stays the cutoff", async () => {
    const b = await returns(ALL_WINDOWS.assetId, "?as_of_date=2026-03-29")
    expect(b.data.attributes).toMatchObject({ requested_as_of_date: "2026-03-29", as_of_date: "2026-03-27", cutoff_age_days: 2 })
    const p = periodOf(b, "1m") // D − 1m = 2026-02-27
    expect(p).toMatchObject({ target_start_date: "2026-02-27", target_end_date: "2026-03-29", effective_end_date: "2026-03-27" })
    expectValue(p, 0.015) // 133.98/132 − 1
    // 1y wants 2025-03-27: the last quote on or before it is 2024-12-31, 86 days earlier
    expectReason(periodOf(b, "1y"), "stale_start_quote")
    expect(periodOf(b, "1y").effective_start_date).toBe("2024-12-31")
    // On the 29th February is the last closed month: its end quote is 27 Feb, but its base wants
    // 31 Jan and the last quote by then is 2025-12-31, 31 days earlier
    expectReason(periodOf(b, "last_closed_month"), "stale_start_quote")
  })

  it("a holiday cutoff (Thu 1 Jan 2026): D = 31 Dec 2025; ytd is 2025's", async () => {
    const b = await returns(ALL_WINDOWS.assetId, "?as_of_date=2026-01-01")
    expect(b.data.attributes.as_of_date).toBe("2025-12-31")
    expectValue(periodOf(b, "1m"), 1 / 60) // D − 1m = 2025-11-30 (Sun) → 28 Nov (120); 122/120 − 1
    expectValue(periodOf(b, "ytd"), 0.25) // base 2024-12-31 (97.6): 122/97.6 = 1.25
    expectValue(periodOf(b, "last_closed_month"), 1 / 60) // December: 31 Dec (122) over 28 Nov (120)
    expect(periodOf(b, "last_closed_month").target_end_date).toBe("2025-12-31")
  })

  it("a cutoff before the first quota: every window missing_end_quote, as_of_date null", async () => {
    const b = await returns(YOUNG.assetId, "?as_of_date=2025-06-29")
    expect(b.data.attributes.as_of_date).toBeNull()
    for (const p of Object.values(b.data.attributes.periods)) expectReason(p, "missing_end_quote")
  })

  it("as_of_date equal to the batch date is the precomputed answer itself", async () => {
    const latest = await returns(ALL_WINDOWS.assetId)
    const explicit = await returns(ALL_WINDOWS.assetId, "?as_of_date=2026-03-31")
    expect(explicit).toEqual(latest)
  })
})
