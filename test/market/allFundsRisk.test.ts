/**
 * The risk fields of /api/all-funds rows over real HTTP (test/market/riskFixture.ts, built with
 * every pipeline computation): at the batch date each row carries exactly the figures
 * /api/real_assets/{id}/risk_metrics publishes for its series, stored in the snapshot's rows at
 * build time; one figure is recomputed here from the fixture's quotas by the written rule
 * (docs/methodology.md "Risk"); an earlier `date` gets the figures as of that date.
 */
import Database from "better-sqlite3"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { seriesRisk } from "../../snapshots/compute/Policy.ts"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { rowRisk } from "../../snapshots/readers/MarketRisk.ts"
import { loadHistory } from "../../snapshots/readers/ReturnsHistory.ts"
import { createKey, get, type JsonResponse, type RunningServer, startServer } from "../support/server.ts"
import type { FixtureDir } from "../support/snapshotFixture.ts"
import type { Json } from "./client.ts"
import { LONG, MID, makeRiskFixture, SHORT } from "./riskFixture.ts"

const RISK_KEYS = [
  "volatility_monthly_12m",
  "volatility_monthly_36m",
  "volatility_annualized_12m",
  "volatility_annualized_36m",
  "max_drawdown_36m",
  "risk_level",
  "risk_score",
] as const

let fixture: FixtureDir
let server: RunningServer
let headers: Record<string, string>
const call = (path: string): Promise<JsonResponse & { body: Json }> => get(server.url + path, headers)
beforeAll(async () => {
  fixture = makeRiskFixture()
  headers = { "x-api-key": (await createKey(fixture.dataDir, { email: "risk@example.cl", tier: "internal" })).key }
  server = await startServer({ dataDir: fixture.dataDir })
}, 60_000)
afterAll(async () => {
  await server?.close()
  fixture?.cleanup()
})

const openSnapshot = (): Database.Database => {
  const snapshots = join(fixture.dataDir, "snapshots")
  return new Database(join(snapshots, readCurrent(snapshots)!), { readonly: true })
}

const rowOf = (body: Json, assetId: number): Json => body.data.find((r: Json) => r.serieId === String(assetId))

/** The row's risk fields as /risk_metrics names them. */
const asRiskMetrics = (row: Json): Json => ({
  ...Object.fromEntries(RISK_KEYS.map((k) => [k, row[k]])),
  as_of_date: row.risk_as_of_date,
  method_version: row.risk_method_version,
})

type Quota = { readonly date: string; readonly price: number }

/** Rows after the last quota on or before `base`, up to and including `end` (ISO dates). */
const windowOf = (quotas: ReadonlyArray<Quota>, base: string, end: string): Quota[] => {
  const upToEnd = quotas.filter((q) => q.date <= end)
  const i0 = upToEnd.findLastIndex((q) => q.date <= base)
  return upToEnd.slice(i0)
}

/** Sample σ (n − 1) of the daily simple returns of a window, × √252. */
const annualizedSigma = (rows: ReadonlyArray<Quota>): number => {
  const rs = rows.slice(1).map((q, i) => q.price / rows[i]!.price - 1)
  const mean = rs.reduce((a, r) => a + r, 0) / rs.length
  return Math.sqrt(rs.reduce((a, r) => a + (r - mean) ** 2, 0) / (rs.length - 1)) * Math.sqrt(252)
}

/** The worst fall from a running peak over the window's prices (≤ 0). */
const worstFall = (rows: ReadonlyArray<Quota>): number => {
  let peak = 0
  let worst = 0
  for (const q of rows) {
    peak = Math.max(peak, q.price)
    worst = Math.min(worst, q.price / peak - 1)
  }
  return worst
}

