/**
 * The stored all-funds answers of every vehicle are the live ones: the FI fixture with the market
 * computations run (as a pipeline build does: ready bytes for mutual_fund, etf, investment_fund
 * and all) answers with the same bytes as the same fixture without them (rendered live), gzip
 * copy included; `vehicle=all` is the three vehicles' rows in that order. Without FI data no FI
 * answer is stored and the non-FM vehicles still answer 503.
 */
import Database from "better-sqlite3"
import { gunzipSync } from "node:zlib"
import { request } from "undici"
import { describe, expect, it } from "vitest"
import { COMPRESS_MIN_BYTES } from "../../api/http/Caching.ts"
import { header } from "../support/server.ts"
import { useFiServer } from "./fiServer.ts"

const ready = useFiServer("available", true)
const live = useFiServer("available", false)
const readyWithoutFi = useFiServer({ unavailable: "fi_fetch_failed" }, true)

const VEHICLES = ["mutual_fund", "etf", "investment_fund", "all"] as const

describe("stored all-funds answers per vehicle", () => {
  it.each(VEHICLES)("vehicle=%s: the stored answer is the live answer, byte for byte", async (vehicle) => {
    const a = await ready.call(`/api/all-funds?vehicle=${vehicle}`)
    const b = await live.call(`/api/all-funds?vehicle=${vehicle}`)
    expect(a.status).toBe(200)
    expect(b.status).toBe(200)
    // two snapshots, two batches: the answers differ by the batch each names in meta.batch_id only
    const withoutBatch = (text: string) => text.replace(/"batch_id":"[^"]+",?/, "")
    expect(a.body.meta.batch_id).not.toBe(b.body.meta.batch_id)
    expect(withoutBatch(a.text)).toBe(withoutBatch(b.text))
    expect(a.body.data.length).toBeGreaterThan(0)
  })

  it("the computed snapshot stores an answer per vehicle; without FI data only the mutual-fund one", () => {
    const stored = (path: string) => {
      const db = new Database(path, { readonly: true })
      try {
        return (db.prepare("SELECT name FROM market_ready WHERE name LIKE 'all-funds/%' ORDER BY name").pluck().all() as string[])
      } finally {
        db.close()
      }
    }
    expect(stored(ready.snapshotPath)).toEqual(["all-funds/all", "all-funds/etf", "all-funds/investment_fund", "all-funds/mutual_fund"])
    expect(stored(live.snapshotPath)).toEqual([])
    expect(stored(readyWithoutFi.snapshotPath)).toEqual(["all-funds/mutual_fund"])
  })

  it.each(VEHICLES)("vehicle=%s: asked with gzip, the stored answer stamped with its batch comes compressed (from 1 KiB), decompressing to the same bytes", async (vehicle) => {
    const plain = await ready.call(`/api/all-funds?vehicle=${vehicle}`)
    expect(plain.body.meta.batch_id).toMatch(/^\d{4}-\d{2}-\d{2}-[0-9a-f]{16}$/)
    // a body under COMPRESS_MIN_BYTES is sent as it is
    const compressed = Buffer.byteLength(plain.text) >= COMPRESS_MIN_BYTES
    // the stamped answer is compressed once per batch, off the request (the first asks may get it plain)
    let raw = Buffer.alloc(0)
    let encoding: string | string[] | undefined
    for (let i = 0; i < (compressed ? 50 : 1) && encoding !== "gzip"; i++) {
      const res = await request(`${ready.url()}/api/all-funds?vehicle=${vehicle}`, {
        headers: { "accept-encoding": "gzip", "x-api-key": ready.key() },
      })
      raw = Buffer.from(await res.body.arrayBuffer())
      expect(res.statusCode).toBe(200)
      encoding = res.headers["content-encoding"]
      if (encoding !== "gzip") await new Promise((r) => setTimeout(r, 50))
    }
    if (!compressed) {
      expect(encoding).toBeUndefined()
      expect(raw.toString("utf8")).toBe(plain.text)
      return
    }
    expect(encoding).toBe("gzip")
    expect(gunzipSync(raw).toString("utf8")).toBe(plain.text)
  })

  it("vehicle=all holds the mutual-fund, ETF and investment-fund rows, in that order", async () => {
    const all = (await ready.call("/api/all-funds?vehicle=all")).body
    const parts = await Promise.all(
      ["mutual_fund", "etf", "investment_fund"].map(async (v) => (await ready.call(`/api/all-funds?vehicle=${v}`)).body.data),
    )
    expect(all.data).toEqual(parts.flat())
    expect(new Set(all.data.map((r: { vehicle: string }) => r.vehicle))).toEqual(new Set(["mutual_fund", "etf", "investment_fund"]))
  })

  it("without FI data: mutual funds are served, the other vehicles answer 503 fi_unavailable", async () => {
    expect((await readyWithoutFi.call("/api/all-funds?vehicle=mutual_fund")).status).toBe(200)
    for (const vehicle of ["etf", "investment_fund", "all"]) {
      const res = await readyWithoutFi.call(`/api/all-funds?vehicle=${vehicle}`)
      expect(res.status).toBe(503)
      expect(res.body.error).toBe("fi_unavailable")
      // the same advice as the /api/fi routes for the same state (it was 300 here, 3600 there)
      expect(header(res, "retry-after")).toBe("3600")
    }
  })
})
