/** The FI routes and scope=all declare their response schemas and errors in the served OpenAPI document. */
import { describe, expect, it } from "vitest"
import { get } from "../support/server.ts"
import { type Json, useFiServer } from "./fiServer.ts"

const api = useFiServer()
let spec: Json
/** The document is public: fetched once, without the key. */
const openapi = async (): Promise<Json> => {
  spec ??= (await get(`${api.url()}/openapi.json`)).body
  return spec
}
const component = (doc: Json, ref: string): Json => doc.components.schemas[ref.replace("#/components/schemas/", "")]

const ROUTES: ReadonlyArray<readonly [string, string, ReadonlyArray<string>, ReadonlyArray<string>]> = [
  ["/api/fi/instruments", "FiInstrumentList", ["data", "meta", "total", "limit", "offset"], ["422", "503"]],
  ["/api/fi/instruments/{instrument_id}", "FiInstrumentDetail", ["data", "meta"], ["404", "422", "503"]],
  ["/api/fi/instruments/{instrument_id}/prices", "FiPriceList", ["data", "meta", "total", "limit", "offset"], ["404", "422", "503"]],
  ["/api/fi/instruments/{instrument_id}/cartera/holdings", "FiHoldingList", ["data", "meta"], ["400", "404", "422", "503"]],
  ["/api/fi/instruments/{instrument_id}/cartera/resumen", "FiPortfolioSummary", ["data", "meta"], ["400", "404", "422", "503"]],
]

describe("OpenAPI for the FI routes", () => {
  it.each(ROUTES)("%s declares %s and its errors, with the API key", async (path, model, fields, errors) => {
    const doc = await openapi()
    const op = doc.paths[path]?.get
    expect(op, path).toBeDefined()
    const ref = op.responses["200"].content["application/json"].schema.$ref
    expect(ref).toBe(`#/components/schemas/${model}`)
    expect(Object.keys(component(doc, ref).properties)).toEqual(expect.arrayContaining([...fields]))
    for (const status of errors) expect(op.responses[status], `${path} ${status}`).toBeDefined()
    expect(op.security).toEqual(expect.arrayContaining([expect.objectContaining({ apiKey: [] })]))
  })

  it("declares the tac.status and price_status enums", async () => {
    const doc = await openapi()
    expect(doc.components.schemas.FiTacStatus.enum).toEqual([
      "available",
      "pending_review",
      "not_checked",
      "stale",
      "not_reported",
      "unavailable_or_conflict",
    ])
    expect(doc.components.schemas.FiPriceStatus.enum).toEqual(["current", "stale", "unavailable"])
    const meta = component(doc, doc.components.schemas.FiPortfolioSummary.properties.meta.$ref)
    expect(meta.properties.valuation_unit.enum).toEqual(["cmf_reported"])
    expect(meta.properties.percentage_unit.enum).toEqual(["percent_of_fund_assets"])
  })

  it("/api/asset_providers takes an optional scope (only 'all') and declares both answer shapes", async () => {
    const op = (await openapi()).paths["/api/asset_providers"].get
    const scope = op.parameters.find((p: Json) => p.name === "scope")
    expect(scope).toMatchObject({ in: "query", required: false, schema: { enum: ["all"] } })
    const refs = op.responses["200"].content["application/json"].schema.anyOf.map((s: Json) => s.$ref)
    expect(refs).toEqual(["#/components/schemas/AssetProviderAllList", "#/components/schemas/AssetProviderList"])
    expect(op.responses["422"]).toBeDefined()
    expect(op.responses["503"]).toBeDefined()
  })
})
