/**
 * The stored answers are the live answers: the same fixture built without the market computations
 * (no ready bytes) renders all-funds, the summary and the benchmark catalog live, with the same
 * JSON; only the precomputed-only views (family index, monthly evolution) are empty there.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib"
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
      // each names its own batch; the rest is the same
      expect([a.body.meta?.batch_id, b.body.meta?.batch_id]).toEqual(path === "/api/benchmarks" ? [undefined, undefined] : [ready.batchId, live.batchId])
      expect({ ...b.body, meta: { ...b.body.meta, batch_id: undefined } }).toEqual({ ...a.body, meta: { ...a.body.meta, batch_id: undefined } })
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
    "%s: the stored bytes with their batch_id written in; a brotli client gets brotli of them, a gzip client gzip (not the stored copy, which lacks the id)",
    async (path) => {
      const plain = await ready.raw(path, { "accept-encoding": "identity" })
      expect(plain.encoding).toBeUndefined()
      expect(JSON.parse(plain.bytes.toString("utf8")).meta.batch_id).toBe(ready.batchId)
      const br = await ready.raw(path, { "accept-encoding": "br" })
      expect(br.encoding).toBe("br")
      expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true)
      const gz = await ready.raw(path, { "accept-encoding": "gzip" })
      expect(gz.encoding).toBe("gzip")
      expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true)
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
