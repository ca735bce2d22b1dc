/**
 * /api/agf_stats/ranking and /evolution against the market fixture. CLP totals by hand (millions),
 * USD = 910 on 2026-03-04 and 950 on 2026-02-04; EUR has no rate and is left out of patrimony.
 *   2026-03-04  Alfa: 8043-A 1010 + 8106-B 1020 + 8200 500 = 2530; holders 100 + 50 + 40 = 190
 *               Beta: 9105-A 3000 + 9105-I 100 + 9106 5.1M USD × 910 = 4641 + 9107 1000 = 8741; holders 300 + 2 + 21 + 30 = 353
 *               Gamma: 9300 200 + 9301 300 (+ 9302 EUR, unconverted) = 500; holders 1000 + 15 + 3 = 1018
 *   2026-02-04  Alfa: 8043-C 80 + 8200 500 + 8300 50 = 630 (8300 terminated since: it still counts then); holders 8 + 40 + 5 = 53
 *               Beta: 9105-I 100 + 9106 4M × 950 = 3800 + 9107 1000 = 4900; holders 2 + 20 + 30 = 52
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"
import { type Json, type MarketClient, startMarket } from "./client.ts"
import { ALFA, BETA, GAMMA } from "./fixtureFunds.ts"

let c: MarketClient
beforeAll(async () => {
  c = await startMarket()
})
afterAll(async () => {
  await c?.close()
})

const summary = (body: Json) =>
  body.data.map((d: Json) => [d.attributes.administrator, d.attributes.rank, d.attributes.total_patrimony, d.attributes.total_shareholders, d.attributes.fund_count])

describe("/api/agf_stats/ranking", () => {
  it("by patrimony in CLP at the latest date", async () => {
    const res = await c.call("/api/agf_stats/ranking")
    expect(res.status).toBe(200)
    expect(summary(res.body)).toEqual([
      ["Beta AGF S.A.", 1, 8741e6, 353, 3],
      ["Alfa AGF S.A.", 2, 2530e6, 190, 3],
      ["Gamma AGF S.A.", 3, 500e6, 1018, 3],
    ])
    expect(res.body.data[0]).toMatchObject({ id: String(testCrc32(`agf:${BETA}`)), type: "agf_ranking" })
    expect(res.body.meta).toMatchObject({ date: "2026-03-04", metric: "patrimony", currency: "CLP", usdClp: 910, unconvertedSeries: 1 })
    expect(res.body.meta.methodology).toContain("EUR")
  })

  it("by shareholders", async () => {
    const res = await c.call("/api/agf_stats/ranking?metric=shareholders")
    expect(res.body.data.map((d: Json) => [d.id, d.attributes.rank])).toEqual([
      [String(testCrc32(`agf:${GAMMA}`)), 1],
      [String(testCrc32(`agf:${BETA}`)), 2],
      [String(testCrc32(`agf:${ALFA}`)), 3],
    ])
  })

  it("at a past date: the funds quoted then, USD at that date's rate", async () => {
    const res = await c.call("/api/agf_stats/ranking?date=2026-02-10")
    expect(res.body.meta).toMatchObject({ date: "2026-02-04", usdClp: 950 })
    expect(summary(res.body)).toEqual([
      ["Beta AGF S.A.", 1, 4900e6, 52, 3],
      ["Alfa AGF S.A.", 2, 630e6, 53, 3],
      ["Gamma AGF S.A.", 3, 500e6, 1018, 3],
    ])
  })

  it.each([
    ["metric=aum", "metric"],
    ["date=2026-02-29", "date"],
    ["date=2026-03-05", "date"],
  ])("%s → 422 naming %s", async (q, parameter) => {
    const res = await c.call(`/api/agf_stats/ranking?${q}`)
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe(parameter)
  })
})

describe("/api/agf_stats/evolution", () => {
  it("pivots months for the administrators named (case-insensitive), keys as the ranking names them", async () => {
    const res = await c.call("/api/agf_stats/evolution?administrator=alfa%20agf%20s.a.&administrator=BETA%20AGF%20S.A.")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { month: "2026-02", "Alfa AGF S.A.": 630e6, "Beta AGF S.A.": 4900e6 },
      { month: "2026-03", "Alfa AGF S.A.": 2530e6, "Beta AGF S.A.": 8741e6 },
    ])
    expect(res.body.meta).toMatchObject({ metric: "patrimony", administrators: ["Alfa AGF S.A.", "Beta AGF S.A."], currency: "CLP" })
    // 2026-03 is the batch's own month (batch 2026-03-04): its values are quotes up to that date
    expect(res.body.meta.through_date).toBe("2026-03-04")
    expect(res.body.meta.methodology).toContain("partial")
  })

  it("shareholders, one administrator, from_month and to_month inclusive", async () => {
    const res = await c.call("/api/agf_stats/evolution?administrator=Alfa%20AGF%20S.A.&metric=shareholders&from_month=2026-03&to_month=2026-03")
    expect(res.body.data).toEqual([{ month: "2026-03", "Alfa AGF S.A.": 190 }])
    const feb = await c.call("/api/agf_stats/evolution?administrator=Alfa%20AGF%20S.A.&metric=shareholders&to_month=2026-02")
    expect(feb.body.data).toEqual([{ month: "2026-02", "Alfa AGF S.A.": 53 }])
  })

  it.each([
    ["administrator=Omega%20AGF", "administrator"],
    ["", "administrator"],
    ["administrator=Alfa%20AGF%20S.A.&from_month=2026-13", "from_month"],
    ["administrator=Alfa%20AGF%20S.A.&from_month=2026-03&to_month=2026-02", "from_month"],
    ["administrator=Alfa%20AGF%20S.A.&metric=x", "metric"],
    // one administrator twice (in another case) would be summed twice
    ["administrator=Alfa%20AGF%20S.A.&administrator=alfa%20agf%20s.a.", "administrator"],
    ["administrator=Alfa%20AGF%20S.A.&administrator=Beta%20AGF%20S.A.&administrator=Alfa%20AGF%20S.A.%20", "administrator"],
  ])("%s → 422 naming %s", async (q, parameter) => {
    const res = await c.call(`/api/agf_stats/evolution?${q}`)
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe(parameter)
  })
})
