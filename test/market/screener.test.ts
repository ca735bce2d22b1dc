/**
 * /api/screener over real HTTP against the compare fixture (compareFixture.ts): sorting by every
 * key in both orders (unavailable values last, ties by ascending id), filters, paging stability,
 * the renamed series as one row, and a 422 naming each invalid parameter. Expected orders are
 * worked out from the fixture's numbers (1m returns in compareFixture.ts, TAC in fixtureExtras.ts).
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { byAscendingId, type CompareClient, ids, NACIONAL, RETAIL, startCompare, UNIVERSE } from "./compareFixture.ts"
import { sid } from "./fixtureFunds.ts"

let c: CompareClient
beforeAll(async () => {
  c = await startCompare()
})
afterAll(async () => {
  await c?.close()
})

const screen = async (query: string) => {
  const r = await c.call(`/api/screener?${query}`)
  expect(r.status, r.text).toBe(200)
  return r.body
}
const rowIds = (body: { data: Array<{ id: string }> }) => body.data.map((d) => d.id)

/** Series whose accounting currency is PESOS ($$). */
const PESOS = ["8043:A", "8106:B", "8200:BPRIV", "9105:A", "9105:I", "9107:A", "9300:A", "9301:A"]

describe("sorting, unavailable values last in both directions, ties by ascending id", () => {
  it("id (default): ascending numeric id; desc reverses", async () => {
    expect(rowIds(await screen(""))).toEqual(ids(...byAscendingId(UNIVERSE)))
    expect(rowIds(await screen("sort=id&order=desc"))).toEqual(ids(...byAscendingId(UNIVERSE).reverse()))
  })

  // 1m among PESOS: 9301 −0.05 < 9105:I −0.00495 < 8200 0.003002 < 9107 0.0098 < 9300 0.3; 8043:A, 8106:B, 9105:A unavailable
  const nulls1m = byAscendingId(["8043:A", "8106:B", "9105:A"])
  it("1m asc", async () => {
    const body = await screen("currency=PESOS&sort=1m&order=asc")
    expect(rowIds(body)).toEqual(ids("9301:A", "9105:I", "8200:BPRIV", "9107:A", "9300:A", ...nulls1m))
    expect(body.meta.total).toBe(PESOS.length)
  })
  it("1m desc", async () => {
    const body = await screen("currency=clp&sort=1m&order=desc")
    expect(rowIds(body)).toEqual(ids("9300:A", "9107:A", "8200:BPRIV", "9105:I", "9301:A", ...nulls1m))
  })
  it("1m in DOLAR: the one USD series", async () => {
    expect(rowIds(await screen("currency=usd&sort=1m&order=desc"))).toEqual(ids("9106:A"))
  })

  // No series has a quote before 2026-02-04: every other window is unavailable for all → ascending id either way.
  for (const key of ["3m", "6m", "1y", "ytd", "3y_ann", "5y_ann", "last_closed_month"]) {
    for (const order of ["asc", "desc"]) {
      it(`${key} ${order}: all unavailable → ascending id`, async () => {
        const body = await screen(`currency=PESOS&sort=${key}&order=${order}`)
        expect(rowIds(body)).toEqual(ids(...byAscendingId(PESOS)))
        for (const d of body.data) expect(d.attributes.returns.periods[key].value).toBeNull()
      })
    }
  }

  // Latest TAC: 8200 0.0045, 9105:I 0.008, 9107 0.009, 9105:A 0.011, 9106 0.012, 8043:A 0.017, 8106:B 0.018, 9300 0.02; 9301, 9302 none
  const tacOrder = ["8200:BPRIV", "9105:I", "9107:A", "9105:A", "9106:A", "8043:A", "8106:B", "9300:A"]
  const noTac = byAscendingId(["9301:A", "9302:A"])
  it("tac asc", async () => {
    expect(rowIds(await screen("sort=tac"))).toEqual(ids(...tacOrder, ...noTac))
  })
  it("tac desc", async () => {
    expect(rowIds(await screen("sort=tac&order=desc"))).toEqual(ids(...[...tacOrder].reverse(), ...noTac))
  })

  // ACCIONARIO NACIONAL / RETAIL: 9105:A 2, 8043:A 4, 8106:B 4 (tie), 9300:A not rated
  const group = `cmf_family=${encodeURIComponent(NACIONAL)}&cmf_investor_type=${RETAIL}`
  const fours = byAscendingId(["8043:A", "8106:B"])
  it("cmf_spheres asc", async () => {
    expect(rowIds(await screen(`${group}&sort=cmf_spheres`))).toEqual(ids("9105:A", ...fours, "9300:A"))
  })
  it("cmf_spheres desc: the tie still by ascending id, the unrated last", async () => {
    expect(rowIds(await screen(`${group}&sort=cmf_spheres&order=desc`))).toEqual(ids(...fours, "9105:A", "9300:A"))
  })
})

