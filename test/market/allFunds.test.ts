/**
 * /api/all-funds over real HTTP against the market fixture (test/market/fixtureFunds.ts): the
 * universe, the values of each row worked out by hand, the renamed series, filters, dates, vehicles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape, header } from "../support/server.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"
import { type Json, type MarketClient, startMarket } from "./client.ts"
import { sid } from "./fixtureFunds.ts"

let c: MarketClient
beforeAll(async () => {
  c = await startMarket()
})
afterAll(async () => {
  await c?.close()
})

const ids = (body: Json): string[] => body.data.map((r: Json) => r.serieId)
const ofKeys = (...keys: string[]) => keys.map((k) => String(sid(k)))

describe("the mutual-fund universe at the batch date", () => {
  it("lists the current funds' reporting series, by administrator, fund name, series; not the absorbed or terminated ones", async () => {
    const res = await c.call("/api/all-funds")
    expect(res.status).toBe(200)
    // 8043-C's last quote is 2026-02-04 (absorbed); 8300 ended 2026-02-20: both out.
    expect(ids(res.body)).toEqual(
      ofKeys("8043:A", "8200:BPRIV", "8106:B", "9105:A", "9105:I", "9106:A", "9107:A", "9302:A", "9301:A", "9300:A"),
    )
    expect(res.body.meta).toEqual({ batch_id: c.batchId, vehicle: "mutual_fund", date: "2026-03-04", previousDate: "2026-03-03", agfCount: 3, count: 10 })
    for (const row of res.body.data) expect(row.vehicle).toBe("mutual_fund")
  })

  it("a USD series: price, changes as fractions, patrimonies and TAC worked out by hand", async () => {
    const res = await c.call("/api/all-funds")
    const row = res.body.data.find((r: Json) => r.serieId === String(sid("9106:A")))
    expect(row).toEqual({
      vehicle: "mutual_fund",
      agf: "Beta AGF S.A.",
      fundName: "Fondo Mutuo Beta USA",
      fundId: String(testCrc32("fm:9106")),
      run: "9106-5", // 6·2 + 0·3 + 1·4 + 9·5 = 61; 11 − 61 mod 11 = 5
      category: "equity",
      fundFamily: "Accionario eeuu",
      serie: "A",
      serieId: String(sid("9106:A")),
      currency: "USD",
      tac: 0.012, // February's TAC, the latest month on or before March
      investorClass: "Retail",
      price: 10.71,
      price_as_of_date: "2026-03-04",
      dailyChange: expect.closeTo(0.02, 10), // 10.71 / 10.5 − 1
      monthlyChange: expect.closeTo(0.071, 10), // 10.71 / 10 (2026-02-04) − 1
      patrimony: 5_100_000,
      previousPatrimony: 5_000_000, // at 2026-03-03
      monthlyPatrimony: 4_000_000, // at 2026-02-04
      shareholders: 21,
      // four quotes: too short for any risk figure (test/market/allFundsRisk.test.ts has long series)
      volatility_monthly_12m: null,
      volatility_monthly_36m: null,
      volatility_annualized_12m: null,
      volatility_annualized_36m: null,
      max_drawdown_36m: null,
      risk_level: null,
      risk_score: null,
      risk_as_of_date: "2026-03-04",
      risk_method_version: "risk_v1",
      article107RegulationStatus: "unknown",
      seriesContinuity: null,
    })
  })

  it("the renamed series is one row under its current id, with its continuity and changes across the rename", async () => {
    const res = await c.call("/api/all-funds")
    const rows = res.body.data.filter((r: Json) => r.run === "8200-7")
    expect(rows).toHaveLength(1)
    const row = rows[0]
    expect(row.serieId).toBe(String(sid("8200:BPRIV")))
    expect(row.serie).toBe("BPRIV")
    expect(row.price_as_of_date).toBe("2026-03-04")
    expect(row.seriesContinuity).toEqual({
      type: "rename",
      previousSerie: "B",
      currentSerie: "BPRIV",
      firstCurrentDate: "2026-03-03",
      aliasIds: [String(sid("8200:BPRIV")), String(sid("8200:B"))],
    })
    expect(row.dailyChange).toBeCloseTo(0.001, 10) // 1003.002 / 1002 − 1
    expect(row.monthlyChange).toBeCloseTo(0.003002, 10) // 1003.002 / 1000 (2026-02-04, label B then) − 1
  })

  it("a series without a quote on the monthly base has monthlyChange null; article 107 status per fund, not eligible for an excepted series", async () => {
    const res = await c.call("/api/all-funds")
    const x = res.body.data.find((r: Json) => r.serieId === String(sid("8043:A")))
    expect(x.dailyChange).toBeCloseTo(101 / 102 - 1, 9)
    expect(x.monthlyChange).toBeNull() // first quote 2026-03-02
    expect(x.monthlyPatrimony).toBeNull()
    expect(x.article107RegulationStatus).toBe("declares_eligible")
    const i = res.body.data.find((r: Json) => r.serieId === String(sid("9105:I")))
    expect(i.article107RegulationStatus).toBe("declares_not_eligible")
    // the fund declares eligible, but excepts this series
    const excepted = res.body.data.find((r: Json) => r.serieId === String(sid("9107:A")))
    expect(excepted.article107RegulationStatus).toBe("declares_not_eligible")
    expect((await c.call("/api/funds/9107/article107")).body).toMatchObject({
      article107RegulationStatus: "declares_eligible",
      evidence: { seriesException: true, exceptedSeries: ["a "] },
    })
    expect(i.investorClass).toBe("Institutional")
    expect(i.fundFamily).toBeNull()
    expect(i.monthlyChange).toBeCloseTo(10.05 / 10.1 - 1, 9)
    const eur = res.body.data.find((r: Json) => r.serieId === String(sid("9302:A")))
    expect(eur.currency).toBe("EUR")
    expect(eur.tac).toBeNull()
  })

  it("serves the stored bytes gzip-compressed when asked, equal to the plain answer", async () => {
    const plain = await c.call("/api/all-funds")
    const zipped = await c.callGzip("/api/all-funds")
    expect(zipped.status).toBe(200)
    expect(zipped.encoding).toBe("gzip")
    expect(zipped.raw.length).toBeLessThan(plain.text.length)
    expect(zipped.body).toEqual(plain.body)
  })
})

describe("filters", () => {
  it("category, case-insensitive", async () => {
    const res = await c.call("/api/all-funds?category=EQUITY")
    expect(ids(res.body)).toEqual(ofKeys("8043:A", "8106:B", "9105:A", "9105:I", "9106:A", "9107:A"))
    expect(res.body.meta).toMatchObject({ agfCount: 2, count: 6, date: "2026-03-04" })
  })

  it("fund_family by display name or slug", async () => {
    expect(ids((await c.call("/api/all-funds?fund_family=accionario-eeuu")).body)).toEqual(ofKeys("9106:A", "9107:A"))
    expect(ids((await c.call("/api/all-funds?fund_family=Accionario%20Nacional")).body)).toEqual(ofKeys("8043:A", "8106:B", "9105:A"))
  })

  it("article107_regulation_status, alone and with category", async () => {
    // 9107 declares eligible except its series A (in the list as "a ": letter case and spaces do not matter)
    expect(ids((await c.call("/api/all-funds?article107_regulation_status=declares_not_eligible")).body)).toEqual(
      ofKeys("9105:A", "9105:I", "9107:A"),
    )
    expect(ids((await c.call("/api/all-funds?article107_regulation_status=unknown")).body)).toHaveLength(6)
    expect(ids((await c.call("/api/all-funds?category=equity&article107_regulation_status=declares_eligible")).body)).toEqual(
      ofKeys("8043:A"),
    )
  })

  it.each([
    ["category=money_market", "category"],
    ["fund_family=Nope", "fund_family"],
    ["article107_regulation_status=yes", "article107_regulation_status"],
    ["vehicle=bus", "vehicle"],
    ["date=2026-02-30", "date"],
    ["date=2026-3-01", "date"],
    ["date=2026-03-05", "date"],
  ])("%s → 422 naming %s", async (query, parameter) => {
    const res = await c.call(`/api/all-funds?${query}`)
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe(parameter)
  })
})

describe("dates", () => {
  it("date=2026-03-03: values at that date, its previous market date, no monthly base (none on or before 2026-02-03)", async () => {
    const res = await c.call("/api/all-funds?date=2026-03-03")
    expect(res.status).toBe(200)
    expect(res.body.meta).toMatchObject({ date: "2026-03-03", previousDate: "2026-03-02", count: 10 })
    const by = (k: string) => res.body.data.find((r: Json) => r.serieId === String(sid(k)))
    expect(by("8043:A")).toMatchObject({ price: 102, price_as_of_date: "2026-03-03", monthlyChange: null })
    expect(by("8043:A").dailyChange).toBeCloseTo(0.02, 10) // 102 / 100 − 1
    expect(by("9105:A").dailyChange).toBeCloseTo(-0.01, 10) // 198 / 200 − 1
    expect(by("8106:B").dailyChange).toBeNull() // no quote on or before 2026-03-02
    expect(by("9106:A").dailyChange).toBe(0)
  })

  it("a Sunday resolves to the last market date before it; series without a quote by then are left out", async () => {
    const res = await c.call("/api/all-funds?date=2026-03-01")
    expect(res.body.meta).toMatchObject({ date: "2026-02-04", previousDate: null, count: 7 })
    expect(ids(res.body)).toEqual(ofKeys("8200:BPRIV", "9105:I", "9106:A", "9107:A", "9302:A", "9301:A", "9300:A"))
    for (const row of res.body.data) expect(row.dailyChange).toBeNull()
  })

  it("a date before any quote: empty data, null dates", async () => {
    const res = await c.call("/api/all-funds?date=2025-01-15")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: [], meta: { batch_id: c.batchId, vehicle: "mutual_fund", date: null, previousDate: null, agfCount: 0, count: 0 } })
  })
})

describe("vehicles", () => {
  it("vehicle=mutual_fund is the default answer", async () => {
    expect((await c.call("/api/all-funds?vehicle=mutual_fund")).body).toEqual((await c.call("/api/all-funds")).body)
  })

  it.each(["etf", "investment_fund", "all"])("vehicle=%s → 503 fi_unavailable (fixture without FI data) with Retry-After, no FM rows either", async (v) => {
    const res = await c.call(`/api/all-funds?vehicle=${v}`)
    expect(res.status).toBe(503)
    expectErrorShape(res.body, 503)
    expect(res.body.error).toBe("fi_unavailable")
    expect(Number(header(res, "retry-after"))).toBeGreaterThan(0)
  })
})
