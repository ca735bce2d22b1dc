/**
 * The rules of each route's query schema, over real HTTP: a rule between parameters answers the
 * 422 naming the parameter the rule is about (not the query as a whole), with the rule in the
 * message; single values keep their messages; what a parameter decodes to (a default, a
 * case-insensitive word) is what the handler uses. Served from the compare fixture (a market
 * batch with returns and CMF spheres, test/market/compareFixture.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CompareClient, NACIONAL, RETAIL, startCompare } from "../market/compareFixture.ts"
import { expectErrorShape } from "../support/server.ts"

let c: CompareClient
beforeAll(async () => {
  c = await startCompare()
})
afterAll(async () => {
  await c?.close()
})

const call = (path: string) => c.call(path)

/** A well-formed instrument id (the query is checked before the id is looked up). */
const UUID = "5b0a3c9e-1f2d-5e6f-8a9b-0c1d2e3f4a5b"

/** The 422 of `path`: the parameter it names and its message. */
const refusal = async (path: string) => {
  const r = await call(path)
  expect(r.status, JSON.stringify(r.body)).toBe(422)
  expectErrorShape(r.body, 422)
  expect(r.body.error).toBe("invalid_parameter")
  expect(r.body.issues?.[0]?.path).toEqual([r.body.parameter])
  return { parameter: r.body.parameter as string, message: r.body.message as string }
}

describe("rules between parameters name the parameter they are about", () => {
  it.each([
    [
      "/api/screener?cmf_spheres_min=4&cmf_spheres_max=3",
      "cmf_spheres_min",
      "invalid query parameter cmf_spheres_min: must not exceed cmf_spheres_max (4 > 3)",
    ],
    [
      "/api/screener?sort=1y",
      "currency",
      "invalid query parameter currency: required to sort by 1y (returns compare only within one currency)",
    ],
    [
      "/api/screener?sort=last_closed_month&order=desc",
      "currency",
      "invalid query parameter currency: required to sort by last_closed_month (returns compare only within one currency)",
    ],
    ["/api/screener?sort=cmf_spheres", "cmf_family", "invalid query parameter cmf_family: required to sort by cmf_spheres"],
    [
      "/api/screener?sort=cmf_spheres&cmf_family=Nacional",
      "cmf_investor_type",
      "invalid query parameter cmf_investor_type: required to sort by cmf_spheres",
    ],
    [
      "/api/screener?sort=cmf_spheres&cmf_investor_type=Retail",
      "cmf_family",
      "invalid query parameter cmf_family: required to sort by cmf_spheres",
    ],
    [
      "/api/agf_stats/evolution?administrator=Alfa%20AGF%20S.A.&from_month=2026-03&to_month=2026-02",
      "from_month",
      "invalid query parameter from_month: after to_month",
    ],
    [
      "/api/agf_stats/evolution?administrator=Alfa%20AGF%20S.A.&administrator=%20alfa%20agf%20s.a.",
      "administrator",
      'invalid query parameter administrator: " alfa agf s.a." is given more than once (names match case-insensitively)',
    ],
    [
      `/api/fi/instruments/${UUID}/prices?from_date=2026-03-01&to_date=2026-02-28`,
      "from_date",
      "invalid query parameter from_date: 2026-03-01 is later than to_date 2026-02-28",
    ],
  ])("%s → 422 naming %s", async (path, parameter, message) => {
    expect(await refusal(path)).toEqual({ parameter, message })
  })

  it("the same parameters within the rules answer 200", async () => {
    for (const path of [
      "/api/screener?cmf_spheres_min=3&cmf_spheres_max=3",
      "/api/screener?sort=1y&currency=clp",
      `/api/screener?sort=cmf_spheres&cmf_family=${encodeURIComponent(NACIONAL)}&cmf_investor_type=${RETAIL}`,
      "/api/agf_stats/evolution?administrator=Alfa%20AGF%20S.A.&from_month=2026-02&to_month=2026-02",
    ]) {
      const r = await call(path)
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200)
    }
  })
})