describe("filters", () => {
  it("q: fund name or RUN, case-insensitive", async () => {
    expect(rowIds(await screen("q=beta%20usa"))).toEqual(ids(...byAscendingId(["9106:A", "9107:A"])))
    expect(rowIds(await screen("q=9105-7"))).toEqual(ids(...byAscendingId(["9105:A", "9105:I"])))
    expect(rowIds(await screen("q=8043"))).toEqual(ids("8043:A"))
  })
  it("fund_family, category, investor_class: case-insensitive equality", async () => {
    expect(rowIds(await screen("fund_family=accionario%20EEUU"))).toEqual(ids(...byAscendingId(["9106:A", "9107:A"])))
    // the family's slug names it too, as on /api/all-funds
    expect(rowIds(await screen("fund_family=Accionario-EEUU"))).toEqual(ids(...byAscendingId(["9106:A", "9107:A"])))
    expect(rowIds(await screen("category=MONEY_MARKET_90D"))).toEqual(ids("8200:BPRIV"))
    expect(rowIds(await screen("investor_class=institutional"))).toEqual(ids("9105:I"))
  })
  it("administrator: substring, case-insensitive", async () => {
    expect(rowIds(await screen("administrator=gamma"))).toEqual(ids(...byAscendingId(["9300:A", "9301:A", "9302:A"])))
  })
  it("cmf_spheres_min / max exclude unavailable values", async () => {
    expect(rowIds(await screen("cmf_spheres_min=4"))).toEqual(ids(...byAscendingId(["8043:A", "8106:B", "9105:I"])))
    expect(rowIds(await screen("cmf_spheres_max=3"))).toEqual(ids(...byAscendingId(["9105:A", "8200:BPRIV"])))
    expect(rowIds(await screen("cmf_spheres_min=3&cmf_spheres_max=3"))).toEqual(ids("8200:BPRIV"))
  })
  it("no match → empty list and total 0", async () => {
    const body = await screen("investor_class=APV")
    expect(body.data).toEqual([])
    expect(body.meta).toMatchObject({ total: 0, limit: 50, offset: 0, series_count: UNIVERSE.length })
  })
  it("a renamed series is one row with the current id", async () => {
    const body = await screen("q=caja")
    expect(rowIds(body)).toEqual(ids("8200:BPRIV"))
    expect(body.data[0].attributes.seriesContinuity.aliasIds).toEqual([String(sid("8200:BPRIV")), String(sid("8200:B"))])
  })
  it("no comparability metadata", async () => {
    const body = await screen("")
    expect(body.meta.comparability).toBeUndefined()
    expect(body.meta.cmf_spheres_comparability).toBeUndefined()
  })
})

describe("paging", () => {
  it("pages of 3 put together give the full order, and repeat identically", async () => {
    const query = "currency=PESOS&sort=1m&order=desc"
    const full = rowIds(await screen(`${query}&limit=200`))
    const pages: string[] = []
    for (const offset of [0, 3, 6]) {
      const body = await screen(`${query}&limit=3&offset=${offset}`)
      expect(body.meta).toMatchObject({ total: PESOS.length, limit: 3, offset })
      pages.push(...rowIds(body))
    }
    expect(pages).toEqual(full)
    expect(rowIds(await screen(`${query}&limit=3&offset=3`))).toEqual(full.slice(3, 6))
  })
  it("an offset past the end → empty page, total unchanged", async () => {
    const body = await screen("offset=100")
    expect(body.data).toEqual([])
    expect(body.meta.total).toBe(UNIVERSE.length)
  })
  it("limit 1 and 200 are accepted", async () => {
    expect((await screen("limit=1")).data).toHaveLength(1)
    expect((await screen("limit=200")).data).toHaveLength(UNIVERSE.length)
  })
})

