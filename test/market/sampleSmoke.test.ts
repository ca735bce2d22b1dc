/**
 * Smoke test over the bundled sample: writeSample (small) → the real pipeline (market computations
 * included) → the API; every market route answers 200 with plausible shapes. Ids are picked from
 * the API's own lists, or from the published snapshot for portfolios and article 107.
 */
import Database from "better-sqlite3"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { publishSmallSample } from "../support/smallSample.ts"
import type { Json } from "./client.ts"

let work: string
let server: RunningServer
let headers: Record<string, string>
let snapshot: Database.Database
const call = async (path: string): Promise<{ status: number; body: Json }> => {
  const res = await get(server.url + path, headers)
  return { status: res.status, body: res.body }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-market-smoke-"))
  const dataDir = join(work, "data")
  await publishSmallSample(dataDir)
  snapshot = new Database(join(dataDir, "snapshots", readCurrent(join(dataDir, "snapshots"))!), { readonly: true })
  headers = { "x-api-key": (await createKey(dataDir, { email: "smoke@example.cl", tier: "internal" })).key }
  server = await startServer({ dataDir })
}, 240_000)

afterAll(async () => {
  snapshot?.close()
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("every market route on the sample", () => {
  it("all-funds: rows with prices and fractional changes, filters narrow", async () => {
    const res = await call("/api/all-funds")
    expect(res.status).toBe(200)
    expect(res.body.meta.date).toBe("2026-11-20")
    expect(res.body.data.length).toBeGreaterThan(20)
    for (const r of res.body.data) {
      expect(r.price).toBeGreaterThan(0)
      if (r.dailyChange !== null) expect(Math.abs(r.dailyChange)).toBeLessThan(1)
    }
    expect(res.body.data.some((r: Json) => r.seriesContinuity !== null)).toBe(true) // the sample renames one series
    const equity = await call("/api/all-funds?category=equity")
    expect(equity.body.data.length).toBeGreaterThan(0)
    expect(equity.body.data.length).toBeLessThan(res.body.data.length)
    expect((await call("/api/all-funds?date=2026-06-30")).body.meta.date).toMatch(/^2026-06-/)
  })

  it("market summary, family index, benchmarks", async () => {
    const summary = await call("/api/market-summary")
    expect(summary.status).toBe(200)
    expect(summary.body.families.length).toBeGreaterThan(0)
    expect(summary.body.topGainersDaily.length + summary.body.topLosersDaily.length).toBeGreaterThan(0)
    const family = summary.body.families[0].slug
    const index = await call(`/api/families/${family}/index`)
    expect(index.body.meta.available).toBe(true)
    expect(index.body.data[0].value).toBe(100)
    expect(index.body.data.length).toBeGreaterThan(100)
    const historical = await call("/api/market-summary?date=2025-12-31")
    expect(historical.body.meta.backtest).toBe(true)
    const benchmarks = await call("/api/benchmarks")
    expect(benchmarks.body.data.length).toBeGreaterThan(0)
    const prices = await call(`/api/benchmarks/${benchmarks.body.data[0].id}/prices?from_date=2026-01-01`)
    expect(prices.body.meta.has_benchmark).toBe(true)
    expect(prices.body.data.length).toBeGreaterThan(0)
  })

  it("administrator statistics and the TAC report", async () => {
    const ranking = await call("/api/agf_stats/ranking")
    expect(ranking.status).toBe(200)
    expect(ranking.body.data[0].attributes.rank).toBe(1)
    expect(ranking.body.data[0].attributes.total_patrimony).toBeGreaterThan(0)
    const name = ranking.body.data[0].attributes.administrator as string
    const evolution = await call(`/api/agf_stats/evolution?administrator=${encodeURIComponent(name.toUpperCase())}&from_month=2026-01`)
    expect(evolution.status).toBe(200)
    expect(evolution.body.data.length).toBeGreaterThanOrEqual(10)
    expect(typeof evolution.body.data[0][name]).toBe("number")
    const tac = await call("/api/reports/tac-changes?direction=down&limit=5")
    expect(tac.status).toBe(200)
    expect(tac.body.data.length).toBeLessThanOrEqual(5)
  })

  it("portfolios and article 107 of funds that have them", async () => {
    const run = (snapshot.prepare("SELECT run FROM fm_holdings ORDER BY run LIMIT 1").pluck().get() as number | undefined)!
    const holdings = await call(`/api/funds/${run}/cartera/holdings`)
    expect(holdings.status).toBe(200)
    expect(holdings.body.data.length).toBeGreaterThan(0)
    const weights = holdings.body.data.map((h: Json) => h.attributes.pct_activo_fondo)
    expect(weights).toEqual([...weights].sort((a: number, b: number) => b - a))
    expect((await call(`/api/funds/${run}/cartera/resumen`)).body.data.length).toBeGreaterThan(0)
    const a107run = snapshot.prepare("SELECT run FROM article107 ORDER BY run LIMIT 1").pluck().get() as number
    const a107 = await call(`/api/funds/${a107run}/article107`)
    expect(a107.status).toBe(200)
    expect(["declares_eligible", "declares_not_eligible", "unknown"]).toContain(a107.body.article107RegulationStatus)
  })
})
