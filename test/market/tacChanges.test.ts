/**
 * /api/reports/tac-changes against the market fixture's TAC (January → February 2026, batch
 * 2026-03-04: February is the last closed month). By hand, February − January:
 *   9105-I +0.003 (0.005 → 0.008), 9105-A +0.001: fund 9105 shows I
 *   8043-A +0.002 (0.015 → 0.017), 8200-BPRIV +0.0005 (0.004 → 0.0045), 9106-A 0 (left out both ways)
 *   8106-B −0.002 (0.020 → 0.018), 9107-A −0.001; 9300-A has no January (left out)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { type Json, type MarketClient, startMarket } from "./client.ts"
import { sid } from "./fixtureFunds.ts"

let c: MarketClient
beforeAll(async () => {
  c = await startMarket()
})
afterAll(async () => {
  await c?.close()
})

const series = (body: Json) => body.data.map((r: Json) => r.serieId)
const ofKeys = (...keys: string[]) => keys.map((k) => String(sid(k)))

describe("selection", () => {
  it("default: the last closed month with TAC vs the one before, rises, one series per fund", async () => {
    const res = await c.call("/api/reports/tac-changes")
    expect(res.status).toBe(200)
    expect(series(res.body)).toEqual(ofKeys("9105:I", "8043:A", "8200:BPRIV"))
    expect(res.body.meta).toEqual({
      batch_id: c.batchId,
      date: "2026-02-28",
      previousDate: "2026-01-31",
      currentMonthKey: "202602",
      previousMonthKey: "202601",
      direction: "up",
      limit: 15,
      category: null,
      total: 3,
    })
    const top = res.body.data[0]
    expect(top).toMatchObject({ run: "9105-7", serie: "I", fundName: "Fondo Mutuo Beta Acciones", category: "equity", investorClass: "Institutional", tac: 0.008, tacPrevious: 0.005 })
    expect(top.tacDelta).toBeCloseTo(0.003, 12)
    expect(top.tacDeltaPct).toBeCloseTo(0.6, 10) // 0.003 / 0.005, a fraction
    expect(top.patrimony).toBe(100e6) // its last quote in February (2026-02-04)
    expect(res.body.data[1].patrimony).toBeNull() // 8043-A has no February quote
    expect(res.body.data[1].tacDeltaPct).toBeCloseTo(0.002 / 0.015, 10)
  })

  it("direction=down: largest drops first", async () => {
    const res = await c.call("/api/reports/tac-changes?direction=down")
    expect(series(res.body)).toEqual(ofKeys("8106:B", "9107:A"))
    expect(res.body.data[0].tacDelta).toBeCloseTo(-0.002, 12)
  })

  it("limit and category", async () => {
    expect(series((await c.call("/api/reports/tac-changes?limit=1")).body)).toEqual(ofKeys("9105:I"))
    const equity = await c.call("/api/reports/tac-changes?category=Equity")
    expect(series(equity.body)).toEqual(ofKeys("9105:I", "8043:A"))
    expect(equity.body.meta).toMatchObject({ category: "equity", total: 2 })
    expect((await c.call("/api/reports/tac-changes?category=money_market_90d&direction=down")).body.data).toEqual([])
  })

  it("any date inside the month names it; a closed month without the month before gives no rows", async () => {
    const res = await c.call("/api/reports/tac-changes?date=2026-02-15")
    expect(res.body.meta.currentMonthKey).toBe("202602")
    expect(series(res.body)).toEqual(ofKeys("9105:I", "8043:A", "8200:BPRIV"))
    const jan = await c.call("/api/reports/tac-changes?date=2026-01-20")
    expect(jan.status).toBe(200)
    expect(jan.body.data).toEqual([])
    expect(jan.body.meta).toMatchObject({ currentMonthKey: "202601", previousMonthKey: "202512", total: 0 })
  })
})

describe("validation", () => {
  it.each([
    ["date=2026-03-01", "date"], // March is not closed on 2026-03-04
    ["date=2026-02-30", "date"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=2.5", "limit"],
    ["limit=ten", "limit"],
    // an integer in decimal digits only, as on the screener
    ["limit=1e1", "limit"],
    ["limit=2.0", "limit"],
    ["limit=%2B5", "limit"],
    ["limit=", "limit"],
    ["direction=sideways", "direction"],
    ["category=stocks", "category"],
  ])("%s → 422 naming %s", async (q, parameter) => {
    const res = await c.call(`/api/reports/tac-changes?${q}`)
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe(parameter)
  })

  it("limit=100 is accepted (the bounds are inclusive)", async () => {
    const res = await c.call("/api/reports/tac-changes?limit=100")
    expect(res.status).toBe(200)
    expect(res.body.meta.limit).toBe(100)
  })
})
