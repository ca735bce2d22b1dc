/**
 * The stored all-funds answers of every vehicle are the live ones: the FI fixture with the market
 * computations run (as a pipeline build does: ready bytes for mutual_fund, etf, investment_fund
 * and all) answers with the same bytes as the same fixture without them (rendered live), gzip
 * copy included; `vehicle=all` is the three vehicles' rows in that order. Without FI data no FI
 * answer is stored and the non-FM vehicles still answer 503.
 */
import Database from "better-sqlite3"
import { gunzipSync, gzipSync } from "node:zlib"
import { request } from "undici"
import { describe, expect, it } from "vitest"
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
    expect(a.text).toBe(b.text)
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

  it.each(VEHICLES)("vehicle=%s: the stored gzip copy is sent (level 9, fixed header), decompressing to the same bytes", async (vehicle) => {
    const res = await request(`${ready.url()}/api/all-funds?vehicle=${vehicle}`, {
      headers: { "accept-encoding": "gzip", "x-api-key": ready.key() },
    })
    const raw = Buffer.from(await res.body.arrayBuffer())
    expect(res.statusCode).toBe(200)
    expect(res.headers["content-encoding"]).toBe("gzip")
    const plain = await ready.call(`/api/all-funds?vehicle=${vehicle}`)
    expect(gunzipSync(raw).toString("utf8")).toBe(plain.text)
    // the stored copy, not one compressed on the way out (level 6)
    expect(raw.equals(gzipSync(Buffer.from(plain.text, "utf8"), { level: 9 }))).toBe(true)
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
