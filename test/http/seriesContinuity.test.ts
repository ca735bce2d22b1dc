/**
 * One SeriesContinuity model: the served /openapi.json has it once (no SeriesContinuity_1), and
 * every route that reports a rename (all-funds rows, compare and screener attributes, returns)
 * refers to that one model; on the wire the four routes give the same object for the renamed
 * series of the compare fixture (8200: B renamed BPRIV), and it fits the model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CompareClient, startCompare } from "../market/compareFixture.ts"
import { sid } from "../market/fixtureFunds.ts"
import { type Json, mismatches, okSchema } from "../support/openApiSchema.ts"

let c: CompareClient
let doc: Json
beforeAll(async () => {
  c = await startCompare()
  const res = await c.call("/openapi.json")
  expect(res.status).toBe(200)
  doc = res.body
})
afterAll(async () => {
  await c?.close()
})

const MODEL = "#/components/schemas/SeriesContinuity"

/** Every `$ref` reachable from `schema` through the document (each component visited once). */
const refsFrom = (schema: Json, seen = new Set<string>()): Set<string> => {
  const walk = (node: Json): void => {
    if (node === null || typeof node !== "object") return
    if (typeof node.$ref === "string") {
      if (seen.has(node.$ref)) return
      seen.add(node.$ref)
      walk(doc.components.schemas[node.$ref.replace("#/components/schemas/", "")])
      return
    }
    for (const value of Object.values(node)) walk(value)
  }
  walk(schema)
  return seen
}

describe("one SeriesContinuity in the document", () => {
  it("the components hold one model of that name", () => {
    expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith("SeriesContinuity"))).toEqual(["SeriesContinuity"])
  })

  it.each(["/api/all-funds", "/api/compare", "/api/screener", "/api/real_assets/{asset_id}/returns"])(
    "%s refers to it (and to no other continuity model)",
    (path) => {
      const continuity = [...refsFrom(okSchema(doc, path))].filter((ref) => ref.includes("SeriesContinuity"))
      expect(continuity).toEqual([MODEL])
    },
  )
})

describe("the renamed series: the same object on every route", () => {
  it("all-funds, compare, screener and returns agree, and the object fits the model", async () => {
    const current = String(sid("8200:BPRIV"))
    const allFunds = await c.call("/api/all-funds")
    const compare = await c.call(`/api/compare?series=${current}`)
    const screener = await c.call("/api/screener?limit=200")
    const returns = await c.call(`/api/real_assets/${current}/returns`)
    for (const r of [allFunds, compare, screener, returns]) expect(r.status, r.text).toBe(200)
    const fromAllFunds = allFunds.body.data.find((row: Json) => row.serieId === current).seriesContinuity
    const fromCompare = compare.body.data[0].attributes.seriesContinuity
    const fromScreener = screener.body.data.find((d: Json) => d.id === current).attributes.seriesContinuity
    const fromReturns = returns.body.data.attributes.series_continuity
    expect(fromAllFunds).toEqual({
      type: "rename",
      previousSerie: "B",
      currentSerie: "BPRIV",
      firstCurrentDate: "2026-03-03",
      aliasIds: [current, fromAllFunds.aliasIds[1]],
    })
    expect(fromAllFunds.aliasIds).toHaveLength(2)
    for (const other of [fromCompare, fromScreener, fromReturns]) expect(other).toEqual(fromAllFunds)
    expect(mismatches(doc, { $ref: MODEL }, fromAllFunds)).toEqual([])
  })
})
