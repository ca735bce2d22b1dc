/**
 * The spec's request rules for /returns and the other series routes: adjusted bases answer 503
 * with Retry-After while disabled (the default), bad parameters 422 naming them, unknown ids 404
 * (FI/ETF UUIDs included, until the FI work plugs its source in).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape, get, header } from "../support/server.ts"
import { returnsBody } from "./bodies.ts"
import { type ReturnsHarness, startReturnsHarness } from "./fixture.ts"
import { ALL_WINDOWS, DOLLAR } from "./fixtureData.ts"

const UUID = "2f1b6f1e-5c11-5ae0-b0c3-2612e58fc94c"
const path = (id: string | number, query = "") => `/api/real_assets/${id}/returns${query}`

describe("bases disabled by default", () => {
  let off: ReturnsHarness
  let clpOnly: ReturnsHarness
  beforeAll(async () => {
    off = await startReturnsHarness({})
    clpOnly = await startReturnsHarness({ FDS_ENABLE_CLP: "true" })
  })
  afterAll(async () => {
    await off?.close()
    await clpOnly?.close()
  })

  it.each([
    ["?valuation=clp", "clp"],
    ["?valuation=real_uf", "real_uf"],
    ["?return_basis=total", "total"],
    ["?valuation=accounting&return_basis=total", "total"],
  ])("%s → 503 with Retry-After, naming %s", async (query, basis) => {
    const res = await off.call(path(DOLLAR.assetId, query))
    expect(res.status).toBe(503)
    expectErrorShape(res.body, 503)
    expect(Number(header(res, "retry-after"))).toBeGreaterThan(0)
    expect((res.body as { error: string; message: string }).error).toBe("basis_not_enabled")
    expect((res.body as { message: string }).message).toContain(basis)
  })

  it("the default basis answers while the others are off", async () => {
    returnsBody(await off.call(path(DOLLAR.assetId)))
    returnsBody(await off.call(path(DOLLAR.assetId, "?valuation=accounting&return_basis=price")))
  })

  it("each flag enables its own basis only", async () => {
    returnsBody(await clpOnly.call(path(DOLLAR.assetId, "?valuation=clp")), "clp")
    expect((await clpOnly.call(path(DOLLAR.assetId, "?valuation=real_uf"))).status).toBe(503)
    expect((await clpOnly.call(path(DOLLAR.assetId, "?valuation=clp&return_basis=total"))).status).toBe(503)
  })

  it("an FI/ETF id asking for total while total is off → 503 (not 404 nor 422)", async () => {
    expect((await off.call(path(UUID, "?return_basis=total"))).status).toBe(503)
  })
})

describe("parameters and ids", () => {
  let h: ReturnsHarness
  beforeAll(async () => {
    h = await startReturnsHarness()
  })
  afterAll(async () => {
    await h?.close()
  })
  const expect422 = async (p: string, parameter: string) => {
    const res = await h.call(p)
    expect(res.status, p).toBe(422)
    expectErrorShape(res.body, 422)
    expect((res.body as { parameter: string }).parameter, p).toBe(parameter)
  }

  it("bad valuation, return_basis or as_of_date → 422 naming it", async () => {
    for (const v of ["usd", "ACCOUNTING", ""]) await expect422(path(ALL_WINDOWS.assetId, `?valuation=${v}`), "valuation")
    for (const v of ["dividends", "Total"]) await expect422(path(ALL_WINDOWS.assetId, `?return_basis=${v}`), "return_basis")
    for (const v of ["2026-02-30", "2026/03/01", "20260301", "2026-3-1", "yesterday"]) {
      await expect422(path(ALL_WINDOWS.assetId, `?as_of_date=${v}`), "as_of_date")
    }
  })

  it("an as_of_date after the batch date (2026-03-31) → 422; the batch date itself is fine", async () => {
    await expect422(path(ALL_WINDOWS.assetId, "?as_of_date=2026-04-01"), "as_of_date")
    expect((await h.call(path(ALL_WINDOWS.assetId, "?as_of_date=2026-03-31"))).status).toBe(200)
  })

  it("an asset_id that is neither a decimal id nor a UUID → 422 on every route", async () => {
    for (const route of ["returns", "risk_metrics", "expense_ratio", "expense_ratio/history"]) {
      for (const bad of ["abc", "-1", "4294967296", "1e3"]) await expect422(`/api/real_assets/${bad}/${route}`, "asset_id")
    }
  })

  it("an unknown series → 404; a UUID on this batch without FI data → 503 fi_unavailable, on every route", async () => {
    for (const route of ["returns", "risk_metrics", "expense_ratio", "expense_ratio/history"]) {
      const res = await h.call(`/api/real_assets/123/${route}`)
      expect(res.status, `123/${route}`).toBe(404)
      expectErrorShape(res.body, 404)
      const fi = await h.call(`/api/real_assets/${UUID}/${route}`)
      expect(fi.status, `${UUID}/${route}`).toBe(503)
      expect((fi.body as { error: string }).error).toBe("fi_unavailable")
    }
    // total is enabled here; FI data is what is missing (UUIDs with FI data: test/fi/realAssets.test.ts)
    expect((await h.call(path(UUID, "?return_basis=total"))).status).toBe(503)
  })

  it("leading zeros name the same series", async () => {
    const plain = await h.call(path(ALL_WINDOWS.assetId))
    const padded = await h.call(path(`000${ALL_WINDOWS.assetId}`))
    expect(padded.status).toBe(200)
    expect((padded.body as { data: { attributes: unknown } }).data.attributes).toEqual(
      (plain.body as { data: { attributes: unknown } }).data.attributes,
    )
    // the answer names the series by its id, not by the spelling asked (was `000<id>`)
    expect(padded.body).toEqual(plain.body)
    for (const route of ["risk_metrics", "expense_ratio", "expense_ratio/history"]) {
      const asked = await h.call(`/api/real_assets/000${ALL_WINDOWS.assetId}/${route}`)
      expect(asked.status, route).toBe(200)
      expect(asked.body, route).toEqual((await h.call(`/api/real_assets/${ALL_WINDOWS.assetId}/${route}`)).body)
    }
  })

  it("a parameter given twice → 422 naming it and saying so (it was \"Expected string\")", async () => {
    const res = await h.call(path(ALL_WINDOWS.assetId, "?as_of_date=2026-01-01&as_of_date=2026-02-01"))
    expect(res.status).toBe(422)
    const body = res.body as { parameter: string; message: string }
    expect(body.parameter).toBe("as_of_date")
    expect(body.message).toBe("invalid query parameter as_of_date: given more than once; send it once")
    // an enum parameter too (its schema's words were the allowed values)
    const twice = await h.call(path(ALL_WINDOWS.assetId, "?valuation=accounting&valuation=accounting"))
    expect([twice.status, (twice.body as { parameter: string }).parameter]).toEqual([422, "valuation"])
    expect((twice.body as { message: string }).message).toContain("given more than once")
  })

  it("a key is required", async () => {
    const res = await get(h.server.url + path(ALL_WINDOWS.assetId))
    expect(res.status).toBe(401)
  })
})
