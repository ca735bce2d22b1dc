/**
 * /api/families/{family_rar}/index: the precomputed index checked by hand on the three-fund family
 * "Accionario nacional" (test/market/fixtureFunds.ts), and its rules (default currency, from_date,
 * unknown family or currency → 200 with available=false).
 *
 * Three funds, CLP, quotes (price / patrimony in millions):
 *   X 8043-A: 2026-03-02 100 / 1000, 2026-03-03 102 / 1020, 2026-03-04 101 / 1010
 *   Y 9105-A: 2026-03-02 200 / 3000, 2026-03-03 198 / 2970, 2026-03-04 200 / 3000
 *   Z 8106-B:                        2026-03-03  50 / 1000, 2026-03-04  51 / 1020
 * 2026-03-02: base, 100.
 * 2026-03-03: X and Y (Z has no 03-02 quote), weights = patrimony on 03-02:
 *   (1000 × 0.02 + 3000 × (−0.01)) / 4000 = −10 / 4000 = −0.0025 → 100 × 0.9975 = 99.75
 * 2026-03-04: X, Y, Z, weights = patrimony on 03-03:
 *   1020 × (101/102 − 1) = −10;  2970 × (200/198 − 1) = 30;  1000 × (51/50 − 1) = 20
 *   (−10 + 30 + 20) / (1020 + 2970 + 1000) = 40 / 4990 → 99.75 × (1 + 40/4990) = 100.549599198…
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { type Json, type MarketClient, startMarket } from "./client.ts"

let c: MarketClient
beforeAll(async () => {
  c = await startMarket()
})
afterAll(async () => {
  await c?.close()
})

const points = (body: Json) => body.data.map((p: Json) => [p.date, p.value, p.change])

describe("the three-fund family", () => {
  it("base 100, then the opening-patrimony-weighted changes chained", async () => {
    const res = await c.call("/api/families/Accionario%20nacional/index")
    expect(res.status).toBe(200)
    expect(res.body.data[0]).toEqual({ date: "2026-03-02", value: 100 }) // the base point has no change
    expect(res.body.data).toHaveLength(3)
    expect(res.body.data[1].date).toBe("2026-03-03")
    expect(res.body.data[1].value).toBeCloseTo(99.75, 9)
    expect(res.body.data[1].change).toBeCloseTo(-0.0025, 10)
    expect(res.body.data[2].date).toBe("2026-03-04")
    expect(res.body.data[2].value).toBeCloseTo(99.75 * (1 + 40 / 4990), 8)
    expect(res.body.data[2].change).toBeCloseTo(40 / 4990, 10)
    expect(res.body.meta).toMatchObject({
      family: "Accionario nacional",
      family_slug: "accionario-nacional",
      currency: "PESOS",
      availableCurrencies: ["PESOS"],
      base: 100,
      baseDate: "2026-03-02",
      methodology: "family_index_v1",
      available: true,
    })
  })

  it("the slug names the same family; from_date is inclusive and keeps the values (no rebasing)", async () => {
    const res = await c.call("/api/families/accionario-nacional/index?from_date=2026-03-03")
    expect(res.body.data.map((p: Json) => p.date)).toEqual(["2026-03-03", "2026-03-04"])
    expect(res.body.data[0].value).toBeCloseTo(99.75, 9)
  })
})

describe("currencies", () => {
  it("default: the currency with the largest patrimony in CLP (DOLAR: 5.1M USD × 910 > 1,000M CLP)", async () => {
    const res = await c.call("/api/families/accionario-eeuu/index")
    expect(res.body.meta).toMatchObject({ currency: "DOLAR", availableCurrencies: ["DOLAR", "PESOS"], available: true })
    // 9106-A alone: 10 → 10.5 → 10.5 → 10.71
    expect(points(res.body).map((p: Json[]) => p[0])).toEqual(["2026-02-04", "2026-03-02", "2026-03-03", "2026-03-04"])
    expect(res.body.data[1].value).toBeCloseTo(105, 9)
    expect(res.body.data[2].change).toBe(0)
    expect(res.body.data[3].value).toBeCloseTo(107.1, 9)
  })

  it("currency=PESOS (or CLP, any case) picks the CLP index", async () => {
    // 9107-A alone: 1000 → 1010 → 1020 → 1009.8: 100, 101, 102, 100.98
    for (const q of ["PESOS", "clp"]) {
      const res = await c.call(`/api/families/accionario-eeuu/index?currency=${q}`)
      expect(res.body.meta.currency).toBe("PESOS")
      expect(res.body.data.map((p: Json) => p.value)).toEqual([100, expect.closeTo(101, 9), expect.closeTo(102, 9), expect.closeTo(100.98, 9)])
    }
  })

  it("a currency the family has no index in: 200, data [] and available=false", async () => {
    const res = await c.call("/api/families/accionario-nacional/index?currency=DOLAR")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.meta).toMatchObject({ currency: "DOLAR", available: false, availableCurrencies: ["PESOS"] })
  })

  it("an unknown currency value → 422 naming currency", async () => {
    const res = await c.call("/api/families/accionario-eeuu/index?currency=EUR")
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe("currency")
  })
})

describe("families without data", () => {
  it.each(["Balanceado%20moderado", "no-such-family"])("%s: 200 with data [] and available=false", async (family) => {
    const res = await c.call(`/api/families/${family}/index`)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.meta.available).toBe(false)
    expect(res.body.meta.availableCurrencies).toEqual([])
  })

  it("an invalid from_date → 422", async () => {
    const res = await c.call("/api/families/accionario-eeuu/index?from_date=2026-02-31")
    expect(res.status).toBe(422)
    expect(res.body.parameter).toBe("from_date")
  })
})
