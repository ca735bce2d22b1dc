/**
 * A snapshot whose build did not run the returns computation (the catalog fixture): the routes
 * still answer, computing on request from the snapshot's history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA, testCrc32 } from "../support/snapshotFixture.ts"
import { expectReason, periodOf, returnsBody } from "./bodies.ts"

describe("a snapshot without precomputed returns", () => {
  const fx = makeFixtureA() // batch 2026-02-06; 8043 A quoted 2026-02-02 … 2026-02-06 (1003.5)
  let server: RunningServer
  let key: string
  const id = testCrc32("fm:8043:A")
  beforeAll(async () => {
    key = (await createKey(fx.dataDir, { email: "uncomputed@example.cl", tier: "internal" })).key
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("/returns is computed for the request: five days of history fill no window", async () => {
    const b = returnsBody(await get(`${server.url}/api/real_assets/${id}/returns`, { "x-api-key": key }))
    expect(b.data.attributes).toMatchObject({ calculation_mode: "direct", as_of_date: "2026-02-06" })
    expectReason(periodOf(b, "1m"), "missing_start_quote") // wants 2026-01-06, first quote 02-02
    expectReason(periodOf(b, "last_closed_month"), "no_closed_month") // January closed, no quote by 01-31
  })

  it("/risk_metrics is computed for the request: insufficient_history", async () => {
    const res = await get(`${server.url}/api/real_assets/${id}/risk_metrics`, { "x-api-key": key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ data: { attributes: { as_of_date: "2026-02-06", unavailable_reason: "insufficient_history" } } })
  })
})