describe("risk fields of the all-funds rows at the batch date", () => {
  it("each row carries exactly what /risk_metrics publishes for its series", async () => {
    const res = await call("/api/all-funds")
    expect(res.status).toBe(200)
    expect(res.body.data.map((r: Json) => r.serieId)).toEqual([LONG, MID, SHORT].map((s) => String(s.assetId)))
    for (const row of res.body.data) {
      const risk = await call(`/api/real_assets/${row.serieId}/risk_metrics`)
      expect(risk.status).toBe(200)
      const { run: _run, serie: _serie, unavailable_reason: _reason, ...published } = risk.body.data.attributes
      expect(asRiskMetrics(row), row.serieId).toEqual(published)
    }
  })

  it("the long series: 12m σ × √252 and the 36m drawdown match a calculation from the fixture's quotas", async () => {
    const row = rowOf((await call("/api/all-funds")).body, LONG.assetId)
    // D = 2026-03-04; the 12m base is the last quota on or before 2025-03-04, the 36m base on or before 2023-03-04.
    const year = windowOf(LONG.quotas, "2025-03-04", "2026-03-04")
    expect(year.length - 1).toBeGreaterThanOrEqual(200) // enough returns for a 12m figure
    expect(row.volatility_annualized_12m).toBeCloseTo(annualizedSigma(year), 12)
    expect(row.volatility_monthly_12m).toBeCloseTo((annualizedSigma(year) / Math.sqrt(252)) * Math.sqrt(21), 12)
    const threeYears = windowOf(LONG.quotas, "2023-03-04", "2026-03-04")
    expect(row.max_drawdown_36m).toBeCloseTo(worstFall(threeYears), 12)
    expect(row.max_drawdown_36m).toBeLessThan(-0.25) // the 2024 fall
    expect(row.volatility_annualized_36m).toBeCloseTo(annualizedSigma(threeYears), 12)
    // 5 % ≤ σ₁₂ < 10 %: band 4 of the SRRI-like scale
    expect(row.volatility_annualized_12m).toBeGreaterThanOrEqual(0.05)
    expect(row.volatility_annualized_12m).toBeLessThan(0.1)
    expect(row).toMatchObject({ risk_score: 4, risk_level: "medium", risk_as_of_date: "2026-03-04", risk_method_version: "risk_v1" })
  })

  it("shorter histories: 12m figures only, or none", async () => {
    const body = (await call("/api/all-funds")).body
    const mid = rowOf(body, MID.assetId)
    expect(mid.volatility_annualized_12m).toBeCloseTo(annualizedSigma(windowOf(MID.quotas, "2025-03-04", "2026-03-04")), 12)
    expect(mid).toMatchObject({ volatility_annualized_36m: null, volatility_monthly_36m: null, max_drawdown_36m: null })
    const short = rowOf(body, SHORT.assetId)
    for (const k of RISK_KEYS) expect(short[k], k).toBeNull()
    expect(short).toMatchObject({ risk_as_of_date: "2026-03-04", risk_method_version: "risk_v1" })
  })

  it("the figures are in the rows stored at build time; the gzip copy and filtered requests serve them", async () => {
    const plain = (await call("/api/all-funds")).body
    const db = openSnapshot()
    try {
      const stored = db.prepare("SELECT row_json FROM market_all_funds_rows WHERE vehicle = 'mutual_fund' ORDER BY position").pluck().all() as string[]
      expect(stored.map((j) => JSON.parse(j))).toEqual(plain.data)
    } finally {
      db.close()
    }
    const gz = await request(`${server.url}/api/all-funds`, { headers: { ...headers, "accept-encoding": "gzip" } })
    expect(gz.headers["content-encoding"]).toBe("gzip")
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.body.arrayBuffer())).toString("utf8")).data).toEqual(plain.data)
    const equity = (await call("/api/all-funds?category=equity")).body.data
    expect(equity).toEqual(plain.data.filter((r: Json) => r.category === "equity"))
  })
})

describe("risk fields at an earlier date", () => {
  it("are computed as of that date: no later quota is seen", async () => {
    const res = await call("/api/all-funds?date=2025-12-31")
    expect(res.status).toBe(200)
    const row = rowOf(res.body, LONG.assetId)
    expect(row.risk_as_of_date).toBe("2025-12-31")
    expect(row.volatility_annualized_12m).toBeCloseTo(annualizedSigma(windowOf(LONG.quotas, "2024-12-31", "2025-12-31")), 12)
    expect(row.max_drawdown_36m).toBeCloseTo(worstFall(windowOf(LONG.quotas, "2022-12-31", "2025-12-31")), 12)
    // MID's first quota (2025-01-02) is after 2024-12-31: no 12m window yet
    expect(rowOf(res.body, MID.assetId).volatility_annualized_12m).toBeNull()
    expect(rowOf(res.body, SHORT.assetId)).toBeUndefined()
  })

  it("the history trimmed to 36 months gives the same figures as the returns' 60-month history", () => {
    const db = openSnapshot()
    try {
      for (const s of [LONG, MID, SHORT]) {
        for (const date of [20251231, 20250304, 20240628, 20230301, 20221215, 20221130]) {
          const whole = seriesRisk(loadHistory(db, s.assetId, date), date, "$$")
          expect(rowRisk(db, s.assetId, "$$", 20260304, date, false), `${s.serie} ${date}`).toEqual(whole)
        }
      }
    } finally {
      db.close()
    }
  })
})
