/** The returns routes in the served OpenAPI document: named models, parameters and answers. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { get } from "../support/server.ts"
import { type ReturnsHarness, startReturnsHarness } from "./fixture.ts"

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON read by the test
type Json = any

describe("OpenAPI of the returns routes", () => {
  let h: ReturnsHarness
  let doc: Json
  beforeAll(async () => {
    h = await startReturnsHarness()
    doc = (await get(`${h.server.url}/openapi.json`)).body
  })
  afterAll(async () => {
    await h?.close()
  })

  it("publishes the models by name", () => {
    const names = Object.keys(doc.components.schemas)
    for (const name of [
      "FundReturnResponse",
      "AdjustedReturnResponse",
      "TotalReturnResponse",
      "ReturnPeriods",
      "ReturnPeriod",
      "CmfSpheres",
      "AppliedDistribution",
      "AppliedExchange",
      "FactorCoverage",
      "EndpointInputs",
      "IndicatorInput",
      "PeriodInputs",
      "SeriesContinuity",
      "RiskMetricsResponse",
      "ExpenseRatioResponse",
      "ExpenseRatioHistory",
    ]) {
      expect(names, name).toContain(name)
    }
  })

  it("/returns: the three answers, the three query parameters with their values, 404/422/503", () => {
    const op = doc.paths["/api/real_assets/{asset_id}/returns"].get
    const refs = op.responses["200"].content["application/json"].schema.anyOf.map((s: Json) => s.$ref)
    expect(refs).toEqual([
      "#/components/schemas/FundReturnResponse",
      "#/components/schemas/AdjustedReturnResponse",
      "#/components/schemas/TotalReturnResponse",
    ])
    const params = Object.fromEntries(op.parameters.map((p: Json) => [p.name, p]))
    expect(Object.keys(params).sort()).toEqual(["as_of_date", "asset_id", "batch", "return_basis", "valuation"])
    expect(JSON.stringify(params.valuation.schema)).toContain('"real_uf"')
    expect(JSON.stringify(params.return_basis.schema)).toContain('"total"')
    for (const status of ["404", "422", "503"]) expect(Object.keys(op.responses), status).toContain(status)
    expect(op.security).toBeDefined()
  })

  it("the other three routes, with from_date on the history", () => {
    for (const route of ["risk_metrics", "expense_ratio", "expense_ratio/history"]) {
      expect(doc.paths[`/api/real_assets/{asset_id}/${route}`]?.get, route).toBeDefined()
    }
    const history = doc.paths["/api/real_assets/{asset_id}/expense_ratio/history"].get
    expect(history.parameters.map((p: Json) => p.name)).toContain("from_date")
  })
})
