/**
 * A data route refuses a query parameter it does not declare (api/http/StrictQuery.ts): 422 in the
 * one error shape, naming the parameter and listing the accepted ones, after the key check (a
 * keyless request keeps its 401; the refusal carries the quota headers and counts). Every keyed
 * operation of /openapi.json refuses an unknown parameter and accepts every parameter it
 * documents, `batch` included: what is accepted and what is documented come from one definition.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeMarketFixture } from "../market/marketSnapshot.ts"
import { type CreatedKey, createKey, expectErrorShape, get, header, type RunningServer, startServer } from "../support/server.ts"

const fx = makeMarketFixture({ returns: true })
let server: RunningServer
let key: CreatedKey
let spec: {
  paths: Record<string, Record<string, { security?: Array<Record<string, unknown>>; parameters?: Array<{ name: string; in: string }> }>>
}

beforeAll(async () => {
  server = await startServer({ dataDir: fx.dataDir })
  key = await createKey(fx.dataDir, { email: "strict@example.cl", dailyQuota: 1000 })
  spec = (await get(`${server.url}/openapi.json`)).body as typeof spec
})
afterAll(async () => {
  await server?.close()
  fx.cleanup()
})

const call = (path: string, withKey = true) => get(server.url + path, withKey ? { "x-api-key": key.key } : {})

/** The keyed GET operations of the document, with their documented query parameters. */
const keyedOperations = () =>
  Object.entries(spec.paths).flatMap(([path, item]) => {
    const op = item.get
    if (op === undefined || !(op.security ?? []).some((s) => "apiKey" in s)) return []
    const query = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name)
    return [{ path, target: path.replace(/\{[^}]+\}/g, "1"), query }]
  })

describe("an undeclared query parameter is a 422 naming it", () => {
  it("the screener's misspelt filter: 422 naming curency, listing what the screener accepts", async () => {
    const r = await call("/api/screener?curency=USD")
    expect(r.status, r.text).toBe(422)
    expectErrorShape(r.body, 422)
    const accepted =
      "q, fund_family, investor_class, currency, category, administrator, cmf_spheres_min, cmf_spheres_max, cmf_family, " +
      "cmf_investor_type, sort, order, limit, offset, date, universe, batch"
    const message = `unknown query parameter curency: GET /api/screener accepts ${accepted}`
    expect(r.body).toEqual({
      type: "/docs#error-invalid_parameter",
      title: "Invalid parameter",
      status: 422,
      detail: message,
      instance: `urn:fds:request:${header(r, "x-request-id")}`,
      error: "invalid_parameter",
      message,
      parameter: "curency",
      issues: [{ path: ["curency"], message: `not a parameter of this route; accepted: ${accepted}` }],
    })
    // the quota headers of the key, as on any answer of a keyed route
    expect(header(r, "x-ratelimit-limit")).toBe("1000")
    // the declared spelling answers
    expect((await call("/api/screener?currency=USD")).status).toBe(200)
  })

  it("every unknown parameter is listed in issues; the first is `parameter`", async () => {
    const r = await call("/api/screener?limit=5&foo=1&bar=2")
    expect(r.status).toBe(422)
    const body = r.body as { parameter: string; message: string; issues: Array<{ path: string[] }> }
    expect(body.parameter).toBe("foo")
    expect(body.message).toMatch(/^unknown query parameter foo, bar: GET \/api\/screener accepts /)
    expect(body.issues.map((i) => i.path)).toEqual([["foo"], ["bar"]])
  })

  it("a query of thousands of unknown names, or one very long name, answers a small 422: five names, each cut at 64 characters", async () => {
    const names = Array.from({ length: 2000 }, (_, i) => `n${i}`)
    const r = await call(`/api/screener?${names.join("&")}`)
    expect(r.status).toBe(422)
    const body = r.body as { parameter: string; message: string; issues: Array<{ path: string[] }> }
    expect(body.parameter).toBe("n0")
    expect(body.message).toMatch(/^unknown query parameter n0, n1, n2, n3, n4 and 1995 more: GET \/api\/screener accepts /)
    expect(body.issues.map((i) => i.path)).toEqual([["n0"], ["n1"], ["n2"], ["n3"], ["n4"]])
    expect(r.text.length).toBeLessThan(4_000)
    const long = await call(`/api/screener?${"x".repeat(10_000)}=1`)
    expect(long.status).toBe(422)
    expect((long.body as { parameter: string }).parameter).toBe(`${"x".repeat(64)}…`)
    expect(long.text.length).toBeLessThan(4_000)
  })

  it("a route without a query of its own accepts only batch; /api/key/info accepts none", async () => {
    const benchmarks = await call("/api/benchmarks?currency=USD")
    expect(benchmarks.status).toBe(422)
    expect((benchmarks.body as { message: string }).message).toBe("unknown query parameter currency: GET /api/benchmarks accepts batch")
    const info = await call("/api/key/info?verbose=1")
    expect(info.status).toBe(422)
    expect((info.body as { message: string }).message).toBe("unknown query parameter verbose: GET /api/key/info accepts none")
  })

  it("the key is checked first: without a key the answer stays 401", async () => {
    const r = await call("/api/screener?curency=USD", false)
    expect(r.status).toBe(401)
  })

  it("the refusal counts against the quota, like any other 422", async () => {
    const before = Number(header(await call("/api/key/info"), "x-ratelimit-remaining"))
    await call("/api/screener?curency=USD")
    const after = Number(header(await call("/api/key/info"), "x-ratelimit-remaining"))
    expect(after).toBe(before - 1)
  })

  it("batch and format stay accepted where they are today", async () => {
    const fund = await call("/api/all-funds")
    const batch = (fund.body as { meta: { batch_id: string } }).meta.batch_id
    expect((await call(`/api/all-funds?batch=${batch}`)).status).toBe(200)
    const id = (fund.body as { data: Array<{ serieId: string }> }).data[0]!.serieId
    const csv = await call(`/api/real_assets/${id}/days?format=csv&batch=${batch}`)
    expect(csv.status, csv.text).toBe(200)
    expect(csv.text).toMatch(/^date,price\n/)
  })

  it("every keyed operation refuses an unknown parameter and accepts each parameter it documents", async () => {
    const operations = keyedOperations()
    expect(operations.length).toBeGreaterThan(20)
    for (const { path, target, query } of operations) {
      const refused = await call(`${target}?no_such_parameter=1`)
      expect(refused.status, `${path}: ${refused.text}`).toBe(422)
      expect((refused.body as { parameter: string }).parameter, path).toBe("no_such_parameter")
      for (const name of query) {
        const r = await call(`${target}?${name}=1`)
        // a bad value may be refused, but never as an unknown parameter
        expect(String((r.body as { message?: string } | undefined)?.message), `${path} ?${name}`).not.toMatch(/^unknown query parameter/)
      }
    }
  })
})
