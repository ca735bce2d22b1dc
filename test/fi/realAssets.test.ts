/**
 * FI/ETF UUIDs on /api/real_assets/{asset_id}/days, /returns, /risk_metrics, /expense_ratio (and
 * its history) over real HTTP, against fiData.ts: a serie UUID is that series, an instrument UUID
 * its main series; book values with currency, price_source cmf and price_basis valor_libro; price
 * returns only (quota_source cmf_valor_libro); COP → null windows with unknown_currency; the TAC
 * only from a reviewed current sheet; unknown UUID → 404; no FI data → 503 while FM stays 200.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WINDOWS } from "../../snapshots/compute/Windows.ts"
import { ALL_ON, startWithFlags } from "../returns/fixture.ts"
import { createKey, expectErrorShape, get, header, type RunningServer } from "../support/server.ts"
import { makeFiFixture } from "./fiFixture.ts"
import { testInstrumentId, testSerieId, testUuidV5 } from "./fiIds.ts"
import { type Json, useFiServer } from "./fiServer.ts"

const A = testSerieId(9251, "A")
const I = testSerieId(9251, "I")
const COP = testSerieId(7010, "UNICA")
const ETF = testSerieId(7003, "UNICA")
const UNKNOWN = testUuidV5("fi:1234:A")
const ROUTES = ["days", "returns", "risk_metrics", "expense_ratio", "expense_ratio/history"]

describe("FI/ETF ids on /api/real_assets", () => {
  const api = useFiServer()

  it("/days of a serie UUID: its book values ascending, with currency, price_source and price_basis", async () => {
    const res = await api.call(`/api/real_assets/${A}/days`)
    expect(res.status).toBe(200)
    const prices = [10500.25, 10501.5, 10502.75, 10504, 10505.25]
    expect(res.body.data).toEqual(
      ["2026-02-02", "2026-02-03", "2026-02-04", "2026-02-05", "2026-02-06"].map((date, k) => ({
        id: `${A}_${date}`,
        type: "real_asset_day",
        attributes: { date, price: prices[k], currency: "CLP", price_source: "cmf", price_basis: "valor_libro" },
      })),
    )
    expect(res.body.meta).toMatchObject({ asset_id: A, count: 5, serie_id: A })
    const from = await api.call(`/api/real_assets/${A}/days?from_date=2026-02-05`)
    expect(from.body.data.map((d: Json) => d.attributes.price)).toEqual([10504, 10505.25])
    // to_date is inclusive, with or without from_date; the CSV takes the same range
    const to = await api.call(`/api/real_assets/${A}/days?to_date=2026-02-03`)
    expect(to.body.data.map((d: Json) => d.attributes.price)).toEqual([10500.25, 10501.5])
    expect(to.body.meta).toMatchObject({ count: 2 })
    const range = await api.call(`/api/real_assets/${A}/days?from_date=2026-02-03&to_date=2026-02-04`)
    expect(range.body.data.map((d: Json) => d.attributes.price)).toEqual([10501.5, 10502.75])
    const csv = await api.call(`/api/real_assets/${A}/days?from_date=2026-02-03&to_date=2026-02-04&format=csv`)
    expect(csv.text).toBe(
      "date,price,currency,price_source,price_basis\n2026-02-03,10501.5,CLP,cmf,valor_libro\n2026-02-04,10502.75,CLP,cmf,valor_libro\n",
    )
    const usd = await api.call(`/api/real_assets/${ETF}/days`)
    expect(usd.body.data.map((d: Json) => [d.attributes.price, d.attributes.currency])).toEqual([
      [101.5, "USD"],
      [102.25, "USD"],
    ])
  })

  it("/days of an instrument UUID (any case): its main series (7030: B reports last)", async () => {
    const inst = testInstrumentId(7030)
    const res = await api.call(`/api/real_assets/${inst.toUpperCase()}/days`)
    expect(res.status).toBe(200)
    expect(res.body.meta.serie_id).toBe(testSerieId(7030, "B"))
    expect(res.body.data.map((d: Json) => [d.attributes.date, d.attributes.price])).toEqual([
      ["2025-08-28", 5100.5],
      ["2025-08-29", 5101.75],
    ])
  })

  it.each(ROUTES)("/%s: a UUID asked in capitals is answered as asked in lower case (one resource, one id)", async (route) => {
    const serie = testSerieId(7030, "B")
    const lower = await api.call(`/api/real_assets/${serie}/${route}`)
    const upper = await api.call(`/api/real_assets/${serie.toUpperCase()}/${route}`)
    expect([lower.status, upper.status]).toEqual([200, 200])
    expect(upper.body).toEqual(lower.body)
    expect(JSON.stringify(upper.body)).not.toContain(serie.toUpperCase())
  })

  it.each(ROUTES)("/%s: an unknown UUID (of any version: nil and max too), or an instrument without series, → 404", async (route) => {
    const otherUuids = ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "0f8fad5b-d9cb-069f-c000-000000000000"]
    for (const id of [UNKNOWN, testInstrumentId(7020), ...otherUuids]) {
      const res = await api.call(`/api/real_assets/${id}/${route}`)
      expect(res.status, `${id}/${route}`).toBe(404)
      expectErrorShape(res.body, 404)
    }
  })

  it("/returns: price basis on the book value, quota_source cmf_valor_libro, cutoff the FI cutoff", async () => {
    const res = await api.call(`/api/real_assets/${A}/returns`)
    expect(res.status).toBe(200)
    const at = res.body.data.attributes
    expect(res.body.data).toMatchObject({ id: A, type: "real_asset_returns" })
    expect(at).toMatchObject({
      run: "9251-7",
      serie: "A",
      quota_source: "cmf_valor_libro",
      price_source: "cmf",
      price_basis: "valor_libro",
      return_basis: "price",
      valuation: "accounting",
      currency: "PESOS",
      requested_as_of_date: "2026-02-06",
      as_of_date: "2026-02-06",
    })
    expect(Object.keys(at.periods).sort()).toEqual([...WINDOWS].sort())
    // Five days of history: no window has a start quote.
    for (const w of WINDOWS) expect(at.periods[w].reason, w).not.toBe("unknown_currency")
    expect(at.periods["1m"]).toMatchObject({ value: null, status: "unavailable", reason: "missing_start_quote" })
    // An instrument UUID answers for its main series (9251: A and I end 2026-02-06, A has the larger patrimony).
    const inst = await api.call(`/api/real_assets/${testInstrumentId(9251)}/returns`)
    expect(inst.body.data.id).toBe(testInstrumentId(9251))
    expect(inst.body.data.attributes.serie).toBe("A")
  })

  it("/returns of the COP fund: every window null with unknown_currency, in any valuation", async () => {
    for (const q of ["", "?valuation=accounting"]) {
      const res = await api.call(`/api/real_assets/${COP}/returns${q}`)
      expect(res.status).toBe(200)
      for (const w of WINDOWS) {
        expect(res.body.data.attributes.periods[w], w).toMatchObject({ value: null, status: "unavailable", reason: "unknown_currency" })
      }
    }
  })

  it("/returns with return_basis=total: 503 while total is disabled (price basis only for FI anyway)", async () => {
    const res = await api.call(`/api/real_assets/${A}/returns?return_basis=total`)
    expect(res.status).toBe(503)
    expect(header(res, "retry-after")).toBeDefined()
  })

  it("/returns with an as_of_date after the batch → 422", async () => {
    const res = await api.call(`/api/real_assets/${A}/returns?as_of_date=2026-02-07`)
    expect(res.status).toBe(422)
    expect(res.body.parameter).toBe("as_of_date")
  })

  it("/risk_metrics: computed from the book values; COP → unknown_currency", async () => {
    const a = await api.call(`/api/real_assets/${A}/risk_metrics`)
    expect(a.status).toBe(200)
    expect(a.body.data).toMatchObject({ id: A, type: "risk_metrics", attributes: { run: "9251-7", serie: "A" } })
    expect(a.body.data.attributes.unavailable_reason).toBe("insufficient_history")
    const cop = await api.call(`/api/real_assets/${COP}/risk_metrics`)
    expect(cop.body.data.attributes).toMatchObject({ volatility_annualized_12m: null, unavailable_reason: "unknown_currency" })
  })

  it("/expense_ratio: the sheet's TAC only when tac.status is available", async () => {
    const ratio = async (id: string) => (await api.call(`/api/real_assets/${id}/expense_ratio`)).body.data.attributes
    expect(await ratio(A)).toMatchObject({ expense_ratio: 0.0125, month: "2025-09", tac_status: "available" })
    expect(await ratio(testInstrumentId(9251))).toMatchObject({ expense_ratio: 0.0125 })
    expect(await ratio(I)).toMatchObject({ expense_ratio: null, month: null, tac_status: "pending_review" })
    expect(await ratio(ETF)).toMatchObject({ expense_ratio: null, tac_status: "unavailable_or_conflict" })
    expect(await ratio(COP)).toMatchObject({ expense_ratio: null, tac_status: "not_reported" })
    expect(await ratio(testSerieId(7030, "B"))).toMatchObject({ expense_ratio: null, tac_status: "stale" })
    const history = await api.call(`/api/real_assets/${A}/expense_ratio/history`)
    expect(history.body).toEqual({
      data: [{ id: `${A}_20250930`, type: "expense_ratio_month", attributes: { date: "20250930", expense_ratio: 0.0125 } }],
    })
    expect((await api.call(`/api/real_assets/${I}/expense_ratio/history`)).body).toEqual({ data: [] })
  })
})

describe("FI ids on /api/real_assets when the batch has no FI data", () => {
  const api = useFiServer({ unavailable: "fi_book_values: checks failed" })

  it.each(ROUTES)("/%s → 503 fi_unavailable with Retry-After", async (route) => {
    const res = await api.call(`/api/real_assets/${A}/${route}`)
    expect(res.status).toBe(503)
    expectErrorShape(res.body, 503)
    expect(res.body.error).toBe("fi_unavailable")
    expect(Number(header(res, "retry-after"))).toBeGreaterThan(0)
  })

  it("FM ids keep answering 200", async () => {
    const fm = (await api.call("/api/all-funds")).body.data[0].serieId as string
    for (const route of ["days", "returns", "expense_ratio"]) {
      expect((await api.call(`/api/real_assets/${fm}/${route}`)).status, route).toBe(200)
    }
  })
})

describe("FI ids on /returns with the adjusted bases enabled", () => {
  const fx = makeFiFixture()
  let server: RunningServer
  let key: string
  beforeAll(async () => {
    key = (await createKey(fx.dataDir, { email: "fi-total@example.cl" })).key
    server = await startWithFlags(fx.dataDir, ALL_ON)
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })
  const call = (path: string) => get(server.url + path, { "x-api-key": key }) as Promise<{ status: number; body: Json }>

  it("return_basis=total on a published FI series → 422 naming return_basis; unknown UUID → 404", async () => {
    const res = await call(`/api/real_assets/${A}/returns?return_basis=total`)
    expect(res.status).toBe(422)
    expect(res.body.parameter).toBe("return_basis")
    expect((await call(`/api/real_assets/${UNKNOWN}/returns?return_basis=total`)).status).toBe(404)
  })

  it("valuation=clp: CLP series in PESOS; the COP fund has no conversion → unknown_currency", async () => {
    const clp = await call(`/api/real_assets/${A}/returns?valuation=clp`)
    expect(clp.status).toBe(200)
    expect(clp.body.data.attributes).toMatchObject({ valuation: "clp", currency: "PESOS", quota_source: "cmf_valor_libro" })
    const cop = await call(`/api/real_assets/${COP}/returns?valuation=real_uf`)
    for (const w of WINDOWS) expect(cop.body.data.attributes.periods[w], w).toMatchObject({ value: null, reason: "unknown_currency" })
  })
})
