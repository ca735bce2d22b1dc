/**
 * Smoke test over the bundled sample: writeSample (small, seed 42, ending Friday 2026-11-20) → the
 * real pipeline → the real API. Expectations come from the sample's documented edge cases
 * (pipeline/sample/extras/FiUniverse.ts FI_EDGE, FiConfig.ts small scale: 20 funds of 6
 * administrators, 2 of them FM administrators too, 3 ETFs) and dates worked out by hand; the FM
 * registry is read here with a plain split.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { publishSmallSample } from "../support/smallSample.ts"
import type { Json } from "./fiServer.ts"

const END = "2026-11-20"
const work = mkdtempSync(join(tmpdir(), "fds-fi-smoke-"))
let server: RunningServer
let key: string
let all: Json[] = []
const details = new Map<string, Json>()
const call = async (path: string): Promise<{ status: number; body: Json }> => get(server.url + path, { "x-api-key": key })
const daysBeforeEnd = (iso: string) => (Date.parse(`${END}T00:00:00Z`) - Date.parse(`${iso}T00:00:00Z`)) / 86_400_000
const holdingsOf = (row: Json, query = "") => call(`/api/fi/instruments/${row.instrument_id}/cartera/holdings${query}`)

beforeAll(async () => {
  const dataDir = join(work, "data")
  await publishSmallSample(dataDir, { sampleDir: join(work, "sample") })
  key = (await createKey(dataDir, { email: "fi-smoke@example.cl" })).key
  server = await startServer({ dataDir })
  all = (await call("/api/fi/instruments?status=all&limit=500")).body.data
  for (const row of all) details.set(row.instrument_id, (await call(`/api/fi/instruments/${row.instrument_id}`)).body.data)
}, 120_000)
afterAll(async () => {
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("the sample's FI/ETF edge cases through the API", () => {
  it("publishes 20 instruments with the batch's meta; the FI cutoff is the end date", async () => {
    const res = await call("/api/fi/instruments?status=all")
    expect(res.body.total).toBe(20)
    // Friday 2026-11-20, Chile on UTC−3: complete at Nov 21 00:00 local; next batch Monday Nov 23.
    expect(res.body.meta).toEqual({
      batch_id: readFileSync(join(work, "data", "snapshots", "CURRENT"), "utf8").trim().replace(/\.sqlite$/, ""),
      generated_at: "2026-11-21T03:00:00Z",
      expires_at: "2026-11-24T03:00:00Z",
      batch_date: END,
      cutoff_date: END,
    })
  })

  it("has the three ETFs: active FIRES, tickers CFIETF…, the third in USD, with their TAC review states", async () => {
    const etfs = (await call("/api/fi/instruments?is_etf=true&status=all")).body.data
    expect(etfs.map((e: Json) => e.ticker).sort()).toEqual(["CFIETFCC", "CFIETFGE", "CFIETFIPSA"])
    for (const e of etfs) expect(e).toMatchObject({ vehicle: "etf", status: "active", regulatory_type: "FIRES", price_status: "current" })
    const byTicker = (t: string) => details.get(etfs.find((e: Json) => e.ticker === t).instrument_id)
    expect(byTicker("CFIETFGE").latest_quota.currency).toBe("USD")
    expect(byTicker("CFIETFIPSA").tac.status).toBe("available")
    expect(byTicker("CFIETFCC").tac.status).toBe("pending_review")
    expect(byTicker("CFIETFGE").tac.status).toBe("unavailable_or_conflict")
  })

  it("has one FI in COP, current, whose fact sheet gives no TAC (not_reported)", () => {
    const cop = [...details.values()].filter((d) => d.series.some((s: Json) => s.currency === "COP"))
    expect(cop).toHaveLength(1)
    expect(cop[0]).toMatchObject({ price_status: "current", tac: { status: "not_reported", value: null } })
  })

  it("has exactly one active FI with a stale price (about 35 days old), and active FIs without any price", async () => {
    const active = all.filter((r) => r.status === "active")
    const stale = active.filter((r) => r.price_status === "stale")
    expect(stale).toHaveLength(1)
    expect(daysBeforeEnd(stale[0].last_price_date)).toBeGreaterThan(30)
    expect(daysBeforeEnd(stale[0].last_price_date)).toBeLessThan(40)
    const none = active.filter((r) => r.price_status === "unavailable")
    expect(none.length).toBeGreaterThanOrEqual(1)
    for (const r of none) {
      expect(details.get(r.instrument_id)).toMatchObject({ latest_quota: null, patrimony: null, last_price_date: null })
      expect((await call(`/api/fi/instruments/${r.instrument_id}/prices`)).body).toMatchObject({ data: [], total: 0 })
    }
  })

  it("has one FI with values but no portfolio at all (404), its two-year-old fact sheet stale", async () => {
    const staleTac = [...details.values()].filter((d) => d.tac.status === "stale")
    expect(staleTac).toHaveLength(1)
    expect(staleTac[0]).toMatchObject({ status: "active", price_status: "current" })
    expect((await holdingsOf(staleTac[0])).status).toBe(404)
    expect((await call(`/api/fi/instruments/${staleTac[0].instrument_id}/cartera/resumen`)).status).toBe(404)
  })

  it("reports availability per market: the IPSA ETF's oldest quarter has national positions only", async () => {
    const ipsa = all.find((r) => r.ticker === "CFIETFIPSA")
    // Quarters published by 2026-11-20 (60 days after the quarter, 90 after December): up to 2026-06.
    const latest = await holdingsOf(ipsa)
    expect(latest.body.meta).toMatchObject({ month: "2026-06", valuation_unit: "cmf_reported" })
    const oldest = await holdingsOf(ipsa, "?month=2025-09")
    expect(oldest.status).toBe(200)
    expect(oldest.body.meta.availability).toEqual({ N: "available", E: "unavailable" })
    expect(oldest.body.data.length).toBeGreaterThan(0)
    expect(oldest.body.data.every((h: Json) => h.market === "N")).toBe(true)
  })

  it("has a fund whose second-newest quarter is missing: 200 with data [] for 2026-03", async () => {
    let found = 0
    for (const r of all.filter((x) => x.status === "active")) {
      const latest = await holdingsOf(r)
      if (latest.status !== 200 || latest.body.meta.month !== "2026-06") continue
      const gap = await holdingsOf(r, "?month=2026-03")
      if (gap.body.data.length === 0) {
        found++
        expect(gap.status).toBe(200)
        expect(gap.body.meta.availability).toEqual({ N: "unavailable", E: "unavailable" })
      }
    }
    expect(found).toBe(1)
  })

  it("keeps inactive instruments out of the default list; they have stale or no prices and no portfolio", async () => {
    const inactive = (await call("/api/fi/instruments?status=inactive")).body.data
    expect(inactive.length).toBeGreaterThanOrEqual(2)
    const defaults = new Set((await call("/api/fi/instruments?limit=500")).body.data.map((r: Json) => r.instrument_id))
    for (const r of inactive) expect(defaults.has(r.instrument_id)).toBe(false)
    expect(inactive.some((r: Json) => r.price_status === "unavailable")).toBe(true)
    expect(inactive.some((r: Json) => r.price_status === "stale" && daysBeforeEnd(r.last_price_date) >= 150)).toBe(true)
    expect(inactive.every((r: Json) => r.price_status !== "current")).toBe(true)
    for (const r of inactive) expect((await holdingsOf(r)).status).toBe(404)
  })

  it("has one FI sharing its RUN with an FM fund, under an administrator that manages both", async () => {
    const fmAdminByRun = new Map(
      readFileSync(join(work, "sample", "fm_ident2.txt"))
        .toString("latin1")
        .split("\n")
        .slice(1)
        .map((line) => line.split(";"))
        .filter((c) => c.length > 2)
        .map((c) => [c[2]!, c[1]!] as const),
    )
    const fmRuns = new Set(fmAdminByRun.keys())
    const shared = all.filter((r) => fmRuns.has(r.run.split("-")[0]))
    expect(shared).toHaveLength(1)
    const providers = (await call("/api/asset_providers?scope=all")).body.data
    const provider = providers.find((p: Json) => p.id === String(shared[0].provider_id))
    expect(provider.attributes.coverage).toEqual(expect.arrayContaining(["FM", "FI"]))
    // The FM registry names the same administrator for that RUN.
    expect(provider.attributes.name).toBe(fmAdminByRun.get(shared[0].run.split("-")[0]))
    // A RUN on both the VI and NV lists (9251 unless an FM fund has it) counts as active.
    if (!fmRuns.has("9251")) expect(all.find((r) => r.run === "9251-7")?.status).toBe("active")
  })

  it("scope=all: 6 administrators with FI/ETF (2 with FM funds too, the only ones with a RUT), 20 instruments", async () => {
    const providers = (await call("/api/asset_providers?scope=all")).body.data
    const withFi = providers.filter((p: Json) => p.attributes.coverage.some((c: string) => c !== "FM"))
    expect(withFi).toHaveLength(6)
    const withFm = withFi.filter((p: Json) => p.attributes.coverage.includes("FM"))
    expect(withFm).toHaveLength(2)
    expect(withFi.filter((p: Json) => p.attributes.rut !== null)).toEqual(withFm)
    expect(withFi.reduce((n: number, p: Json) => n + p.attributes.instrument_count, 0)).toBe(20)
    const fmOnly = (await call("/api/asset_providers")).body.data
    expect(providers.filter((p: Json) => p.attributes.coverage.includes("FM"))).toHaveLength(fmOnly.length)
  })

  it("gives book values ascending by date for every instrument with prices", async () => {
    for (const r of all.filter((x) => x.price_status !== "unavailable").slice(0, 5)) {
      const rows = (await call(`/api/fi/instruments/${r.instrument_id}/prices?limit=5000`)).body.data
      const dates = rows.map((p: Json) => p.date)
      expect(dates).toEqual([...dates].sort())
      expect(rows.at(-1).date).toBe(r.last_price_date)
    }
  })
})
