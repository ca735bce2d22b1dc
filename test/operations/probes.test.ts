/**
 * The probes and the metrics of a real server (in-process, on loopback): /livez always 200 while
 * the process answers; /readyz and /health's HTTP status 503 with Retry-After when nothing is
 * published or the ledger cannot be read, 200 when it can serve; both declared in /openapi.json.
 * /metrics scraped and parsed: the request counter of a route template moves as requests are
 * made; a caller outside FDS_METRICS_ALLOW gets 404 without a key, 403 with a free one, the text
 * with an internal one.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { FleetReadiness } from "../../api/system/Readiness.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { makeDataDir, makeFixtureA } from "../support/snapshotFixture.ts"

const get = async (url: string, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { headers })
  const text = await r.text()
  return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) as Record<string, unknown> }
}

/** The Prometheus text format's samples: `name{a="b",…} value` (comments and blank lines skipped). */
const parseMetrics = (text: string): ReadonlyArray<{ name: string; labels: Record<string, string>; value: number }> =>
  text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
      if (m === null) throw new Error(`not a sample line: ${line}`)
      const labels: Record<string, string> = {}
      for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string
      return { name: m[1] as string, labels, value: Number(m[3]) }
    })

const sample = (text: string, name: string, labels: Record<string, string> = {}) =>
  parseMetrics(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0)

describe("probes", () => {
  const servers: Array<RunningServer> = []
  const cleanups: Array<() => void> = []
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()))
    for (const c of cleanups) c()
  })

  it("nothing published: /livez 200, /readyz and /health 503 with Retry-After and the reason", async () => {
    const dir = makeDataDir()
    cleanups.push(dir.cleanup)
    const logged: string[] = []
    const server = await startServer({ dataDir: dir.dataDir, accessLog: (line) => logged.push(line.path) })
    servers.push(server)
    expect((await get(`${server.url}/livez`)).json()).toEqual({ status: "alive" })
    const ready = await get(`${server.url}/readyz`)
    expect(ready.status).toBe(503)
    expect(ready.headers.get("retry-after")).toBe("5")
    expect(ready.json()).toMatchObject({ status: "not_ready", reasons: ["nothing is published yet"] })
    const health = await get(`${server.url}/health`)
    expect(health.status).toBe(503)
    expect(health.headers.get("retry-after")).toBe("5")
    expect(health.json()).toMatchObject({ status: "unavailable", reasons: ["nothing is published yet"], total_records: 0 })
    // the probes are not logged per request; /health is
    await new Promise((r) => setTimeout(r, 50))
    expect(logged).toEqual(["/health"])
  })

  it("published: 200 on all three; a ledger that cannot be read makes readiness and /health 503", async () => {
    const fx = makeFixtureA()
    cleanups.push(fx.cleanup)
    const server = await startServer({ dataDir: fx.dataDir })
    servers.push(server)
    expect((await get(`${server.url}/livez`)).status).toBe(200)
    expect((await get(`${server.url}/readyz`)).json()).toEqual({ status: "ready", reasons: [] })
    expect((await get(`${server.url}/health`)).status).toBe(200)
    writeFileSync(join(fx.dataDir, "ledger.sqlite"), "this is not a database, it is a damaged ledger".repeat(200))
    const ready = await get(`${server.url}/readyz`)
    expect(ready.status).toBe(503)
    expect((ready.json().reasons as string[]).some((r) => r.startsWith("the ledger cannot be read"))).toBe(true)
    const health = await get(`${server.url}/health`)
    expect(health.status).toBe(503)
    expect(health.json()).toMatchObject({ status: "unavailable", last_scraped_date: "2026-02-06" })
  })

  it("the fleet's rule (FleetReadiness) makes the replica not ready, with its reason", async () => {
    const fx = makeFixtureA()
    cleanups.push(fx.cleanup)
    const reason = "this replica does not hold the fleet's current batch"
    const fleetReadiness = Layer.succeed(FleetReadiness)({ notReady: () => Effect.succeed(reason) })
    const server = await startServer({ dataDir: fx.dataDir, fleetReadiness })
    servers.push(server)
    const ready = await get(`${server.url}/readyz`)
    expect(ready.status).toBe(503)
    expect(ready.json()).toMatchObject({ status: "not_ready", reasons: [reason] })
    expect((await get(`${server.url}/health`)).status).toBe(503)
    expect((await get(`${server.url}/livez`)).status).toBe(200)
  })

  it("/openapi.json declares /livez and /readyz (200 and 503) and /health's 503", async () => {
    const fx = makeFixtureA()
    cleanups.push(fx.cleanup)
    const server = await startServer({ dataDir: fx.dataDir })
    servers.push(server)
    const spec = (await get(`${server.url}/openapi.json`)).json() as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }
    expect(Object.keys(spec.paths["/livez"]?.get.responses ?? {})).toContain("200")
    expect(Object.keys(spec.paths["/readyz"]?.get.responses ?? {})).toEqual(expect.arrayContaining(["200", "503"]))
    expect(Object.keys(spec.paths["/health"]?.get.responses ?? {})).toEqual(expect.arrayContaining(["200", "503"]))
  })
})

