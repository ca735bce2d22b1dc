/**
 * The MCP endpoint and `./fds mcp` with the SDK's own client, on the small sample built by the real
 * pipeline: /mcp on the real server (ephemeral port) with keys from the real KeyStore, and
 * `node api/main.ts mcp` as a child process over stdio. Every tool's structured result is checked
 * against the JSON of the route it maps onto, fetched over HTTP from the same server.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js"
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js"
import Database from "better-sqlite3"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { createKey, expectErrorShape, get, type RunningServer, startServer } from "../support/server.ts"
import { buildSample, httpClient, stdioClient } from "./support.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any

const TOOL_NAMES = [
  "search_funds",
  "get_fund",
  "get_returns",
  "compare_funds",
  "market_summary",
  "fund_portfolio",
  "list_investment_funds",
  "tac_changes",
  "data_status",
]

let work: string
let dataDir: string
let server: RunningServer
let key: string
let client: Client
let batchId: string
/** Each tool's arguments on the sample and the route (path and query) it answers as. */
let cases: Array<{ readonly tool: string; readonly args: Record<string, string>; readonly route: string }>
let fundId: string

const route = async (path: string): Promise<Json> => {
  const res = await get(server.url + path, { "x-api-key": key })
  expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200)
  return res.body
}

const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<Json> =>
  c.callTool({ name, arguments: args }, undefined, { timeout: 30_000 })

const requestsToday = async (k: string): Promise<number> => {
  const res = await get(`${server.url}/api/key/info`, { "x-api-key": k })
  return (res.body as Json).requests_today
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-mcp-"))
  dataDir = await buildSample(work)
  batchId = readCurrent(join(dataDir, "snapshots"))!.replace(/\.sqlite$/, "")
  key = (await createKey(dataDir, { email: "agent@example.cl", tier: "internal" })).key
  server = await startServer({ dataDir })
  const screener = await route("/api/screener?limit=2&sort=1y&currency=CLP&order=desc")
  const [a, b] = screener.data as Json[]
  fundId = a.attributes.fundId
  const snapshot = new Database(join(dataDir, "snapshots", `${batchId}.sqlite`), { readonly: true })
  const run = snapshot.prepare("SELECT run FROM fm_holdings ORDER BY run LIMIT 1").pluck().get() as number
  const fiRun = snapshot.prepare("SELECT run FROM fi_holdings ORDER BY run LIMIT 1").pluck().get() as number
  snapshot.close()
  const instruments = await route("/api/fi/instruments?status=all&limit=500")
  const instrument = (instruments.data as Json[]).find((i) => i.run.split("-")[0] === String(fiRun))
  cases = [
    { tool: "search_funds", args: { q: "fondo", currency: "CLP", sort: "1y", order: "desc", limit: "5" }, route: "/api/screener?q=fondo&currency=CLP&sort=1y&order=desc&limit=5" },
    { tool: "get_returns", args: { asset_id: a.id }, route: `/api/real_assets/${a.id}/returns` },
    { tool: "get_returns", args: { asset_id: a.id, as_of_date: "2026-06-30" }, route: `/api/real_assets/${a.id}/returns?as_of_date=2026-06-30` },
    { tool: "compare_funds", args: { series: `${a.id},${b.id}` }, route: `/api/compare?series=${a.id},${b.id}` },
    { tool: "market_summary", args: {}, route: "/api/market-summary" },
    { tool: "fund_portfolio", args: { run: String(run) }, route: `/api/funds/${run}/cartera/holdings` },
    { tool: "fund_portfolio", args: { instrument_id: instrument.instrument_id }, route: `/api/fi/instruments/${instrument.instrument_id}/cartera/holdings` },
    { tool: "list_investment_funds", args: { is_etf: "false", limit: "3" }, route: "/api/fi/instruments?is_etf=false&limit=3" },
    { tool: "tac_changes", args: { direction: "up" }, route: "/api/reports/tac-changes?direction=up" },
    { tool: "data_status", args: {}, route: "/health" },
  ]
  client = await httpClient(server.url, { "x-api-key": key })
}, 240_000)

