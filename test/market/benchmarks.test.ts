/** /api/benchmarks and /api/benchmarks/{family_rar}/prices against the market fixture's catalog and closes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { type MarketClient, startMarket } from "./client.ts"

let c: MarketClient
beforeAll(async () => {
  c = await startMarket()
})
afterAll(async () => {
  await c?.close()
})

describe("/api/benchmarks", () => {
  it("lists the catalog, family → symbol, index, native currency, with the dates its closes cover", async () => {
    const res = await c.call("/api/benchmarks")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      {
        id: "accionario-eeuu",
        type: "benchmark",
        attributes: {
          family_rar: "Accionario eeuu",
          family_slug: "accionario-eeuu",
          symbol: "VOO",
          index_name: "S&P 500",
          instrument_name: "Vanguard S&P 500 ETF",
          native_currency: "USD",
          asset_class: "equity",
          first_price_date: "2026-02-04",
          last_price_date: "2026-03-04",
        },
      },
      {
        id: "accionario-nacional",
        type: "benchmark",
        attributes: {
          family_rar: "Accionario nacional",
          family_slug: "accionario-nacional",
          symbol: "ECH",
          index_name: "MSCI Chile",
          instrument_name: "iShares MSCI Chile ETF",
          native_currency: "USD",
          asset_class: "equity",
          first_price_date: "2026-03-03",
          last_price_date: "2026-03-04",
        },
      },
    ])
    const zipped = await c.callGzip("/api/benchmarks")
    expect(zipped.encoding).toBe("gzip")
    expect(zipped.body).toEqual(res.body)
  })
})

describe("/api/benchmarks/{family_rar}/prices", () => {
  it("raw closes in native currency, ascending, from_date inclusive", async () => {
    const res = await c.call("/api/benchmarks/Accionario%20eeuu/prices?from_date=2026-03-03")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      data: [
        { date: "2026-03-03", close: 512, currency: "USD" },
        { date: "2026-03-04", close: 509.75, currency: "USD" },
      ],
      meta: {
        batch_id: c.batchId,
        family_rar: "Accionario eeuu",
        family_slug: "accionario-eeuu",
        symbol: "VOO",
        index_name: "S&P 500",
        instrument_name: "Vanguard S&P 500 ETF",
        native_currency: "USD",
        has_benchmark: true,
      },
    })
  })

  it("the slug works too; without from_date the whole history", async () => {
    const res = await c.call("/api/benchmarks/accionario-eeuu/prices")
    expect(res.body.data.map((p: { close: number }) => p.close)).toEqual([500.5, 510.25, 512, 509.75])
  })

  it.each(["Balanceado%20moderado", "unknown-family"])("%s has no benchmark: 200, data [] and has_benchmark=false", async (f) => {
    const res = await c.call(`/api/benchmarks/${f}/prices`)
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.meta.has_benchmark).toBe(false)
    expect(res.body.meta.symbol).toBeNull()
  })

  it("an invalid from_date → 422", async () => {
    const res = await c.call("/api/benchmarks/accionario-eeuu/prices?from_date=2026-13-01")
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe("from_date")
  })
})