describe("metrics", () => {
  const fx = makeFixtureA()
  let server: RunningServer | undefined
  let closed: RunningServer | undefined
  afterAll(async () => {
    await server?.close()
    await closed?.close()
    fx.cleanup()
  })

  it("a scrape from loopback parses, and the route's counter and histogram move with the requests", async () => {
    server = await startServer({ dataDir: fx.dataDir })
    const { key } = await createKey(fx.dataDir, { email: "metrics@example.cl" })
    const before = await get(`${server.url}/metrics`)
    expect(before.status).toBe(200)
    expect(before.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
    const route = { route: "/api/asset_providers", method: "GET", status: "200" }
    const n0 = sample(before.text, "fds_http_requests_total", route)
    for (let i = 0; i < 5; i++) expect((await get(`${server.url}/api/asset_providers`, { "x-api-key": key })).status).toBe(200)
    await get(`${server.url}/api/nowhere/12345`)
    await get(`${server.url}/readyz`)
    const after = (await get(`${server.url}/metrics`)).text
    expect(sample(after, "fds_http_requests_total", route) - n0).toBe(5)
    expect(sample(after, "fds_http_request_duration_seconds_count", { route: "/api/asset_providers" })).toBeGreaterThanOrEqual(5)
    expect(sample(after, "fds_http_requests_total", { route: "unmatched", status: "404" })).toBe(1)
    expect(sample(after, "fds_quota_store_duration_seconds_count")).toBeGreaterThanOrEqual(5)
    expect(sample(after, "fds_batch_info", { batch_date: "2026-02-06" })).toBe(1)
    expect(sample(after, "fds_ready")).toBe(1)
    expect(sample(after, "fds_snapshot_swaps_total")).toBe(1)
    // no key, no path with an id, no address in any label
    expect(after).not.toContain(key)
    expect(after).not.toContain("12345")
    expect(after).not.toContain("127.0.0.1")
  })

  it("per-IP refusals are counted; the probes and the scrape are never refused", async () => {
    const limited = await startServer({ dataDir: fx.dataDir, rateLimit: { perSecond: 1, burst: 2 } })
    try {
      const statuses = []
      for (let i = 0; i < 5; i++) statuses.push((await get(`${limited.url}/health`)).status)
      expect(statuses.filter((s) => s === 429)).toHaveLength(3)
      for (let i = 0; i < 5; i++) expect((await get(`${limited.url}/readyz`)).status).toBe(200)
      const text = (await get(`${limited.url}/metrics`)).text
      expect(sample(text, "fds_rate_limit_refusals_total", { limit: "per_ip" })).toBe(3)
    } finally {
      await limited.close()
    }
  })

  it("outside FDS_METRICS_ALLOW: 404 without a key, 403 with a free key, 200 with an internal one", async () => {
    closed = await startServer({ dataDir: fx.dataDir, metricsAllow: ["10.0.0.0/8"] })
    expect((await get(`${closed.url}/metrics`)).status).toBe(404)
    const free = await createKey(fx.dataDir, { email: "free@example.cl" })
    expect((await get(`${closed.url}/metrics`, { "x-api-key": free.key })).status).toBe(403)
    const internal = await createKey(fx.dataDir, { email: "ops@example.cl", tier: "internal" })
    const ok = await get(`${closed.url}/metrics`, { "x-api-key": internal.key })
    expect(ok.status).toBe(200)
    expect(sample(ok.text, "fds_ready")).toBe(1)
  })
})