afterAll(async () => {
  await client?.close()
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("/mcp over HTTP with the SDK's client", () => {
  it("connects with the API key and lists the nine tools, each input schema a JSON Schema the SDK's validator compiles and applies", async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES)
    const ajv = new AjvJsonSchemaValidator()
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object")
      const validate = ajv.getValidator(tool.inputSchema as JsonSchemaType)
      expect(validate({ not_a_parameter: "x" }).valid, `${tool.name} refuses an unknown parameter`).toBe(false)
    }
    const returns = ajv.getValidator(tools.find((t) => t.name === "get_returns")!.inputSchema as JsonSchemaType)
    expect(returns({ asset_id: "1", valuation: "clp" }).valid).toBe(true)
    expect(returns({ asset_id: "1", valuation: "euro" }).valid).toBe(false)
    expect(returns({ valuation: "clp" }).valid).toBe(false) // asset_id is required
    expect(client.getServerVersion()?.description).toMatch(/API key.*quota/)
  })

  it("every tool answers as its route: the route's JSON plus the call's batch_id, and one line of text", async () => {
    for (const c of cases) {
      const result = await call(client, c.tool, c.args)
      expect(result.isError ?? false, `${c.tool}: ${JSON.stringify(result.content)}`).toBe(false)
      expect(result.structuredContent.batch_id).toBe(batchId)
      // the route's JSON plus the call's batch_id (data_status' route, /health, names the batch served too: the same)
      expect(result.structuredContent, `${c.tool} ↔ ${c.route}`).toEqual({ ...(await route(c.route)), batch_id: batchId })
      expect(result.content).toHaveLength(1)
      expect(result.content[0].type).toBe("text")
      expect(result.content[0].text.length).toBeGreaterThan(10)
      expect(result.content[0].text).not.toContain("\n")
    }
  })

  it("get_fund: the fund's series with their latest value, and each series' TAC and risk, as the routes give them", async () => {
    const result = await call(client, "get_fund", { concept_id: fundId })
    expect(result.isError ?? false).toBe(false)
    const s = result.structuredContent
    expect(s.batch_id).toBe(batchId)
    const series = await route(`/api/conceptual_assets/${fundId}/real_assets`)
    expect(s.series).toEqual(series.data)
    expect(s.series.length).toBeGreaterThan(0)
    for (const [i, one] of (series.data as Json[]).entries()) {
      expect(s.expense_ratio[i]).toEqual(await route(`/api/real_assets/${one.id}/expense_ratio`))
      expect(s.risk_metrics[i]).toEqual(await route(`/api/real_assets/${one.id}/risk_metrics`))
    }
    expect(s.fund.fundId).toBe(fundId)
    expect(result.content[0].text).toContain(s.fund.fundName)
  })

  it("a parameter the route answers 422 is a tool error naming it, with the route's message", async () => {
    const result = await call(client, "search_funds", { limit: "0" })
    const body = (await get(`${server.url}/api/screener?limit=0`, { "x-api-key": key })).body as Json
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({ error: "invalid_parameter", status: 422, parameter: "limit", retryable: false })
    expect(result.structuredContent.message).toBe(body.message)
    expect(result.content[0].text).toBe(body.message)
    const schemaError = await call(client, "get_returns", { asset_id: "1", valuation: "euro" })
    expect(schemaError.isError).toBe(true)
    expect(schemaError.structuredContent.parameter).toBe("valuation")
    const unknown = await call(client, "market_summary", { when: "2026-01-01" })
    expect(unknown.isError).toBe(true)
    expect(unknown.structuredContent.parameter).toBe("when")
    const neither = await call(client, "fund_portfolio", {})
    expect(neither.structuredContent.parameter).toBe("run")
  })

  it("a route's 503 is a retryable tool error with the route's message and Retry-After", async () => {
    // valuation=clp stays off until FDS_ENABLE_CLP is set: the route answers 503 with Retry-After
    const res = await get(`${server.url}/api/real_assets/${cases[1]!.args.asset_id}/returns?valuation=clp`, { "x-api-key": key })
    expect(res.status).toBe(503)
    const result = await call(client, "get_returns", { asset_id: cases[1]!.args.asset_id, valuation: "clp" })
    expect(result.isError).toBe(true)
    expect(result.structuredContent).toMatchObject({
      error: (res.body as Json).error,
      status: 503,
      message: (res.body as Json).message,
      retryable: true,
      retry_after: Number(res.headers["retry-after"]),
      batch_id: batchId,
    })
  })

  it("each tool call counts one request of the key's quota; connecting and listing count none", async () => {
    const counted = (await createKey(dataDir, { email: "quota@example.cl", dailyQuota: 50 })).key
    expect(await requestsToday(counted)).toBe(0)
    const c = await httpClient(server.url, { authorization: `Bearer ${counted}` })
    try {
      await c.listTools()
      expect(await requestsToday(counted)).toBe(0)
      await call(c, "data_status", {})
      await call(c, "search_funds", { limit: "1" })
      expect(await requestsToday(counted)).toBe(2)
    } finally {
      await c.close()
    }
  })

  it("an exhausted quota is refused with the API's 429 and its message", async () => {
    const one = (await createKey(dataDir, { email: "one@example.cl", dailyQuota: 1 })).key
    const c = await httpClient(server.url, { "x-api-key": one })
    try {
      expect((await call(c, "data_status", {})).isError ?? false).toBe(false)
      const error = await call(c, "data_status", {}).then(
        () => null,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(StreamableHTTPError)
      expect((error as StreamableHTTPError).code).toBe(429)
      expect((error as Error).message).toContain("daily quota of 1 requests used up")
    } finally {
      await c.close()
    }
  })

  it("a bad or missing key is refused with the API's 401 and its message", async () => {
    for (const [headers, message] of [
      [{ "x-api-key": "fds_live_notarealkey0000000000000000" }, "invalid or revoked API key"],
      [{}, "missing API key: send the X-Api-Key header"],
      [{ authorization: "Bearer something-else" }, "the Bearer token is not a key of this service"],
    ] as const) {
      const error = await httpClient(server.url, headers).then(
        (c) => c.close().then(() => null),
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(StreamableHTTPError)
      expect((error as StreamableHTTPError).code).toBe(401)
      expect((error as Error).message).toContain(message)
    }
    const res = await request(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    })
    expect(res.statusCode).toBe(401)
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="fds"')
    expectErrorShape(await res.body.json(), 401)
  })

  it("a browser request from another origin is refused with 403 before its key is looked at", async () => {
    const res = await request(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        origin: "https://evil.example",
        "x-api-key": key,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    })
    expect(res.statusCode).toBe(403)
    expectErrorShape(await res.body.json(), 403)
  })
})