describe("single values keep their rules", () => {
  it.each([
    ["/api/screener?limit=ten", "limit", "invalid query parameter limit: an integer from 1 to 200 (got 'ten')"],
    ["/api/screener?limit=1e2", "limit", "invalid query parameter limit: an integer from 1 to 200 (got '1e2')"],
    ["/api/screener?limit=201", "limit", "invalid query parameter limit: an integer from 1 to 200 (got 201)"],
    ["/api/screener?offset=-1", "offset", "invalid query parameter offset: an integer from 0 to 4294967295 (got '-1')"],
    ["/api/screener?cmf_spheres_max=2.5", "cmf_spheres_max", "invalid query parameter cmf_spheres_max: an integer from 1 to 5 (got '2.5')"],
    ["/api/screener?currency=EUR", "currency", "invalid query parameter currency: PESOS/CLP or DOLAR/USD (case-insensitive)"],
    ["/api/screener?cmf_family=%20", "cmf_family", "invalid query parameter cmf_family: must not be empty"],
    ["/api/screener?limit=10&limit=20", "limit", "invalid query parameter limit: given more than once; send it once"],
    ["/api/reports/tac-changes?limit=0", "limit", "invalid query parameter limit: an integer from 1 to 100 (got 0)"],
    [
      "/api/all-funds?category=equities",
      "category",
      "invalid query parameter category: one of money_market_90d, debt_365d, debt_medium_long, balanced, equity, free_investment, structured, qualified_investors (case-insensitive)",
    ],
    [
      "/api/compare?series=1,2,1",
      "series",
      "invalid query parameter series: id 1 is repeated",
    ],
    ["/api/compare?series=1,x", "series", "invalid query parameter series: 'x' is not a decimal unsigned 32-bit id"],
    ["/api/compare?series=1,2,3,4,5,6,7,8,9,10,11", "series", "invalid query parameter series: at most 10 ids (got 11)"],
    ["/api/fi/instruments?limit=501", "limit", "invalid query parameter limit: an integer from 1 to 500 (got 501)"],
    ["/api/fi/instruments?provider_id=0x10", "provider_id", "invalid query parameter provider_id: an integer from 0 to 4294967295 (got '0x10')"],
    ["/api/fi/instruments?is_etf=yes", "is_etf", 'invalid query parameter is_etf: Expected "true" | "false"'],
    [`/api/fi/instruments/${UUID}/prices?limit=5001`, "limit", "invalid query parameter limit: an integer from 1 to 5000 (got 5001)"],
  ])("%s → 422 naming %s", async (path, parameter, message) => {
    expect(await refusal(path)).toEqual({ parameter, message })
  })
})

describe("the handler sees the decoded value", () => {
  it("defaults are applied (limit 50, offset 0 in the screener's meta; direction up, limit 15 in tac-changes')", async () => {
    const screener = await call("/api/screener")
    expect(screener.status).toBe(200)
    expect([screener.body.meta.limit, screener.body.meta.offset]).toEqual([50, 0])
    const tac = await call("/api/reports/tac-changes")
    expect(tac.status).toBe(200)
    expect([tac.body.meta.direction, tac.body.meta.limit]).toEqual(["up", 15])
  })

  it("case-insensitive words and aliases decode to one value: the same answer", async () => {
    const canonical = await call("/api/screener?currency=PESOS&category=equity")
    expect(canonical.status).toBe(200)
    const withoutLinks = (body: Record<string, unknown>) => ({ ...body, links: undefined })
    for (const spelling of ["currency=clp&category=EQUITY", "currency=Pesos&category=Equity"]) {
      const answer = (await call(`/api/screener?${spelling}`)).body
      expect(withoutLinks(answer)).toEqual(withoutLinks(canonical.body))
      // the paging links echo the request as it was spelled
      expect(answer.links.self).toBe(`/api/screener?${spelling}&offset=0&batch=${canonical.body.meta.batch_id}`)
    }
  })
})
