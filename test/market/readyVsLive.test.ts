/**
 * The stored answers are the live answers: the same fixture built without the market computations
 * (no ready bytes) renders all-funds, the summary and the benchmark catalog live, with the same
 * JSON; only the precomputed-only views (family index, monthly evolution) are empty there.
 */
import { brotliDecompressSync, gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type MarketClient, startMarket } from "./client.ts"

let ready: MarketClient
let live: MarketClient
beforeAll(async () => {
  ready = await startMarket()
  live = await startMarket({ computed: false })
})
afterAll(async () => {
  await ready?.close()
  await live?.close()
})

describe("ready bytes vs live rendering", () => {
  it.each(["/api/all-funds", "/api/market-summary", "/api/benchmarks", "/api/all-funds?fund_family=accionario-nacional"])(
    "%s: same body",
    async (path) => {
      const a = await ready.call(path)
      const b = await live.call(path)
      expect(a.status).toBe(200)
      expect(b.status).toBe(200)
      expect(b.body).toEqual(a.body)
    },
  )

  it("the live answer is gzip-encoded when asked, and decompresses to the live body", async () => {
    const res = await live.callGzip("/api/all-funds")
    expect(res.encoding).toBe("gzip")
    expect(res.body).toEqual((await live.call("/api/all-funds")).body)
    expect(res.body.meta.count).toBe(10)
  })

  // (the fixture's benchmark catalog is under 1 KiB: sent as it is)
  it.each(["/api/all-funds", "/api/market-summary"])(
    "%s: a brotli-only client gets brotli of the stored bytes, a gzip client the stored gzip copy",
    async (path) => {
      const plain = await ready.raw(path, { "accept-encoding": "identity" })
      const br = await ready.raw(path, { "accept-encoding": "br" })
      expect(br.encoding).toBe("br")
      expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true)
      const gz = await ready.raw(path, { "accept-encoding": "gzip, br" })
      expect(gz.encoding).toBe("gzip")
      expect(gz.bytes.equals(gzipSync(plain.bytes, { level: 9 }))).toBe(true)
      // gzip refused by name, the rest admitted by `*`: not the stored gzip copy
      const refused = await ready.raw(path, { "accept-encoding": "gzip;q=0, *" })
      expect(refused.encoding).toBe("br")
      expect(brotliDecompressSync(refused.bytes).equals(plain.bytes)).toBe(true)
    },
  )

  it("without the computations, the family index says available=false", async () => {
    const res = await live.call("/api/families/accionario-nacional/index")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
    expect(res.body.meta.available).toBe(false)
  })
})
