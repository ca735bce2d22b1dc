/**
 * "FI data unavailable" is a real state: a batch whose FI part failed (meta fi_status =
 * unavailable) answers 503 with Retry-After on every /api/fi/* route and on scope=all, while the
 * FM routes of the same snapshot answer 200. A snapshot that does not say it has FI data counts
 * as without it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, expectErrorShape, get, header, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA, testCrc32 } from "../support/snapshotFixture.ts"
import { testInstrumentId } from "./fiIds.ts"
import { useFiServer } from "./fiServer.ts"

const REASON = "fi_registry: list FINRE-NV missing"
const api = useFiServer({ unavailable: REASON })
const id = testInstrumentId(9251)
const FI_ROUTES = [
  "/api/fi/instruments",
  "/api/fi/instruments?status=all&is_etf=true",
  `/api/fi/instruments/${id}`,
  `/api/fi/instruments/${testInstrumentId(1234)}`,
  `/api/fi/instruments/${id}/prices`,
  `/api/fi/instruments/${id}/prices?from_date=2026-01-01`,
  `/api/fi/instruments/${id}/cartera/holdings`,
  `/api/fi/instruments/${id}/cartera/holdings?month=2025-09&market=N`,
  `/api/fi/instruments/${id}/cartera/resumen`,
  "/api/asset_providers?scope=all",
]

describe("FI data unavailable in the published batch", () => {
  it.each(FI_ROUTES)("%s answers 503 fi_unavailable with Retry-After", async (path) => {
    const res = await api.call(path)
    expect(res.status).toBe(503)
    expectErrorShape(res.body, 503)
    expect(res.body.error).toBe("fi_unavailable")
    expect(res.body.message).toContain(REASON)
    expect(Number(header(res, "retry-after"))).toBeGreaterThan(0)
  })

  it("FM routes of the same snapshot still answer 200", async () => {
    const providers = await api.call("/api/asset_providers")
    expect(providers.status).toBe(200)
    expect(providers.body.data).toHaveLength(3)
    const funds = await api.call(`/api/asset_providers/${testCrc32("agf:96639280")}/conceptual_assets`)
    expect(funds.status).toBe(200)
    const days = await api.call(`/api/real_assets/${testCrc32("fm:8043:A")}/days`)
    expect(days.status).toBe(200)
    expect(days.body.data).toHaveLength(5)
  })

  it("/health is degraded while the served batch lacks its FI part (ops see it without calling an FI route)", async () => {
    const res = await api.call("/health")
    expect(res.status).toBe(200)
    expect(res.body.status).toBe("degraded")
    expect(res.body.last_scraped_date).toBe("2026-02-06")
  })

  it("parameter errors are still answered first (422, 400): they do not depend on the batch", async () => {
    expect((await api.call("/api/fi/instruments?limit=501")).status).toBe(422)
    expect((await api.call(`/api/fi/instruments/${id}/cartera/holdings?month=2025-13`)).status).toBe(400)
    expect((await api.call(`/api/fi/instruments/${id}/prices?from_date=2026-02-02&to_date=2026-01-01`)).status).toBe(422)
  })
})

describe("a snapshot that does not declare FI data", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let key: string
  beforeAll(async () => {
    key = (await createKey(fx.dataDir, { email: "fi-absent@example.cl" })).key
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("answers 503 on FI routes and 200 on FM routes", async () => {
    const fi = await get(`${server.url}/api/fi/instruments`, { "x-api-key": key })
    expect(fi.status).toBe(503)
    expect((fi.body as { error: string }).error).toBe("fi_unavailable")
    expect(header(fi, "retry-after")).toBeDefined()
    const fm = await get(`${server.url}/api/asset_providers`, { "x-api-key": key })
    expect(fm.status).toBe(200)
  })

  it("/health stays ok: a snapshot that says nothing of FI data predates it, nothing failed", async () => {
    expect(((await get(`${server.url}/health`)).body as { status: string }).status).toBe("ok")
  })
})
