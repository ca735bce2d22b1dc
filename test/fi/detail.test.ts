/** `/api/fi/instruments/{instrument_id}` over real HTTP: the blocks, tac.status and price_status cases, 404/422. */
import { describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { testInstrumentId, testSerieId } from "./fiIds.ts"
import { type Json, useFiServer } from "./fiServer.ts"

const api = useFiServer()
const detail = async (run: number): Promise<Json> => {
  const res = await api.call(`/api/fi/instruments/${testInstrumentId(run)}`)
  expect(res.status).toBe(200)
  return res.body
}

describe("/api/fi/instruments/{instrument_id}", () => {
  it("9251: classification, latest quota, patrimony, fact sheet, available TAC and article 107 of the main series", async () => {
    const body = await detail(9251)
    const a = testSerieId(9251, "A")
    expect(body.data).toMatchObject({
      instrument_id: testInstrumentId(9251),
      run: "9251-7",
      vehicle: "investment_fund",
      status: "active",
      main_serie_id: a,
      regulatory: { type: "FIRES", redeemable: true },
      // A and I both end 2026-02-06; A has the larger patrimony (2,110 M vs 905 M), so it is the main series.
      latest_quota: {
        serie_id: a,
        serie: "A",
        currency: "CLP",
        date: "2026-02-06",
        book_value: 10505.25,
        economic_value: 10614.5,
        price_basis: "valor_libro",
        price_status: "current",
      },
      patrimony: {
        serie_id: a,
        date: "2026-02-06",
        currency: "CLP",
        value: 2_110_000_000,
        total_assets: 3_060_000_000,
        holders: 315,
        institutional_holders: 5,
      },
      fact_sheet: { serie_id: a, review: "REVISADA", tac: 0.0125, sheet_date: "2025-09-30" },
      // Sheet of 2025-09-30 is 129 days before the 2026-02-06 cutoff: within 365 days.
      tac: { serie_id: a, status: "available", value: 0.0125, as_of: "2026-02-06" },
      article107: { status: "declares_eligible", regulation_date: "2025-03-01", series_exception: ["I"] },
    })
    expect(body.meta).toMatchObject({ batch_date: "2026-02-06", cutoff_date: "2026-02-06", generated_at: "2026-02-07T03:00:00Z" })
  })

  it("9251: every series with its own price and TAC status; a pending sheet gives no TAC value", async () => {
    const body = await detail(9251)
    expect(body.data.series).toEqual([
      {
        serie_id: testSerieId(9251, "A"),
        serie: "A",
        currency: "CLP",
        is_main: true,
        last_price_date: "2026-02-06",
        book_value: 10505.25,
        patrimony: 2_110_000_000,
        holders: 315,
        price_status: "current",
        tac_status: "available",
        tac: 0.0125,
      },
      {
        serie_id: testSerieId(9251, "I"),
        serie: "I",
        currency: "CLP",
        is_main: false,
        last_price_date: "2026-02-06",
        book_value: 10803.25,
        patrimony: 905_000_000,
        holders: 12,
        price_status: "current",
        tac_status: "pending_review",
        tac: null,
      },
    ])
  })

  it("7003 (ETF): conflicting sheet → unavailable_or_conflict, the sheet's TAC shown only in fact_sheet", async () => {
    const body = await detail(7003)
    expect(body.data).toMatchObject({
      vehicle: "etf",
      ticker: "CFIETFGAM",
      latest_quota: { date: "2026-02-05", book_value: 102.25, currency: "USD", price_status: "current" },
      fact_sheet: { review: "CONFLICTO", tac: 0.004 },
      tac: { status: "unavailable_or_conflict", value: null },
      article107: null,
    })
  })

  it("7010 (COP): last value 37 days before the cutoff → stale; sheet without TAC → not_reported", async () => {
    const body = await detail(7010)
    expect(body.data).toMatchObject({
      regulatory: { type: "FINRE", redeemable: false },
      latest_quota: { currency: "COP", date: "2025-12-31", book_value: 9510.75, economic_value: null, price_status: "stale" },
      tac: { status: "not_reported", value: null },
    })
  })

  it("7020: no series at all → price unavailable, null blocks, TAC not_checked", async () => {
    const body = await detail(7020)
    expect(body.data).toMatchObject({
      price_status: "unavailable",
      main_serie_id: null,
      latest_quota: null,
      patrimony: null,
      fact_sheet: null,
      tac: { serie_id: null, status: "not_checked", value: null, as_of: "2026-02-06" },
      series: [],
    })
  })

  it("7030 (inactive): main series B (latest value); a sheet 586 days old and an undated one are stale", async () => {
    const body = await detail(7030)
    expect(body.data).toMatchObject({
      status: "inactive",
      main_serie_id: testSerieId(7030, "B"),
      latest_quota: { serie: "B", date: "2025-08-29", price_status: "stale" },
      tac: { status: "stale", value: null },
    })
    expect(body.data.series.map((s: Json) => [s.serie, s.is_main, s.tac_status, s.price_status])).toEqual([
      ["A", false, "stale", "stale"],
      ["B", true, "stale", "stale"],
    ])
  })

  it("accepts the UUID in upper case", async () => {
    const res = await api.call(`/api/fi/instruments/${testInstrumentId(9251).toUpperCase()}`)
    expect(res.status).toBe(200)
    expect(res.body.data.instrument_id).toBe(testInstrumentId(9251))
  })

  it("answers 404 for an unknown UUID, and for a serie UUID (naming its instrument)", async () => {
    const unknown = await api.call(`/api/fi/instruments/${testInstrumentId(1234)}`)
    expect(unknown.status).toBe(404)
    expectErrorShape(unknown.body, 404)
    expect(unknown.body.parameter).toBe("instrument_id")
    const serie = await api.call(`/api/fi/instruments/${testSerieId(9251, "A")}`)
    expect(serie.status).toBe(404)
    expectErrorShape(serie.body, 404)
    expect(serie.body.message).toContain(testInstrumentId(9251))
  })

  it("answers 422 for an instrument_id that is not a UUID", async () => {
    const res = await api.call("/api/fi/instruments/9251")
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe("instrument_id")
  })
})
