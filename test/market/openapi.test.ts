/** The market routes are in the served OpenAPI document with their parameters and error statuses. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Json, type MarketClient, startMarket } from "./client.ts"

let c: MarketClient
let spec: Json
beforeAll(async () => {
  c = await startMarket()
  spec = (await c.call("/openapi.json")).body
})
afterAll(async () => {
  await c?.close()
})

const ROUTES: ReadonlyArray<readonly [string, ReadonlyArray<string>, ReadonlyArray<string>]> = [
  ["/api/all-funds", ["category", "fund_family", "date", "article107_regulation_status", "vehicle", "universe"], ["200", "400", "422", "503"]],
  ["/api/market-summary", ["date", "universe"], ["200", "400", "422"]],
  ["/api/families/{family_rar}/index", ["family_rar", "currency", "from_date"], ["200", "422"]],
  ["/api/benchmarks", [], ["200"]],
  ["/api/benchmarks/{family_rar}/prices", ["family_rar", "from_date"], ["200", "422"]],
  ["/api/agf_stats/ranking", ["metric", "date"], ["200", "422"]],
  ["/api/agf_stats/evolution", ["administrator", "metric", "from_month", "to_month"], ["200", "422"]],
  ["/api/reports/tac-changes", ["date", "direction", "limit", "category"], ["200", "422"]],
  ["/api/funds/{run}/cartera/resumen", ["run", "month"], ["200", "400", "404"]],
  ["/api/funds/{run}/cartera/holdings", ["run", "month", "market"], ["200", "400", "404", "422"]],
  ["/api/funds/{run}/article107", ["run"], ["200", "404"]],
]

describe("/openapi.json", () => {
  it.each(ROUTES)("%s: a keyed GET with its parameters and statuses", (path, parameters, statuses) => {
    const op = spec.paths[path]?.get
    expect(op, path).toBeDefined()
    expect(op.security.some((s: Json) => "apiKey" in s)).toBe(true)
    // and `batch`, the batch pinned for the request (every data route)
    expect((op.parameters ?? []).map((p: Json) => p.name).sort()).toEqual([...parameters, "batch"].sort())
    for (const status of statuses) expect(Object.keys(op.responses)).toContain(status)
  })
})
