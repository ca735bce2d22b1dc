/**
 * /api/market-summary against the market fixture; every expected number is worked out by hand
 * from test/market/fixtureFunds.ts (USD = 910 CLP on 2026-03-04).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { type Json, type MarketClient, startMarket } from "./client.ts"
import { sid } from "./fixtureFunds.ts"

let c: MarketClient
let latest: Json
beforeAll(async () => {
  c = await startMarket()
  latest = (await c.call("/api/market-summary")).body
})
afterAll(async () => {
  await c?.close()
})

const byId = (...keys: string[]) => keys.map((k) => sid(k)).sort((a, b) => a - b).map(String)
const moverIds = (list: Json[]) => list.map((m) => m.serieId)

describe("the latest summary", () => {
  it("meta: dates, not a backtest, the rules stated, classification coverage", () => {
    expect(latest.meta).toMatchObject({
      date: "2026-03-04",
      previousDate: "2026-03-03",
      monthlyBaseDate: "2026-02-04",
      backtest: false,
      survivorshipBias: null,
      usdClp: 910,
      topN: 10,
    })
    expect(latest.meta.methodology.movers).toContain("0.15")
    expect(latest.meta.methodology.families).toContain("opening patrimony")
    // classified: 8043-A, 9105-A, 8106-B, 9106-A, 9107-A, 8200-BPRIV; unclassified: 9105-I, 9300, 9301, 9302
    expect(latest.meta.classification).toMatchObject({ available: true, reportDate: "2026-02-27", classifiedSeries: 6, unclassifiedSeries: 4 })
    expect(latest.meta.universe).toBe("current_vigente") // the reference contract's word
    // CLP: classified 1010+3000+1020+4641+1000+500 = 11171 (millions); all convertible 11171+100+200+300 = 11771 (EUR left out)
    expect(latest.meta.classification.coverageByPatrimonyClp).toBeCloseTo(11171 / 11771, 9)
  })

  it("families, largest CLP patrimony first, changes weighted by opening patrimony", () => {
    expect(latest.families.map((f: Json) => f.family)).toEqual(["Accionario eeuu", "Accionario nacional", "Deuda < 90 días nacional"])
    const [eeuu, nacional, deuda] = latest.families
    // eeuu: DOLAR 5.1M USD × 910 = 4641M CLP beats PESOS 1000M → headline DOLAR
    expect(eeuu).toMatchObject({ slug: "accionario-eeuu", displayGroup: "Accionario internacional", indexCurrency: "DOLAR", seriesCount: 2, fundCount: 2 })
    expect(eeuu.patrimonyClp).toBeCloseTo(5641e6, 0)
    expect(eeuu.dailyChange).toBeCloseTo(0.02, 10) // 10.71 / 10.5 − 1
    expect(eeuu.monthlyChange).toBeCloseTo(0.071, 10) // 10.71 / 10 − 1
    expect(eeuu.byCurrency.PESOS).toEqual({ dailyChange: expect.closeTo(-0.01, 10), monthlyChange: expect.closeTo(0.0098, 10), patrimony: 1e9, seriesCount: 1 })
    expect(eeuu.byCurrency.DOLAR).toEqual({ dailyChange: expect.closeTo(0.02, 10), monthlyChange: expect.closeTo(0.071, 10), patrimony: 5_100_000, seriesCount: 1 })
    // nacional, opening patrimony on 2026-03-03: X 1020M (−1/102), Y 2970M (+2/198), Z 1000M (+0.02)
    //   (−10 + 30 + 20) / (1020 + 2970 + 1000) = 40 / 4990
    expect(nacional).toMatchObject({ indexCurrency: "PESOS", seriesCount: 3, fundCount: 3, monthlyChange: null, patrimonyClp: 5030e6 })
    expect(nacional.dailyChange).toBeCloseTo(40 / 4990, 9)
    expect(deuda.dailyChange).toBeCloseTo(0.001, 10)
    expect(deuda.monthlyChange).toBeCloseTo(0.003002, 10)
  })

  it("daily movers: positive / negative, ties by numeric id, the +30 % outlier and the distribution left out", () => {
    expect(moverIds(latest.topGainersDaily)).toEqual([
      ...byId("8106:B", "9106:A"), // both +0.02
      String(sid("9105:A")), // 200/198 − 1
      ...byId("9105:I", "9302:A"), // both +0.005
      String(sid("8200:BPRIV")), // +0.001
    ])
    expect(moverIds(latest.topLosersDaily)).toEqual([String(sid("9107:A")), String(sid("8043:A"))]) // −0.01, −0.0098
    const all = [...latest.topGainersDaily, ...latest.topLosersDaily, ...latest.topGainersMonthly, ...latest.topLosersMonthly]
    expect(moverIds(all)).not.toContain(String(sid("9300:A"))) // +30 % in a day
    expect(moverIds(all)).not.toContain(String(sid("9301:A"))) // −5 % on a distribution day
    expect(latest.topGainersDaily[0]).toMatchObject({ run: expect.any(String), fundName: expect.any(String), price: expect.any(Number) })
  })

  it("monthly movers", () => {
    // 10.71/10 − 1, 20.1/19 − 1, 1009.8/1000 − 1, 1003.002/1000 − 1
    expect(moverIds(latest.topGainersMonthly)).toEqual(["9106:A", "9302:A", "9107:A", "8200:BPRIV"].map((k) => String(sid(k))))
    expect(latest.topGainersMonthly[1].monthlyChange).toBeCloseTo(20.1 / 19 - 1, 9)
    expect(moverIds(latest.topLosersMonthly)).toEqual([String(sid("9105:I"))]) // 10.05/10.1 − 1
  })

  it("is served from stored bytes, gzip when asked", async () => {
    const zipped = await c.callGzip("/api/market-summary")
    expect(zipped.encoding).toBe("gzip")
    expect(zipped.body).toEqual(latest)
  })
})

describe("a historical date", () => {
  it("2026-03-03 is a backtest and meta says so", async () => {
    const res = await c.call("/api/market-summary?date=2026-03-03")
    expect(res.status).toBe(200)
    expect(res.body.meta).toMatchObject({ date: "2026-03-03", previousDate: "2026-03-02", backtest: true })
    expect(res.body.meta.survivorshipBias).toContain("today's funds")
    const nacional = res.body.families.find((f: Json) => f.family === "Accionario nacional")
    // X 1000M × +0.02, Y 3000M × −0.01 (Z has no quote on 2026-03-02): (20 − 30) / 4000
    expect(nacional.dailyChange).toBeCloseTo(-0.0025, 10)
  })

  it("only today's funds: the terminated fund and the absorbed series quoted that day are not counted", async () => {
    const res = await c.call("/api/market-summary?date=2026-03-01")
    expect(res.body.meta.date).toBe("2026-02-04")
    // quoted on 2026-02-04 and in today's universe: 8200, 9105-I, 9106, 9107, 9300, 9301, 9302 (not 8043-C, not 8300)
    expect(res.body.meta.classification).toMatchObject({ classifiedSeries: 3, unclassifiedSeries: 4 })
  })

  it.each(["2026-02-30", "2026-03-05", "2025-01-01", "yesterday"])("date=%s → 422 naming date", async (date) => {
    const res = await c.call(`/api/market-summary?date=${date}`)
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe("date")
  })
})
