/** `/api/fi/instruments` over real HTTP: filters, paging, limits (never clamped), meta. Expected values: fiData.ts. */
import { describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { ALFA, GAMMA } from "./fiData.ts"
import { testInstrumentId, testSerieId } from "./fiIds.ts"
import { type Json, useFiServer } from "./fiServer.ts"

const api = useFiServer()
const runs = (body: Json): string[] => body.data.map((r: Json) => r.run)

describe("/api/fi/instruments", () => {
  it("lists active instruments by default, ordered by name then RUN, with total/limit/offset and meta", async () => {
    const res = await api.call("/api/fi/instruments")
    expect(res.status).toBe(200)
    expect(runs(res.body)).toEqual(["7003-3", "9251-7", "7020-3", "7010-6"])
    expect(res.body).toMatchObject({ total: 4, limit: 100, offset: 0 })
    // Batch 2026-02-06 (Friday, Chile on UTC−3 in February): complete at Feb 7 00:00 local; next
    // expected batch Monday Feb 9, complete at Feb 10 00:00 local. FI cutoff: 9251's 2026-02-06.
    expect(res.body.meta).toEqual({
      batch_id: api.batchId,
      generated_at: "2026-02-07T03:00:00Z",
      expires_at: "2026-02-10T03:00:00Z",
      batch_date: "2026-02-06",
      cutoff_date: "2026-02-06",
    })
  })

  it("shows each instrument's row: ids, vehicle, classification, price status, main series and series", async () => {
    const body = (await api.call("/api/fi/instruments?status=all")).body
    const row = (run: string) => body.data.find((r: Json) => r.run === run)
    expect(row("7003-3")).toEqual({
      instrument_id: testInstrumentId(7003),
      run: "7003-3",
      name: "ETF GAMMA IPSA",
      vehicle: "etf",
      is_etf: true,
      ticker: "CFIETFGAM",
      regulatory_type: "FIRES",
      status: "active",
      provider_id: GAMMA,
      administrator: "GAMMA CAPITAL ADMINISTRADORA GENERAL DE FONDOS S.A.",
      last_price_date: "2026-02-05",
      price_status: "current",
      main_serie_id: testSerieId(7003, "UNICA"),
      series: [{ serie_id: testSerieId(7003, "UNICA"), serie: "UNICA", currency: "USD" }],
    })
    expect(row("9251-7")).toMatchObject({ vehicle: "investment_fund", is_etf: false, ticker: null, provider_id: ALFA })
    expect(row("9251-7").series.map((s: Json) => s.serie)).toEqual(["A", "I"])
    // 37 days old at the cutoff: stale; no book value at all: unavailable.
    expect(row("7010-6")).toMatchObject({ price_status: "stale", series: [{ currency: "COP" }] })
    expect(row("7020-3")).toMatchObject({ price_status: "unavailable", last_price_date: null, main_serie_id: null, series: [] })
    // 7030: B's last value is a day later than A's, so B is the main series.
    expect(row("7030-0").main_serie_id).toBe(testSerieId(7030, "B"))
  })

  it.each([
    ["status=all", ["7003-3", "9251-7", "7020-3", "7040-8", "7030-0", "7010-6"]],
    ["status=inactive", ["7030-0"]],
    ["status=unknown", ["7040-8"]],
    ["status=active", ["7003-3", "9251-7", "7020-3", "7010-6"]],
    [`provider_id=${GAMMA}`, ["7003-3", "7010-6"]],
    [`provider_id=${ALFA}`, ["9251-7"]],
    ["provider_id=12345", []],
    ["is_etf=true", ["7003-3"]],
    ["is_etf=false", ["9251-7", "7020-3", "7010-6"]],
    ["regulatory_type=FINRE", ["7020-3", "7010-6"]],
    ["regulatory_type=FINRE&status=all", ["7020-3", "7040-8", "7010-6"]],
    ["q=inversion", ["9251-7", "7020-3", "7010-6"]],
    ["q=INVERSIÓN%20gamma", ["7010-6"]],
    ["q=cfietf", ["7003-3"]],
    ["q=9251-7", ["9251-7"]],
    ["q=701", ["7010-6"]],
    ["q=secundarios", []],
    ["q=secundarios&status=all", ["7030-0"]],
    ["is_etf=false&provider_id=" + GAMMA + "&regulatory_type=FINRE&q=deuda", ["7010-6"]],
  ])("filters %s", async (query, expected) => {
    const res = await api.call(`/api/fi/instruments?${query}`)
    expect(res.status).toBe(200)
    expect(runs(res.body)).toEqual(expected)
    expect(res.body.total).toBe(expected.length)
  })

  it("pages after filtering: total counts every match, data holds limit rows from offset", async () => {
    const res = await api.call("/api/fi/instruments?status=all&limit=2&offset=1")
    expect(res.status).toBe(200)
    expect(runs(res.body)).toEqual(["9251-7", "7020-3"])
    expect(res.body).toMatchObject({ total: 6, limit: 2, offset: 1 })
    const past = await api.call("/api/fi/instruments?status=all&offset=6")
    expect(past.body).toMatchObject({ data: [], total: 6, offset: 6 })
  })

  it("accepts the maximum limit 500", async () => {
    const res = await api.call("/api/fi/instruments?limit=500")
    expect(res.status).toBe(200)
    expect(res.body.limit).toBe(500)
  })

  it.each([
    ["limit=501", "limit"],
    ["limit=0", "limit"],
    ["limit=2.5", "limit"],
    ["offset=-1", "offset"],
    ["limit=1e2", "limit"],
    ["offset=0x10", "offset"],
    ["offset=1.0", "offset"],
    ["status=closed", "status"],
    ["regulatory_type=FIxx", "regulatory_type"],
    ["is_etf=yes", "is_etf"],
    ["provider_id=abc", "provider_id"],
    ["provider_id=4294967296", "provider_id"],
  ])("answers 422 naming the parameter for %s (never clamps)", async (query, parameter) => {
    const res = await api.call(`/api/fi/instruments?${query}`)
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe(parameter)
  })
})