describe("answers kept per snapshot", () => {
  it("spellings of one request (currency alias, defaults written out) get the same answer but the links, which spell each request; the same bytes again", async () => {
    const a = await c.call("/api/screener?currency=clp&sort=1m&order=desc")
    const b = await c.call("/api/screener?currency=PESOS&sort=1m&order=desc&limit=50&offset=0")
    const again = await c.call("/api/screener?currency=clp&sort=1m&order=desc")
    expect(a.status).toBe(200)
    const { links: linksA, ...restA } = JSON.parse(a.text)
    const { links: linksB, ...restB } = JSON.parse(b.text)
    expect(restB).toEqual(restA)
    const query = (url: string) => [...new URL(url, "http://x").searchParams.keys()].join(",")
    expect([query(linksA.self), query(linksB.self)]).toEqual(["currency,sort,order,offset,batch", "currency,sort,order,limit,offset,batch"])
    expect(again.text).toBe(a.text)
    expect(rowIds(a.body)).toEqual(ids("9300:A", "9107:A", "8200:BPRIV", "9105:I", "9301:A", ...byAscendingId(["8043:A", "8106:B", "9105:A"])))
  })

  it("a filter over a kept order selects rows in that order (category of each row checked independently)", async () => {
    const all = (await screen("sort=tac&order=desc&limit=200")).data as Array<{ id: string; attributes: { category: string | null } }>
    const counts = new Map<string, number>()
    for (const r of all) if (r.attributes.category !== null) counts.set(r.attributes.category, (counts.get(r.attributes.category) ?? 0) + 1)
    const category = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
    expect(counts.get(category!)).toBeGreaterThan(1)
    const filtered = await screen(`sort=tac&order=desc&limit=200&category=${encodeURIComponent(category!)}`)
    const expected = all.filter((r) => r.attributes.category?.toLowerCase() === category!.toLowerCase()).map((r) => r.id)
    expect(rowIds(filtered)).toEqual(expected)
    expect(filtered.meta.total).toBe(expected.length)
  })

  it("the gzip and brotli copies of a kept answer decompress to its bytes, each time", async () => {
    const path = "/api/screener?sort=id&limit=200"
    const plain = await c.raw(path, { "accept-encoding": "identity" })
    for (const [coding, decode] of [
      ["gzip", gunzipSync],
      ["br", brotliDecompressSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await c.raw(path, { "accept-encoding": coding })
        expect(res.status).toBe(200)
        expect(res.encoding).toBe(coding)
        expect(decode(res.bytes).equals(plain.bytes)).toBe(true)
      }
    }
  })
})

describe("each invalid parameter → 422 naming it (never clamped)", () => {
  const long = (n: number) => "x".repeat(n)
  it.each([
    ["q", `q=${long(201)}`],
    ["fund_family", `fund_family=${long(201)}`],
    ["investor_class", `investor_class=${long(101)}`],
    ["currency", "currency=EUR"],
    ["category", `category=${long(101)}`],
    // closed vocabularies (those of /api/all-funds): an unknown word is a mistake, not an empty filter
    ["category", "category=equities"],
    ["limit", "limit=10&limit=20"], // given twice
    ["fund_family", "fund_family=accionario%20marte"],
    ["investor_class", "investor_class=retail2"],
    ["administrator", `administrator=${long(201)}`],
    ["cmf_spheres_min", "cmf_spheres_min=0"],
    ["cmf_spheres_min", "cmf_spheres_min=6"],
    ["cmf_spheres_min", "cmf_spheres_min=2.5"],
    ["cmf_spheres_min", "cmf_spheres_min=4&cmf_spheres_max=3"],
    ["cmf_spheres_max", "cmf_spheres_max=6"],
    ["cmf_spheres_max", "cmf_spheres_max=x"],
    ["cmf_family", "cmf_family="],
    ["cmf_investor_type", "cmf_investor_type=%20"],
    ["sort", "sort=name"],
    ["order", "order=up"],
    ["limit", "limit=0"],
    ["limit", "limit=201"],
    ["limit", "limit=ten"],
    ["offset", "offset=-1"],
    ["offset", "offset=1.5"],
    ["currency", "sort=1y"],
    ["currency", "sort=last_closed_month&order=desc"],
    ["cmf_family", `sort=cmf_spheres&cmf_investor_type=${RETAIL}`],
    ["cmf_investor_type", `sort=cmf_spheres&cmf_family=${encodeURIComponent(NACIONAL)}`],
  ])("%s (%s)", async (parameter, query) => {
    const r = await c.call(`/api/screener?${query}`)
    expect(r.status).toBe(422)
    expectErrorShape(r.body, 422)
    expect(r.body.parameter).toBe(parameter)
  })
})
