/**
 * /api/compare over real HTTP against the compare fixture (compareFixture.ts): the validation
 * matrix (422 / 404 / 503), requested order, leading zeros, a renamed pair as one item, and the
 * per-period and spheres comparability with their reasons. Expected numbers are worked out from
 * the fixture's quotes (see the header of compareFixture.ts).
 */
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CompareResponse, ScreenerResponse } from "../../schemas/MarketCompare.ts"
import { expectErrorShape, header } from "../support/server.ts"
import { type CompareClient, ids, startCompare, UNIVERSE } from "./compareFixture.ts"
import { sid } from "./fixtureFunds.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"

let c: CompareClient
beforeAll(async () => {
  c = await startCompare()
})
afterAll(async () => {
  await c?.close()
})

const compare = (...keys: string[]) => c.call(`/api/compare?series=${ids(...keys).join(",")}`)
const RENAMED_PREVIOUS = String(testCrc32("fm:8200:B"))

describe("the answer", () => {
  it("keeps the requested order, one fund_comparison resource per id", async () => {
    const r = await compare("9300:A", "8043:A", "9107:A")
    expect(r.status).toBe(200)
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(ids("9300:A", "8043:A", "9107:A"))
    for (const d of r.body.data) {
      expect(d.type).toBe("fund_comparison")
      expect(d.attributes.serieId).toBe(d.id)
    }
  })

  it("carries catalog data, price returns as decimals, TAC, spheres and the batch", async () => {
    const r = await compare("9107:A", "8043:A")
    const [beta, alfa] = r.body.data
    expect(beta.attributes).toMatchObject({
      fundName: "Fondo Mutuo Beta USA Pesos",
      run: "9107-3",
      serie: "A",
      currency: "PESOS",
      fundFamily: "Accionario eeuu",
      category: "equity",
      tac: 0.009, // the 2026-02 TAC
      tac_as_of_date: "2026-02-28",
      price: 1009.8,
      price_as_of_date: "2026-03-04",
      seriesContinuity: null,
    })
    // 1009.8 / 1000 − 1, base 2026-02-04, end 2026-03-04
    const m1 = beta.attributes.returns.periods["1m"]
    expect(m1.value).toBeCloseTo(0.0098, 12)
    expect(m1).toMatchObject({ status: "available", effective_start_date: "2026-02-04", effective_end_date: "2026-03-04" })
    expect(beta.attributes.returns).toMatchObject({ unit: "decimal", return_basis: "price", method_version: "price_return_v1" })
    // 8043:A has no quote by 2026-02-04
    expect(alfa.attributes.returns.periods["1m"]).toMatchObject({ value: null, status: "unavailable", reason: "missing_start_quote" })
    expect(alfa.attributes.cmf_spheres).toMatchObject({ value: 4, status: "available", family: "ACCIONARIO NACIONAL", as_of_date: "2026-02-28" })
    expect(beta.attributes.cmf_spheres).toMatchObject({ value: null, status: "unavailable", reason: "not_in_source" })
    expect(r.body.meta).toMatchObject({
      as_of_date: "2026-03-04",
      calculation_date: "2026-03-04",
      latest_complete_date: "2026-03-04",
      series_count: UNIVERSE.length,
      tolerance_days: 7,
      unit: "decimal",
      return_basis: "price",
      method_version: "price_return_v1",
      refresh_required: false,
    })
    expect(r.body.meta.batch_id).toMatch(/^2026-03-04-/)
    expect(r.body.meta.input_fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })

  it("leading zeros do not distinguish ids: 000<id> answers the series with its canonical id", async () => {
    const id = String(sid("9105:A"))
    const r = await c.call(`/api/compare?series=000${id}`)
    expect(r.status).toBe(200)
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual([id])
  })

  it("ten ids are accepted", async () => {
    const r = await compare(...UNIVERSE)
    expect(r.status).toBe(200)
    expect(r.body.data).toHaveLength(10)
  })
})

describe("a renamed series", () => {
  it("previous and current id together → one item with the current id", async () => {
    const current = String(sid("8200:BPRIV"))
    const r = await c.call(`/api/compare?series=${RENAMED_PREVIOUS},${ids("9107:A")[0]},${current}`)
    expect(r.status).toBe(200)
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual([current, ...ids("9107:A")])
    expect(r.body.data[0].attributes.seriesContinuity).toEqual({
      type: "rename",
      previousSerie: "B",
      currentSerie: "BPRIV",
      firstCurrentDate: "2026-03-03",
      aliasIds: [current, RENAMED_PREVIOUS],
    })
  })

  it("the previous id alone answers with the current id", async () => {
    const r = await c.call(`/api/compare?series=${RENAMED_PREVIOUS}`)
    expect(r.status).toBe(200)
    expect(r.body.data.map((d: { id: string }) => d.id)).toEqual(ids("8200:BPRIV"))
    // 1003.002 / 1000 − 1
    expect(r.body.data[0].attributes.returns.periods["1m"].value).toBeCloseTo(0.003002, 12)
  })
})

describe("the validation matrix", () => {
  const eleven = [...ids(...UNIVERSE), "1"].join(",")
  const one = ids("9107:A")[0] as string
  it.each([
    ["empty", ""],
    ["not a number", "abc"],
    ["an empty element", `${one},,${ids("9300:A")[0]}`],
    ["a trailing comma", `${one},`],
    ["a space", ` ${one}`],
    ["a sign", `-${one}`],
    ["a plus sign", `+${one}`],
    ["a decimal point", "1.5"],
    ["above 2^32 − 1", "4294967296"],
    ["the same id twice", `${one},${one}`],
    ["the same id with leading zeros", `${one},0${one}`],
    ["more than ten ids", eleven],
  ])("%s → 422 naming series", async (_, value) => {
    const r = await c.call(`/api/compare?series=${encodeURIComponent(value)}`)
    expect(r.status).toBe(422)
    expectErrorShape(r.body, 422)
    expect(r.body.parameter).toBe("series")
  })

  it("no series parameter → 422", async () => {
    const r = await c.call("/api/compare")
    expect(r.status).toBe(422)
    expectErrorShape(r.body, 422)
  })

  it.each([
    ["an unknown id", "123"],
    ["2^32 − 1 (valid, unknown)", "4294967295"],
    ["a terminated fund's series", String(sid("8300:A"))],
    ["an absorbed series (no quote within the tolerance)", String(sid("8043:C"))],
    ["one unknown among known ids", `${ids("9107:A")[0]},123`],
  ])("%s → 404", async (_, value) => {
    const r = await c.call(`/api/compare?series=${value}`)
    expect(r.status).toBe(404)
    expectErrorShape(r.body, 404)
  })
})

describe("comparability", () => {
  it("same currency, both available on the same dates → comparable; unavailable windows say so", async () => {
    const r = await compare("9107:A", "9300:A")
    expect(r.body.meta.comparability["1m"]).toEqual({ comparable: true, reasons: [] })
    // Neither has a quote before 2026-02-04: every longer window is unavailable
    for (const k of ["3m", "6m", "1y", "ytd", "3y_ann", "5y_ann", "last_closed_month"]) {
      expect(r.body.meta.comparability[k]).toEqual({ comparable: false, reasons: ["unavailable_return"] })
    }
    // individual results are kept: 130 / 100 − 1
    expect(r.body.data[1].attributes.returns.periods["1m"].value).toBeCloseTo(0.3, 12)
  })

  it("PESOS vs DOLAR → currency_mismatch, values kept", async () => {
    const r = await compare("9107:A", "9106:A")
    expect(r.body.meta.comparability["1m"]).toEqual({ comparable: false, reasons: ["currency_mismatch"] })
    expect(r.body.data[1].attributes.returns.periods["1m"].value).toBeCloseTo(0.071, 12) // 10.71 / 10 − 1
  })

  it("one series without a value → unavailable_return", async () => {
    const r = await compare("9107:A", "8043:A")
    expect(r.body.meta.comparability["1m"]).toEqual({ comparable: false, reasons: ["unavailable_return"] })
  })

  it("spheres: same group and date, both rated → comparable", async () => {
    const r = await compare("8043:A", "8106:B")
    expect(r.body.meta.cmf_spheres_comparability).toEqual({ comparable: true, reasons: [] })
  })

  it("spheres: another group and date → comparison_group_mismatch and as_of_date_mismatch", async () => {
    const r = await compare("8043:A", "8200:BPRIV")
    expect(r.body.meta.cmf_spheres_comparability).toEqual({
      comparable: false,
      reasons: ["comparison_group_mismatch", "as_of_date_mismatch"],
    })
  })

  it("spheres: a series not rated or not in the source → unavailable_indicator", async () => {
    expect((await compare("8043:A", "9300:A")).body.meta.cmf_spheres_comparability).toEqual({
      comparable: false,
      reasons: ["unavailable_indicator"],
    })
    expect((await compare("8043:A", "9107:A")).body.meta.cmf_spheres_comparability).toEqual({
      comparable: false,
      reasons: ["unavailable_indicator"],
    })
  })
})

describe("a batch without returns", () => {
  it("compare and screener answer 503 with Retry-After", async () => {
    const bare = await startCompare({ returns: false })
    try {
      for (const path of [`/api/compare?series=${ids("9107:A")[0]}`, "/api/screener"]) {
        const r = await bare.call(path)
        expect(r.status).toBe(503)
        expectErrorShape(r.body, 503)
        expect(Number(header(r, "retry-after"))).toBeGreaterThan(0)
      }
      // validation comes first: an invalid list is still 422
      expect((await bare.call("/api/compare?series=x")).status).toBe(422)
    } finally {
      await bare.close()
    }
  })
})

describe("the contract", () => {
  it("compare and screener bodies decode with CompareResponse and ScreenerResponse", async () => {
    const compared = await c.call(`/api/compare?series=${RENAMED_PREVIOUS},${ids(...UNIVERSE.slice(0, 9)).join(",")}`)
    expect(compared.status).toBe(200)
    expect(() => Schema.decodeUnknownSync(CompareResponse)(compared.body)).not.toThrow()
    const screened = await c.call("/api/screener?limit=200")
    expect(() => Schema.decodeUnknownSync(ScreenerResponse)(screened.body)).not.toThrow()
  })

  it("/openapi.json lists both routes with their parameters, statuses and models", async () => {
    const spec = (await c.call("/openapi.json")).body
    const queryNames = (op: { parameters: Array<{ name: string; in: string }> }) =>
      op.parameters.filter((p) => p.in === "query").map((p) => p.name)
    const compareOp = spec.paths["/api/compare"].get
    // and `batch`, the batch pinned for the request (every data route)
    expect(queryNames(compareOp)).toEqual(["series", "batch"])
    for (const status of ["200", "404", "422", "503"]) expect(Object.keys(compareOp.responses)).toContain(status)
    const screenerOp = spec.paths["/api/screener"].get
    expect(queryNames(screenerOp).sort()).toEqual(
      [
        "q", "fund_family", "investor_class", "currency", "category", "administrator", "cmf_spheres_min", "cmf_spheres_max",
        "cmf_family", "cmf_investor_type", "sort", "order", "limit", "offset", "batch", "date", "universe",
      ].sort(),
    )
    for (const status of ["200", "400", "422", "503"]) expect(Object.keys(screenerOp.responses)).toContain(status)
    const schemas = Object.keys(spec.components.schemas)
    for (const name of [
      "CompareResponse", "CompareMeta", "ScreenerResponse", "ScreenerMeta", "ReturnAttributes", "MarketResource",
      "MarketAttributes", "PeriodComparability", "ReturnComparability", "SpheresComparability", "SeriesContinuity", "CmfSpheres",
    ]) {
      expect(schemas, name).toContain(name)
    }
  })
})
