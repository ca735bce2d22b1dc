/**
 * /risk_metrics, /expense_ratio and /expense_ratio/history over real HTTP on the fixture. The
 * daily series alternates 100, 101, 100, …: each return is +1 % or 100/101 − 1 ≈ −0.990 %, so σ is
 * about 0.00995 a day (≈ 0.158 a year: band 15–25 %, score 6) and the worst fall is 100/101 − 1.
 * The exact σ is recomputed below from the fixture's own quotes, by the written rule.
 */
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ExpenseRatioHistory, ExpenseRatioResponse } from "../../schemas/ReturnsCosts.ts"
import { RiskMetricsResponse } from "../../schemas/ReturnsRisk.ts"
import { expectErrorShape } from "../support/server.ts"
import { type ReturnsHarness, startReturnsHarness } from "./fixture.ts"
import { ALL_WINDOWS, DAILY, NO_CURRENCY, YOUNG } from "./fixtureData.ts"

type Attributes = Record<string, unknown>
const strict = { onExcessProperty: "error" } as const

/** σ (ddof 1) of the daily returns after the last quote on or before `base`. */
const sigmaAfter = (base: string): number => {
  const rows = DAILY.quotas
  let i0 = 0
  rows.forEach(([date], i) => {
    if (date <= base) i0 = i
  })
  const rs: number[] = []
  for (let i = i0 + 1; i < rows.length; i++) rs.push(rows[i]![1] / rows[i - 1]![1] - 1)
  const mean = rs.reduce((a, b) => a + b, 0) / rs.length
  return Math.sqrt(rs.reduce((a, r) => a + (r - mean) ** 2, 0) / (rs.length - 1))
}

describe("risk and costs", () => {
  let h: ReturnsHarness
  beforeAll(async () => {
    h = await startReturnsHarness()
  })
  afterAll(async () => {
    await h?.close()
  })
  const attributes = async (id: number, route: string): Promise<Attributes> => {
    const res = await h.call(`/api/real_assets/${id}/${route}`)
    expect(res.status, res.text).toBe(200)
    return (res.body as { data: { attributes: Attributes } }).data.attributes
  }

  it("risk of a daily series: σ·√21 and σ·√252 over 12 and 36 months, drawdown, band 6", async () => {
    const res = await h.call(`/api/real_assets/${DAILY.assetId}/risk_metrics`)
    Schema.decodeUnknownSync(RiskMetricsResponse)(res.body, strict)
    const a = (res.body as { data: { id: string; type: string; attributes: Attributes } }).data
    expect(a).toMatchObject({ id: String(DAILY.assetId), type: "risk_metrics" })
    const s12 = sigmaAfter("2025-03-31") // D − 12 months
    const s36 = sigmaAfter("2023-03-31") // D − 36 months
    expect(a.attributes.volatility_monthly_12m as number).toBeCloseTo(s12 * Math.sqrt(21), 12)
    expect(a.attributes.volatility_annualized_12m as number).toBeCloseTo(s12 * Math.sqrt(252), 12)
    expect(a.attributes.volatility_monthly_36m as number).toBeCloseTo(s36 * Math.sqrt(21), 12)
    expect(a.attributes.volatility_annualized_36m as number).toBeCloseTo(s36 * Math.sqrt(252), 12)
    expect(a.attributes.volatility_annualized_12m as number).toBeCloseTo(0.158, 2) // the estimate above
    expect(a.attributes.max_drawdown_36m as number).toBeCloseTo(100 / 101 - 1, 12)
    expect(a.attributes).toMatchObject({
      run: "8043-8",
      serie: "R",
      as_of_date: "2026-03-31",
      risk_score: 6,
      risk_level: "high",
      method_version: "risk_v1",
      unavailable_reason: null,
    })
  })

  it("risk of a sparse series: insufficient_history, every figure null", async () => {
    const a = await attributes(ALL_WINDOWS.assetId, "risk_metrics")
    expect(a.unavailable_reason).toBe("insufficient_history")
    for (const k of ["volatility_monthly_12m", "volatility_annualized_36m", "max_drawdown_36m", "risk_level", "risk_score"]) {
      expect(a[k], k).toBeNull()
    }
  })

  it("risk of a series without a known currency: unknown_currency", async () => {
    expect((await attributes(NO_CURRENCY.assetId, "risk_metrics")).unavailable_reason).toBe("unknown_currency")
  })

  it("expense ratio: the latest month's TAC as a decimal fraction", async () => {
    const res = await h.call(`/api/real_assets/${ALL_WINDOWS.assetId}/expense_ratio`)
    Schema.decodeUnknownSync(ExpenseRatioResponse)(res.body, strict)
    expect(res.body).toEqual({
      data: {
        id: String(ALL_WINDOWS.assetId),
        type: "expense_ratio",
        attributes: { expense_ratio: 0.014, investor_class: "Retail", month: "2026-02" }, // 1.40 % → 0.014
      },
    })
  })

  it("expense ratio without any TAC: 200 with null", async () => {
    expect(await attributes(YOUNG.assetId, "expense_ratio")).toEqual({ expense_ratio: null, investor_class: "Retail", month: null })
  })

  it("history: one item per month, dated by its last day, ascending", async () => {
    const res = await h.call(`/api/real_assets/${ALL_WINDOWS.assetId}/expense_ratio/history`)
    Schema.decodeUnknownSync(ExpenseRatioHistory)(res.body, strict)
    const id = String(ALL_WINDOWS.assetId)
    expect(res.body).toEqual({
      data: [
        { id: `${id}_20251231`, type: "expense_ratio_month", attributes: { date: "20251231", expense_ratio: 0.0132 } },
        { id: `${id}_20260131`, type: "expense_ratio_month", attributes: { date: "20260131", expense_ratio: 0.0135 } },
        { id: `${id}_20260228`, type: "expense_ratio_month", attributes: { date: "20260228", expense_ratio: 0.014 } },
      ],
    })
  })

  it.each([
    ["20260101", ["20260131", "20260228"]],
    ["20260131", ["20260131", "20260228"]], // inclusive
    ["20260201", ["20260228"]],
    ["20260301", []],
  ])("history from_date=%s keeps the months ending on or after it", async (from, dates) => {
    const res = await h.call(`/api/real_assets/${ALL_WINDOWS.assetId}/expense_ratio/history?from_date=${from}`)
    expect((res.body as { data: Array<{ attributes: { date: string } }> }).data.map((d) => d.attributes.date)).toEqual(dates)
  })

  it("history without any TAC: an empty list", async () => {
    const res = await h.call(`/api/real_assets/${YOUNG.assetId}/expense_ratio/history`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: [] })
  })

  it("history from_date must be a real YYYYMMDD date → else 422 naming it", async () => {
    for (const bad of ["2026-01-01", "20260230", "2026011", "202601011"]) {
      const res = await h.call(`/api/real_assets/${ALL_WINDOWS.assetId}/expense_ratio/history?from_date=${bad}`)
      expect(res.status, bad).toBe(422)
      expectErrorShape(res.body, 422)
      expect((res.body as { parameter: string }).parameter).toBe("from_date")
    }
  })
})
