/** `/api/fi/instruments/{instrument_id}/prices` over real HTTP: ascending rows of every series, range, paging, limits. */
import { describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { testInstrumentId, testSerieId } from "./fiIds.ts"
import { type Json, useFiServer } from "./fiServer.ts"

const api = useFiServer()
const path = (run: number, query = "") => `/api/fi/instruments/${testInstrumentId(run)}/prices${query}`
const keys = (body: Json): string[] => body.data.map((r: Json) => `${r.date} ${r.serie}`)

describe("/api/fi/instruments/{instrument_id}/prices", () => {
  it("gives every book value of every series, ascending by date, then series label", async () => {
    const res = await api.call(path(9251))
    expect(res.status).toBe(200)
    expect(keys(res.body)).toEqual([
      "2026-02-02 A",
      "2026-02-03 A",
      "2026-02-03 I",
      "2026-02-04 A",
      "2026-02-05 A",
      "2026-02-06 A",
      "2026-02-06 I",
    ])
    expect(res.body).toMatchObject({ total: 7, limit: 1000, offset: 0 })
    expect(res.body.meta).toMatchObject({
      instrument_id: testInstrumentId(9251),
      price_source: "cmf",
      price_basis: "valor_libro",
      batch_date: "2026-02-06",
      series: [
        { serie_id: testSerieId(9251, "A"), serie: "A", currency: "CLP" },
        { serie_id: testSerieId(9251, "I"), serie: "I", currency: "CLP" },
      ],
    })
  })

  it("carries book value, economic value, patrimony, total assets and holders per row (nulls kept)", async () => {
    const body = (await api.call(path(9251))).body
    expect(body.data[2]).toEqual({
      date: "2026-02-03",
      serie_id: testSerieId(9251, "I"),
      serie: "I",
      currency: "CLP",
      book_value: 10800.5,
      economic_value: 10900.25,
      patrimony: 900_000_000,
      total_assets: 3_051_000_000,
      holders: 12,
      institutional_holders: 9,
    })
    expect(body.data[4]).toMatchObject({ date: "2026-02-05", book_value: 10504, patrimony: null, holders: null })
  })

  it("keeps from_date and to_date inclusive", async () => {
    const res = await api.call(path(9251, "?from_date=2026-02-03&to_date=2026-02-05"))
    expect(keys(res.body)).toEqual(["2026-02-03 A", "2026-02-03 I", "2026-02-04 A", "2026-02-05 A"])
    expect(res.body.total).toBe(4)
    const one = await api.call(path(9251, "?from_date=2026-02-06&to_date=2026-02-06"))
    expect(keys(one.body)).toEqual(["2026-02-06 A", "2026-02-06 I"])
  })

  it("pages: total before paging, limit rows from offset", async () => {
    const res = await api.call(path(9251, "?limit=2&offset=3"))
    expect(keys(res.body)).toEqual(["2026-02-04 A", "2026-02-05 A"])
    expect(res.body).toMatchObject({ total: 7, limit: 2, offset: 3 })
  })

  it("accepts limit 5000; answers 422 for 5001, 0, a negative offset and unreal dates", async () => {
    expect((await api.call(path(9251, "?limit=5000"))).body.limit).toBe(5000)
    for (const [query, parameter] of [
      ["?limit=5001", "limit"],
      ["?limit=0", "limit"],
      ["?offset=-1", "offset"],
      ["?from_date=2026-02-30", "from_date"],
      ["?to_date=06-02-2026", "to_date"],
    ] as const) {
      const res = await api.call(path(9251, query))
      expect(res.status, query).toBe(422)
      expectErrorShape(res.body, 422)
      expect(res.body.parameter).toBe(parameter)
    }
  })

  it("answers 422 when from_date is later than to_date", async () => {
    const res = await api.call(path(9251, "?from_date=2026-02-05&to_date=2026-02-04"))
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe("from_date")
  })

  it("gives an empty page for an instrument without book values, and for a range without any", async () => {
    const none = await api.call(path(7020))
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ data: [], total: 0, meta: { series: [] } })
    const early = await api.call(path(7010, "?to_date=2025-01-01"))
    expect(early.body).toMatchObject({ data: [], total: 0 })
  })

  it("answers 404 for an unknown UUID", async () => {
    const res = await api.call(`/api/fi/instruments/${testInstrumentId(4321)}/prices`)
    expect(res.status).toBe(404)
    expectErrorShape(res.body, 404)
  })
})