describe("./fds mcp over stdio", () => {
  it("says it reads the local folder without HTTP, key or quota, lists the same tools and answers every tool as /mcp does", async () => {
    const local = await stdioClient(dataDir)
    try {
      const info = local.getServerVersion()
      expect(info?.description).toContain(dataDir)
      expect(info?.description).toMatch(/no HTTP, no API key, no quota/)
      const { tools } = await local.listTools()
      expect(tools).toEqual((await client.listTools()).tools)
      for (const c of [...cases, { tool: "get_fund", args: { concept_id: fundId }, route: "" }]) {
        const here = await call(local, c.tool, c.args)
        expect(here.isError ?? false, c.tool).toBe(false)
        const there = await call(client, c.tool, c.args)
        if (c.tool === "data_status") {
          // health judges staleness against the clock: the batch and the sources are what must agree
          expect(here.structuredContent.last_scraped_date).toBe(there.structuredContent.last_scraped_date)
          expect(here.structuredContent.batch_id).toBe(batchId)
          continue
        }
        expect(here.structuredContent, c.tool).toEqual(there.structuredContent)
        expect(here.content).toEqual(there.content)
      }
      const invalid = await call(local, "search_funds", { limit: "0" })
      expect(invalid.structuredContent.parameter).toBe("limit")
    } finally {
      await local.close()
    }
  }, 60_000)

  it("with nothing published, a tool call is a retryable error with the API's 503 message", async () => {
    const empty = join(work, "empty")
    mkdirSync(join(empty, "snapshots"), { recursive: true })
    const local = await stdioClient(empty)
    try {
      const result = await call(local, "search_funds", {})
      expect(result.isError).toBe(true)
      expect(result.structuredContent).toMatchObject({ error: "snapshot_unavailable", status: 503, retryable: true, retry_after: 5 })
      expect(result.content[0].text).toContain("retryable")
    } finally {
      await local.close()
    }
  }, 60_000)
})
