/**
 * /api/funds/{run}/cartera/resumen and /holdings against the fixture portfolio of 8043 (January:
 * one BCU; February: two national and two foreign positions, test/market/fixtureExtras.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { type Json, type MarketClient, startMarket } from "./client.ts"
import { FI_INSTRUMENT_ID } from "./fixtureExtras.ts"

let c: MarketClient
beforeAll(async () => {
  c = await startMarket()
})
afterAll(async () => {
  await c?.close()
})

const codes = (body: Json) => body.data.map((h: Json) => h.attributes.nemotecnico)

describe("holdings", () => {
  it("latest month by default, all markets, ordered by weight", async () => {
    const res = await c.call("/api/funds/8043-8/cartera/holdings")
    expect(res.status).toBe(200)
    expect(codes(res.body)).toEqual(["SPY US", "CFIXYZ", "QQQ US", "BTU-1"]) // 40.8, 25.5, 15.3, 10.2 %
    expect(res.body.data[0]).toEqual({
      id: "8043_2026-02_E_1",
      type: "holding",
      attributes: {
        market: "extranjera",
        market_code: "E",
        nemotecnico: "SPY US",
        emisor: "SPDR",
        emisor_rut: null,
        pais: "US",
        tipo_instrumento: "ETFA",
        fecha_vencimiento: null,
        valorizacion: 8000,
        pct_activo_fondo: 40.8,
        weight: 0.408,
      },
    })
    expect(res.body.meta).toMatchObject({
      run: "8043-8",
      month: "2026-02",
      market: "all",
      availability: { N: "available", E: "available" },
      percentage_unit: "percent_of_fund_assets",
      count: 4,
    })
  })

  it("market=N / E, month=2026-01, the RUN without check digit", async () => {
    expect(codes((await c.call("/api/funds/8043/cartera/holdings?market=N")).body)).toEqual(["CFIXYZ", "BTU-1"])
    expect(codes((await c.call("/api/funds/8043/cartera/holdings?market=E")).body)).toEqual(["SPY US", "QQQ US"])
    const jan = await c.call("/api/funds/8043/cartera/holdings?month=2026-01")
    expect(codes(jan.body)).toEqual(["BCU-0301"])
    expect(jan.body.meta.availability).toEqual({ N: "available", E: "unavailable" })
  })

  it("a month without positions: 200 with data []", async () => {
    const res = await c.call("/api/funds/8043/cartera/holdings?month=2025-12")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.meta.availability).toEqual({ N: "unavailable", E: "unavailable" })
  })

  it.each(["2026-13", "2026-1", "202602", "feb"])("a malformed month (%s) → 400 naming month", async (month) => {
    const res = await c.call(`/api/funds/8043/cartera/holdings?month=${month}`)
    expect(res.status).toBe(400)
    expectErrorShape(res.body, 400)
    expect(res.body.parameter).toBe("month")
  })

  it("market=X → 422 naming market", async () => {
    const res = await c.call("/api/funds/8043/cartera/holdings?market=X")
    expect(res.status).toBe(422)
    expect(res.body.parameter).toBe("market")
  })
})

describe("resumen", () => {
  it("grouped by instrument type, national plus foreign, by weight", async () => {
    const res = await c.call("/api/funds/8043-8/cartera/resumen")
    expect(res.body.data.map((g: Json) => g.attributes)).toEqual([
      { tipo_instrumento: "ETFA", num_holdings: 2, valorizacion_nacional: 0, valorizacion_extranjera: 11000, pct_activo_fondo: expect.closeTo(56.1, 9), weight: expect.closeTo(0.561, 9) },
      { tipo_instrumento: "ACC", num_holdings: 1, valorizacion_nacional: 5000, valorizacion_extranjera: 0, pct_activo_fondo: 25.5, weight: 0.255 },
      { tipo_instrumento: "BTU", num_holdings: 1, valorizacion_nacional: 2000, valorizacion_extranjera: 0, pct_activo_fondo: 10.2, weight: 0.102 },
    ])
    expect(res.body.meta).toMatchObject({ run: "8043-8", month: "2026-02" })
    const malformed = await c.call("/api/funds/8043-8/cartera/resumen?month=2026-00")
    expect(malformed.status).toBe(400)
  })
})

describe("RUNs that are not mutual funds with a portfolio", () => {
  it("an investment fund's RUN → 404 naming its /api/fi/instruments/{id}/cartera route", async () => {
    for (const tail of ["holdings", "resumen"]) {
      const res = await c.call(`/api/funds/9500/cartera/${tail}`)
      expect(res.status).toBe(404)
      expectErrorShape(res.body, 404)
      expect(res.body.message).toContain(`/api/fi/instruments/${FI_INSTRUMENT_ID}/cartera/${tail}`)
    }
  })

  it("an unknown RUN, or a wrong check digit → 404 pointing to the FI routes", async () => {
    for (const run of ["123456", "8043-1"]) {
      const res = await c.call(`/api/funds/${run}/cartera/holdings`)
      expect(res.status).toBe(404)
      expect(res.body.message).toContain("/api/fi/instruments/")
    }
  })

  it("a known fund without any portfolio and no month → 404; a malformed RUN → 422", async () => {
    const none = await c.call("/api/funds/9105-7/cartera/holdings")
    expect(none.status).toBe(404)
    expectErrorShape(none.body, 404)
    const bad = await c.call("/api/funds/80x43/cartera/holdings")
    expect(bad.status).toBe(422)
    expect(bad.body.parameter).toBe("run")
  })
})
