/** The FI portfolio routes over real HTTP: default period, 404 / 200 [] / 400, market filter and availability. */
import { describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { testInstrumentId } from "./fiIds.ts"
import { type Json, useFiServer } from "./fiServer.ts"

const api = useFiServer()
const holdings = (run: number, query = "") => api.call(`/api/fi/instruments/${testInstrumentId(run)}/cartera/holdings${query}`)
const resumen = (run: number, query = "") => api.call(`/api/fi/instruments/${testInstrumentId(run)}/cartera/resumen${query}`)
const summary = (body: Json) => body.data.map((r: Json) => `${r.market}${r.position} ${r.instrument_type}`)

describe("FI portfolio: holdings", () => {
  it("uses the latest period with positions by default, ordered by weight (no weight last)", async () => {
    const res = await holdings(9251)
    expect(res.status).toBe(200)
    expect(summary(res.body)).toEqual(["N1 BB", "N2 ACC", "N3 DPF"])
    expect(res.body.meta).toMatchObject({
      instrument_id: testInstrumentId(9251),
      run: "9251-7",
      month: "2025-09",
      market: "all",
      availability: { N: "available", E: "unavailable" },
      sources: [{ market: "N", document: "ifrs_cartera_nac", positions: 3 }],
      valuation_unit: "cmf_reported",
      percentage_unit: "percent_of_fund_assets",
      batch_date: "2026-02-06",
      generated_at: "2026-02-07T03:00:00Z",
    })
  })

  it("shows each position's reported fields", async () => {
    const body = (await holdings(9251)).body
    expect(body.data[0]).toMatchObject({
      market: "N",
      position: 1,
      instrument_type: "BB",
      nemotecnico: "BCHI-A2",
      issuer_rut: "97004000-5",
      issuer_country: "CL",
      functional_currency: "PESOS",
      esf_classification: "VRCR",
      valuation_thousands: 746_000,
      pct_fund_assets: 35.5,
      isin: null,
      issuer_name: null,
    })
    expect(body.data[2]).toMatchObject({ instrument_type: "DPF", pct_fund_assets: null, valuation_thousands: 100_000 })
  })

  it("gives both markets of a month, and filters by market; availability always reports both", async () => {
    const all = await holdings(9251, "?month=2025-06")
    expect(summary(all.body)).toEqual(["N2 BB", "N1 ACC", "E1 ACC"])
    expect(all.body.meta.availability).toEqual({ N: "available", E: "available" })
    const foreign = await holdings(9251, "?month=2025-06&market=E")
    expect(summary(foreign.body)).toEqual(["E1 ACC"])
    expect(foreign.body.data[0]).toMatchObject({ isin: "US0378331005", issuer_name: "APPLE INC", issuer_country: "US", issuer_rut: null })
    expect(foreign.body.meta).toMatchObject({
      market: "E",
      availability: { N: "available", E: "available" },
      sources: [{ market: "E", document: "ifrs_cartera_ext", positions: 1 }],
    })
  })

  it("a market without positions in the month: 200 with data [] and that market unavailable", async () => {
    const res = await holdings(9251, "?market=E")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.meta).toMatchObject({ month: "2025-09", availability: { N: "available", E: "unavailable" }, sources: [] })
    const etf = await holdings(7003)
    expect(etf.body.meta).toMatchObject({ month: "2025-09", availability: { N: "unavailable", E: "available" } })
    expect(etf.body.data[0]).toMatchObject({ instrument_type: "ETFA", functional_currency: "DOLARES", pct_fund_assets: 99.5 })
  })

  it("a well-formed month without data: 200 with data [] and both markets unavailable", async () => {
    const res = await holdings(9251, "?month=2024-03")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.meta).toMatchObject({ month: "2024-03", availability: { N: "unavailable", E: "unavailable" }, sources: [] })
    // A fund without any period, asked for an explicit month, is the same case.
    const none = await holdings(7010, "?month=2025-09")
    expect(none.status).toBe(200)
    expect(none.body.data).toEqual([])
  })

  it("answers 404 without month when the fund has no period at all", async () => {
    for (const run of [7010, 7020]) {
      const res = await holdings(run)
      expect(res.status).toBe(404)
      expectErrorShape(res.body, 404)
    }
  })

  it.each(["2025-9", "2025-13", "2025-00", "202509", "2025-09-01", "sept"])("answers 400 for the malformed month %s", async (month) => {
    const res = await holdings(9251, `?month=${month}`)
    expect(res.status).toBe(400)
    expectErrorShape(res.body, 400)
    expect(res.body).toMatchObject({ error: "bad_request", parameter: "month" })
  })

  it("answers 422 for an unknown market and 404 for an unknown instrument", async () => {
    const market = await holdings(9251, "?market=X")
    expect(market.status).toBe(422)
    expect(market.body.parameter).toBe("market")
    const unknown = await holdings(1111)
    expect(unknown.status).toBe(404)
  })
})

describe("FI portfolio: resumen", () => {
  it("groups both markets by instrument type, largest weight first", async () => {
    const res = await resumen(9251, "?month=2025-06")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { instrument_type: "ACC", positions: 2, valuation_national_thousands: 630_000, valuation_foreign_thousands: 420_000, pct_fund_assets: 50.25 },
      { instrument_type: "BB", positions: 1, valuation_national_thousands: 850_500, valuation_foreign_thousands: 0, pct_fund_assets: 40.5 },
    ])
    expect(res.body.meta).toMatchObject({ month: "2025-06", market: "all", valuation_unit: "cmf_reported" })
  })

  it("follows the same rules: default period, market filter, 200 [], 404, 400", async () => {
    const latest = await resumen(9251)
    expect(latest.body.meta.month).toBe("2025-09")
    expect(latest.body.data.map((r: Json) => [r.instrument_type, r.pct_fund_assets])).toEqual([
      ["BB", 35.5],
      ["ACC", 25.25],
      ["DPF", 0],
    ])
    const national = await resumen(9251, "?month=2025-06&market=N")
    expect(national.body.data.map((r: Json) => [r.instrument_type, r.positions, r.valuation_foreign_thousands])).toEqual([
      ["BB", 1, 0],
      ["ACC", 1, 0],
    ])
    expect((await resumen(9251, "?month=2030-03")).body.data).toEqual([])
    expect((await resumen(7020)).status).toBe(404)
    expect((await resumen(9251, "?month=2025-1")).status).toBe(400)
  })
})
