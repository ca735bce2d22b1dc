/**
 * FI/ETF rows of /api/all-funds over real HTTP, against the values of fiData.ts: only active
 * instruments, one row per series (an instrument without series is one `unavailable` row),
 * `fi:{run}`, last book value, price_status, changes only when current, FM-only fields null, tac
 * only from a reviewed current sheet, one shared FI/ETF cutoff and the meta rules per vehicle; a
 * batch without FI data answers 503 for every non-FM vehicle while vehicle=mutual_fund stays 200.
 */
import { describe, expect, it } from "vitest"
import { expectErrorShape, header } from "../support/server.ts"
import { ALFA, BETA, GAMMA } from "./fiData.ts"
import { testSerieId } from "./fiIds.ts"
import { type Json, useFiServer } from "./fiServer.ts"

const round10 = (x: number): number => Math.round(x * 1e10) / 1e10
const FM_ONLY_NULL = {
  category: null,
  fundFamily: null,
  investorClass: null,
  article107RegulationStatus: null,
  seriesContinuity: null,
}

describe("FI/ETF rows in /api/all-funds", () => {
  const api = useFiServer()
  const rows = async (query: string): Promise<Json[]> => {
    const res = await api.call(`/api/all-funds?${query}`)
    expect(res.status).toBe(200)
    return res.body.data
  }

  it("vehicle=investment_fund: active FI only, one row per series, values from the last book value", async () => {
    const res = await api.call("/api/all-funds?vehicle=investment_fund")
    expect(res.status).toBe(200)
    const data: Json[] = res.body.data
    // 9251 (A, I), 7020 (no series), 7010 (COP); not 7030 (inactive), 7040 (unknown) nor the ETF.
    expect(data.map((r) => [r.fundId, r.serie])).toEqual([
      ["fi:9251", "A"],
      ["fi:9251", "I"],
      ["fi:7020", null],
      ["fi:7010", "UNICA"],
    ])
    expect(data[0]).toEqual({
      vehicle: "investment_fund",
      agf: "ALFA AGF S.A.",
      fundName: "FONDO DE INVERSIÓN ALFA RENTA INMOBILIARIA",
      fundId: "fi:9251",
      run: "9251-7",
      serie: "A",
      serieId: testSerieId(9251, "A"),
      currency: "CLP",
      tac: 0.0125,
      price: 10505.25,
      price_as_of_date: "2026-02-06",
      price_basis: "valor_libro",
      price_status: "current",
      dailyChange: round10(10505.25 / 10504 - 1),
      monthlyChange: null, // no book value within 7 days of 2026-01-06
      patrimony: 2_110_000_000,
      previousPatrimony: null, // the 2026-02-05 value has no patrimony
      monthlyPatrimony: null,
      shareholders: 315,
      ticker: null,
      ...FM_ONLY_NULL,
    })
    // I: previous value on or before 2026-02-05 is 2026-02-03; pending sheet → tac null.
    expect(data[1]).toMatchObject({
      serieId: testSerieId(9251, "I"),
      price: 10803.25,
      price_status: "current",
      dailyChange: round10(10803.25 / 10800.5 - 1),
      previousPatrimony: 900_000_000,
      tac: null,
    })
    expect(data[2]).toMatchObject({
      fundId: "fi:7020",
      run: "7020-3",
      serieId: null,
      currency: null,
      price: null,
      price_as_of_date: null,
      price_status: "unavailable",
      dailyChange: null,
      monthlyChange: null,
      tac: null,
      ...FM_ONLY_NULL,
    })
    // COP fund, last value 2025-12-31: 37 days before the cutoff → stale, no changes; NO_INFORMADA → tac null.
    expect(data[3]).toMatchObject({
      serieId: testSerieId(7010, "UNICA"),
      currency: "COP",
      price: 9510.75,
      price_as_of_date: "2025-12-31",
      price_basis: "valor_libro",
      price_status: "stale",
      dailyChange: null,
      monthlyChange: null,
      tac: null,
    })
    expect(res.body.meta).toEqual({
      batch_id: api.batchId,
      vehicle: "investment_fund",
      date: "2026-02-06",
      previousDate: "2026-02-05",
      agfCount: 0,
      investmentFundAgfCount: new Set([ALFA, BETA, GAMMA]).size,
      count: 4,
    })
  })

  it("vehicle=etf: the ETF row at the shared cutoff; no daily change without a value after the previous date", async () => {
    const res = await api.call("/api/all-funds?vehicle=etf")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      {
        vehicle: "etf",
        agf: "GAMMA CAPITAL ADMINISTRADORA GENERAL DE FONDOS S.A.",
        fundName: "ETF GAMMA IPSA",
        fundId: "fi:7003",
        run: "7003-3",
        serie: "UNICA",
        serieId: testSerieId(7003, "UNICA"),
        currency: "USD",
        tac: null, // CONFLICTO
        price: 102.25,
        price_as_of_date: "2026-02-05",
        price_basis: "valor_libro",
        price_status: "current",
        dailyChange: null,
        monthlyChange: null,
        patrimony: 40_300_000,
        previousPatrimony: null,
        monthlyPatrimony: null,
        shareholders: 851,
        ticker: "CFIETFGAM",
        ...FM_ONLY_NULL,
      },
    ])
    expect(res.body.meta).toEqual({
      batch_id: api.batchId,
      vehicle: "etf",
      date: "2026-02-06",
      previousDate: "2026-02-05",
      agfCount: 0,
      etfAgfCount: 1,
      count: 1,
    })
  })

  it("date: FI rows at the latest FI date on or before it, changes against the previous FI date", async () => {
    const res = await api.call("/api/all-funds?vehicle=investment_fund&date=2026-02-04")
    expect(res.status).toBe(200)
    expect(res.body.meta).toMatchObject({ date: "2026-02-04", previousDate: "2026-02-03" })
    const a = res.body.data.find((r: Json) => r.serieId === testSerieId(9251, "A"))
    expect(a).toMatchObject({
      price: 10502.75,
      price_as_of_date: "2026-02-04",
      price_status: "current",
      dailyChange: round10(10502.75 / 10501.5 - 1),
      previousPatrimony: 2_101_000_000,
    })
    const etf = (await rows("vehicle=etf&date=2026-02-04"))[0]
    expect(etf).toMatchObject({ price: 101.5, price_as_of_date: "2026-02-04", dailyChange: null })
  })

  it("a date before any FI/ETF book value (the first is 2025-08-27): no cutoff in meta, every price unavailable", async () => {
    const before = await api.call("/api/all-funds?vehicle=investment_fund&date=2025-08-26")
    expect(before.status).toBe(200)
    expect(before.body.meta).toMatchObject({ date: null, previousDate: null })
    expect(before.body.data.length).toBeGreaterThan(0)
    for (const r of before.body.data as Json[]) expect(r).toMatchObject({ price: null, price_as_of_date: null, price_status: "unavailable" })
    const all = await api.call("/api/all-funds?vehicle=all&date=2025-08-26")
    const none = { date: null, previousDate: null }
    expect(all.body.meta.datesByVehicle).toMatchObject({ etf: none, investment_fund: none })
    // the first FI date itself is a cutoff, with no date before it
    const first = await api.call("/api/all-funds?vehicle=investment_fund&date=2025-08-27")
    expect(first.body.meta).toMatchObject({ date: "2025-08-27", previousDate: null })
  })

  it("vehicle=all: FM meta kept, both administrator counts, one FI/ETF date in datesByVehicle", async () => {
    const fm = (await api.call("/api/all-funds?vehicle=mutual_fund")).body
    const all = (await api.call("/api/all-funds?vehicle=all")).body
    expect(all.data).toHaveLength(fm.data.length + 4 + 1)
    expect(all.data.slice(0, fm.data.length)).toEqual(fm.data)
    expect(all.data.slice(fm.data.length).map((r: Json) => r.vehicle)).toEqual([
      "etf",
      "investment_fund",
      "investment_fund",
      "investment_fund",
      "investment_fund",
    ])
    const fiDates = { date: "2026-02-06", previousDate: "2026-02-05" }
    expect(all.meta).toEqual({
      batch_id: api.batchId,
      vehicle: "all",
      date: fm.meta.date,
      previousDate: fm.meta.previousDate,
      agfCount: fm.meta.agfCount,
      etfAgfCount: 1,
      investmentFundAgfCount: 3,
      datesByVehicle: {
        mutual_fund: { date: fm.meta.date, previousDate: fm.meta.previousDate },
        etf: fiDates,
        investment_fund: fiDates,
      },
      count: fm.data.length + 5,
    })
  })

  it("the FM filters exclude FI/ETF rows (their fields are null)", async () => {
    const fm = (await api.call("/api/all-funds?vehicle=mutual_fund")).body.data as Json[]
    const category = fm.find((r) => r.category !== null)?.category as string
    const filtered = await rows(`vehicle=all&category=${category}`)
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.every((r) => r.vehicle === "mutual_fund")).toBe(true)
    expect(await rows("vehicle=investment_fund&article107_regulation_status=unknown")).toEqual([])
  })
})

describe("/api/all-funds when the batch has no FI data", () => {
  const api = useFiServer({ unavailable: "fi_registry: list FIRES missing" })

  it.each(["etf", "investment_fund", "all"])("vehicle=%s → 503 fi_unavailable with Retry-After, no FM rows", async (v) => {
    const res = await api.call(`/api/all-funds?vehicle=${v}`)
    expect(res.status).toBe(503)
    expectErrorShape(res.body, 503)
    expect(res.body.error).toBe("fi_unavailable")
    expect(Number(header(res, "retry-after"))).toBeGreaterThan(0)
    expect(res.body.data).toBeUndefined()
  })

  it("vehicle=mutual_fund (and the default) stay 200", async () => {
    const res = await api.call("/api/all-funds?vehicle=mutual_fund")
    expect(res.status).toBe(200)
    expect(res.body.data.length).toBeGreaterThan(0)
    expect((await api.call("/api/all-funds")).status).toBe(200)
  })
})
