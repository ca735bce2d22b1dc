/**
 * The MCP endpoint and `./fds mcp` with the SDK's own client, on the small sample built by the real
 * pipeline (two batches: the second corrects a value of the first): /mcp on the real server
 * (ephemeral port) with keys from the real KeyStore, and `node api/main.ts mcp` as a child process
 * over stdio. Every tool's structured result is checked against the JSON of the route it maps
 * onto, fetched over HTTP from the same server, and against the tool's declared output schema;
 * its text against the figures of the answer.
 */

import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js"
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js"
import Database from "better-sqlite3"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { createKey, expectErrorShape, get, type RunningServer, startServer } from "../support/server.ts"
import { buildSample, httpClient, type Restated, repoRoot, stdioClient, TOOL_NAMES } from "./support.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any

let work: string
let dataDir: string
let server: RunningServer
let key: string
let client: Client
let batchId: string
/** The earlier batch, and the value the current one corrected. */
let earlierBatch: string
let restated: Restated
/** The calls of the tools whose answer is not one route's JSON as it is (the route's, filtered, or with names). */
let derived: Array<{ readonly tool: string; readonly args: Record<string, string> }>
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
  const sample = await buildSample(work)
  dataDir = sample.dataDir
  restated = sample.restated
  batchId = readCurrent(join(dataDir, "snapshots"))!.replace(/\.sqlite$/, "")
  key = (await createKey(dataDir, { email: "agent@example.cl", tier: "internal" })).key
  server = await startServer({ dataDir })
  const screener = await route("/api/screener?limit=2&sort=1y&currency=CLP&order=desc")
  const [a, b] = screener.data as Json[]
  fundId = a.attributes.fundId
  const snapshot = new Database(join(dataDir, "snapshots", `${batchId}.sqlite`), { readonly: true })
  const run = snapshot.prepare("SELECT run FROM fm_holdings ORDER BY run LIMIT 1").pluck().get() as number
  const fiRun = snapshot.prepare("SELECT run FROM fi_holdings ORDER BY run LIMIT 1").pluck().get() as number
  const heldCode = snapshot.prepare("SELECT instrument_code FROM fm_holdings ORDER BY month DESC, pct_fund_assets DESC LIMIT 1").pluck().get() as string
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
    { tool: "who_holds", args: { instrument: heldCode }, route: `/api/holders?instrument=${encodeURIComponent(heldCode)}` },
    { tool: "list_investment_funds", args: { is_etf: "false", limit: "3" }, route: "/api/fi/instruments?is_etf=false&limit=3" },
    { tool: "tac_changes", args: { direction: "up" }, route: "/api/reports/tac-changes?direction=up" },
    { tool: "fund_flows", args: { level: "fund", id: fundId, period: "month" }, route: `/api/market/flows?level=fund&id=${fundId}&period=month` },
    { tool: "data_status", args: {}, route: "/health" },
    { tool: "get_tac_history", args: { asset_id: a.id }, route: `/api/real_assets/${a.id}/expense_ratio/history` },
    { tool: "list_batches", args: {}, route: "/api/batches" },
  ]
  earlierBatch = ((await route("/api/batches")).data as Json[]).find((b) => b.id !== batchId)!.id
  derived = [
    { tool: "get_fund", args: { concept_id: fundId } },
    { tool: "get_price_history", args: { asset_id: a.id, from_date: "2026-01-01", to_date: "2026-06-30", sampling: "monthly" } },
    { tool: "list_changes_since_batch", args: { from_batch: earlierBatch } },
  ]
  client = await httpClient(server.url, { "x-api-key": key })
}, 240_000)

afterAll(async () => {
  await client?.close()
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("/mcp over HTTP with the SDK's client", () => {
  it("connects with the API key and lists the fifteen tools, each input schema a JSON Schema the SDK's validator compiles and applies", async () => {
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

  it("every tool answers as its route: the route's JSON plus the call's batch_id, and text", async () => {
    for (const c of cases) {
      const result = await call(client, c.tool, c.args)
      expect(result.isError ?? false, `${c.tool}: ${JSON.stringify(result.content)}`).toBe(false)
      expect(result.structuredContent.batch_id).toBe(batchId)
      // the route's JSON plus the call's batch_id (data_status' route, /health, names the batch served too: the same)
      expect(result.structuredContent, `${c.tool} ↔ ${c.route}`).toEqual({ ...(await route(c.route)), batch_id: batchId })
      expect(result.content).toHaveLength(1)
      expect(result.content[0].type).toBe("text")
      expect(result.content[0].text.length).toBeGreaterThan(10)
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

const pct = (x: number) => `${(x * 100).toFixed(2)} %`

describe("MCP tools an agent can answer with (issue #29 item 6)", () => {
  it("every tool declares an output schema; the structuredContent of real calls validates against it, and a tool error's against its error branch", async () => {
    const { tools } = await client.listTools()
    expect(tools.length).toBeGreaterThanOrEqual(12)
    const ajv = new AjvJsonSchemaValidator()
    const validators = new Map(
      tools.map((t) => {
        expect(t.outputSchema?.type, `${t.name} declares an output schema`).toBe("object")
        const schema = t.outputSchema as Json
        // the answer branch alone: a result must be the route's model, not merely an error body
        const answer = ajv.getValidator({ ...schema, anyOf: [schema.anyOf[0]] } as JsonSchemaType)
        return [t.name, { answer, full: ajv.getValidator(schema as JsonSchemaType) }] as const
      }),
    )
    for (const c of [...cases, ...derived]) {
      const result = await call(client, c.tool, c.args)
      expect(result.isError ?? false, `${c.tool}: ${result.content[0].text}`).toBe(false)
      const checked = validators.get(c.tool)!.answer(result.structuredContent)
      expect(checked.valid, `${c.tool}: ${checked.errorMessage}`).toBe(true)
    }
    // a model the answer does not fit is refused: the schema is not a catch-all
    expect(validators.get("search_funds")!.answer({ batch_id: batchId, data: "no" }).valid).toBe(false)
    const error = await call(client, "search_funds", { limit: "0" })
    expect(validators.get("search_funds")!.full(error.structuredContent).valid).toBe(true)
  })

  it("every tool's text carries the answer's figures: a headline and a table", async () => {
    const text = async (tool: string, args: Record<string, string>) => {
      const result = await call(client, tool, args)
      expect(result.isError ?? false, `${tool}: ${result.content[0].text}`).toBe(false)
      const t: string = result.content[0].text
      expect(t.split("\n").length, `${tool} has a table`).toBeGreaterThan(1)
      return { t, s: result.structuredContent }
    }
    for (const c of [...cases, ...derived]) await text(c.tool, c.args)
    const [a, b] = cases.find((c) => c.tool === "compare_funds")!.args.series!.split(",")
    const compared = await text("compare_funds", { series: `${a},${b}` })
    for (const row of compared.s.data as Json[]) {
      expect(compared.t).toContain(row.attributes.fundName)
      expect(compared.t).toContain(pct(row.attributes.returns.periods["1y"].value))
      expect(compared.t).toContain(pct(row.attributes.tac))
    }
    const found = await text("search_funds", { currency: "CLP", sort: "1y", order: "desc", limit: "5" })
    for (const row of found.s.data as Json[]) expect(found.t).toContain(`| ${row.id} | ${row.attributes.fundName} | ${row.attributes.serie} |`)
    const returns = await text("get_returns", { asset_id: a! })
    for (const [window, p] of Object.entries(returns.s.data.attributes.periods as Record<string, Json>)) {
      if (typeof p.value === "number") expect(returns.t).toContain(`| ${window} | ${pct(p.value)} |`)
    }
    const fund = await text("get_fund", { concept_id: fundId })
    for (const one of fund.s.series as Json[]) expect(fund.t).toContain(String(one.attributes.last_day.net_asset_value))
    const market = await text("market_summary", {})
    for (const f of market.s.families as Json[]) expect(market.t).toContain(`| ${f.name} | ${f.indexCurrency} | ${pct(f.dailyChange)} | ${pct(f.monthlyChange)} |`)
    const portfolio = await text("fund_portfolio", cases.find((c) => c.tool === "fund_portfolio")!.args)
    for (const h of portfolio.s.data as Json[]) expect(portfolio.t).toContain(`| ${h.attributes.nemotecnico} |`)
    const status = await text("data_status", {})
    for (const source of status.s.sources as Json[]) expect(status.t).toContain(`| ${source.data_set} | ${source.state} |`)
    const batches = await text("list_batches", {})
    expect(batches.t).toContain(`| ${batchId} |`)
    expect(batches.t).toContain(`| ${earlierBatch} |`)
  })

  it("get_price_history: the days route's values from from_date to to_date, every one or the last of each month", async () => {
    const asset = cases[1]!.args.asset_id!
    const days = ((await route(`/api/real_assets/${asset}/days?from_date=2026-01-01`)).data as Json[]).filter((d) => d.attributes.date <= "2026-06-30")
    const daily = await call(client, "get_price_history", { asset_id: asset, from_date: "2026-01-01", to_date: "2026-06-30" })
    expect(daily.structuredContent.data).toEqual(days)
    expect(daily.structuredContent.meta).toMatchObject({ asset_id: asset, count: days.length, from_date: "2026-01-01", to_date: "2026-06-30", sampling: "daily" })
    const monthly = await call(client, "get_price_history", { asset_id: asset, from_date: "2026-01-01", to_date: "2026-06-30", sampling: "monthly" })
    const lastOfMonth = ["01", "02", "03", "04", "05", "06"].map((m) => days.filter((d) => d.attributes.date.slice(5, 7) === m).at(-1))
    expect(monthly.structuredContent.data).toEqual(lastOfMonth)
    for (const d of lastOfMonth) expect(monthly.content[0].text).toContain(`| ${d.attributes.date} | ${d.attributes.price} |`)
    expect(monthly.structuredContent.batch_id).toBe(batchId)
    const bad = await call(client, "get_price_history", { asset_id: asset, to_date: "June" })
    expect(bad.isError).toBe(true)
    expect(bad.structuredContent).toMatchObject({ error: "invalid_parameter", status: 422, parameter: "to_date" })
  })

  it("list_batches and list_changes_since_batch: what changed since the earlier batch, as /api/changes gives it, with the fund's and series' names", async () => {
    const batches = await call(client, "list_batches", {})
    expect(batches.structuredContent.data.map((b: Json) => b.id)).toEqual([batchId, earlierBatch])
    const changes = await call(client, "list_changes_since_batch", { from_batch: earlierBatch })
    expect(changes.isError ?? false, changes.content[0].text).toBe(false)
    const { names, ...feed } = changes.structuredContent
    expect(feed).toEqual({ ...(await route(`/api/changes?from_batch=${earlierBatch}`)), batch_id: batchId })
    const row = ((await route("/api/all-funds?vehicle=all")).data as Json[]).find(
      (r) => r.run.startsWith(`${restated.run}-`) && r.serie === restated.serie,
    )
    const item = (feed.data as Json[]).find((i) => i.type === "value_restated" && i.attributes.asset_id === row.serieId)
    expect(item.attributes).toMatchObject({ date: restated.date, old: restated.old, new: restated.price })
    expect(names[row.serieId]).toEqual({ fund_name: row.fundName, run: row.run, serie: row.serie })
    const text: string = changes.content[0].text
    expect(text).toContain(earlierBatch)
    expect(text).toContain(`| value_restated | ${row.serieId} | ${row.fundName} | ${row.serie} | ${restated.date} | ${restated.old} | ${restated.price} |`)
    const none = await call(client, "list_changes_since_batch", { from_batch: batchId })
    expect(none.structuredContent.data).toEqual([])
    expect(none.content[0].text).toContain("no change")
  })

  it("argument names are the tool's own: constructor, toString and hasOwnProperty are refused, naming them", async () => {
    for (const name of ["constructor", "toString", "hasOwnProperty", "__defineGetter__"]) {
      const result = await call(client, "search_funds", { [name]: "x" })
      expect(result.isError, name).toBe(true)
      expect(result.structuredContent).toMatchObject({ error: "invalid_parameter", status: 422, parameter: name })
    }
  })

  it("a missing required argument is a tool error naming it, not internal_error", async () => {
    for (const [tool, parameter] of [
      ["get_fund", "concept_id"],
      ["get_returns", "asset_id"],
      ["get_price_history", "asset_id"],
      ["list_changes_since_batch", "from_batch"],
    ] as const) {
      const result = await call(client, tool, {})
      expect(result.isError, tool).toBe(true)
      expect(result.structuredContent).toMatchObject({ error: "invalid_parameter", status: 422, parameter, retryable: false })
      expect(result.content[0].text).toContain(parameter)
    }
    const empty = await call(client, "get_fund", { concept_id: "" })
    expect(empty.structuredContent).toMatchObject({ error: "invalid_parameter", status: 422, parameter: "concept_id" })
    // an id that is no path segment reaches no route: the API's 404, not internal_error
    const nowhere = await call(client, "get_returns", { asset_id: "." })
    expect(nowhere.isError).toBe(true)
    expect(nowhere.structuredContent).toMatchObject({ error: "not_found", status: 404, retryable: false })
  })

  it("a body over 16 KiB is the API's 413 payload_too_large, in its error shape", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(17 * 1024) } })
    const res = await request(`${server.url}/mcp`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    })
    expect(res.statusCode).toBe(413)
    const answer = (await res.body.json()) as Json
    expectErrorShape(answer, 413)
    expect(answer.error).toBe("payload_too_large")
  })
})

describe("a tool's route on the answer cache (issue #32)", () => {
  const hits = async (): Promise<number> => Number(/^fds_answer_cache_hits_total (\S+)$/m.exec((await get(`${server.url}/metrics`)).text)?.[1])
  const keptSent = async (): Promise<number> =>
    Number(/^fds_answer_cache_mcp_results_total (\S+)$/m.exec((await get(`${server.url}/metrics`)).text)?.[1])

  it("answers the same call again from the server's answer cache, with the same result", async () => {
    const first = await call(client, "tac_changes", { direction: "down" })
    const before = await hits()
    const second = await call(client, "tac_changes", { direction: "down" })
    expect(await hits()).toBe(before + 1)
    expect(second).toEqual(first)
  })

  it("a plain tool call asked again is sent from its kept result: the SDK's bytes with the new id, the quota counted; data_status is never kept; an Accept the SDK refuses stays its 406", async () => {
    const post = (id: unknown, name: string, args: Record<string, unknown>, more: { headers?: Record<string, string>; meta?: boolean } = {}) =>
      request(`${server.url}/mcp`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream", ...more.headers },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...(more.meta ? { _meta: {} } : {}) } }),
      }).then(async (r) => ({ status: r.statusCode, headers: r.headers, text: await r.body.text() }))
    const withId = (text: string, id: unknown) => text.replace(/,"jsonrpc":"2\.0","id":[^,]*}$/, `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`)
    const c = cases.find((x) => x.tool === "compare_funds")!
    const first = await post(7, c.tool, c.args) // kept now if it was not already
    expect(first.status).toBe(200)
    expect(first.text.endsWith(`,"jsonrpc":"2.0","id":7}`)).toBe(true)
    const usedBefore = await requestsToday(key)
    const [before, keptBefore] = [await hits(), await keptSent()]
    const again = await post("second call", c.tool, c.args)
    const third = await post(8, c.tool, c.args)
    expect([await hits(), await keptSent()]).toEqual([before + 2, keptBefore + 2]) // sent from the kept result, not through the SDK
    expect(await requestsToday(key)).toBe(usedBefore + 2) // each counted
    expect(again.text).toBe(withId(first.text, "second call"))
    expect(third.text).toBe(first.text.replace(/"id":7}$/, '"id":8}'))
    for (const r of [again, third]) {
      expect([r.status, r.headers["content-type"], r.headers["batch-id"]]).toEqual([200, "application/json", batchId])
      expect(r.headers["x-ratelimit-reset"]).toBe(first.headers["x-ratelimit-reset"])
    }
    // the same call through the SDK (a `_meta` in its params keeps it off the kept results): the same bytes
    const expected = { ...(await route(c.route)), batch_id: batchId }
    const [hitsBeforeSdk, keptBeforeSdk] = [await hits(), await keptSent()]
    const viaSdk = await post(9, c.tool, c.args, { meta: true })
    // its route's answer, kept by the route cache (mcp <path>), not the result
    expect([await hits(), await keptSent()]).toEqual([hitsBeforeSdk + 1, keptBeforeSdk])
    expect(viaSdk.text).toBe(withId(first.text, 9))
    expect(JSON.parse(viaSdk.text).result.structuredContent).toEqual(expected)
    // data_status reads the clock (staleness): never kept
    await post(10, "data_status", {})
    const beforeStatus = await keptSent()
    await post(11, "data_status", {})
    expect(await keptSent()).toBe(beforeStatus)
    // what the SDK refuses it still refuses, kept result or not
    const refused = await post(12, c.tool, c.args, { headers: { accept: "application/json" } })
    expect(refused.status).toBe(406)
  })
})

describe("tool calls at once (the SDK's servers are reused, one request each at a time)", () => {
  it("three clients calling every tool together: each call answers its own route's JSON, and each answer names its batch", async () => {
    const clients = await Promise.all([1, 2, 3].map(() => httpClient(server.url, { "x-api-key": key })))
    try {
      const expected = new Map<string, Json>()
      for (const c of cases) expected.set(c.route, { ...(await route(c.route)), batch_id: batchId })
      const answers = await Promise.all(clients.flatMap((cl) => cases.map(async (c) => ({ c, result: await call(cl, c.tool, c.args) }))))
      expect(answers).toHaveLength(3 * cases.length)
      for (const { c, result } of answers) expect(result.structuredContent, `${c.tool} ↔ ${c.route}`).toEqual(expected.get(c.route))
    } finally {
      await Promise.all(clients.map((cl) => cl.close()))
    }
    // each raw POST (no session: stateless) names the batch in its Batch-Id header, many at once
    const posts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        request(`${server.url}/mcp`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 100 + i, method: "tools/call", params: { name: "list_batches", arguments: {} } }),
        }).then(async (r) => ({ status: r.statusCode, batch: r.headers["batch-id"], body: (await r.body.json()) as Json })),
      ),
    )
    posts.forEach((p, i) => {
      expect(p.status).toBe(200)
      expect(p.batch).toBe(batchId)
      expect(p.body.id).toBe(100 + i)
      expect(p.body.result.structuredContent.batch_id).toBe(batchId)
    })
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
      for (const c of [...cases, ...derived]) {
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

  it("a line over 10 MiB or not JSON is answered with a JSON-RPC error on stdout and a line on stderr; the server goes on, and ends with 0 when stdin closes", async () => {
    const child = spawn(process.execPath, [join(repoRoot, "api", "main.ts"), "mcp"], {
      cwd: repoRoot,
      env: { ...process.env, FDS_DATA_DIR: dataDir },
      stdio: ["pipe", "pipe", "pipe"],
    })
    child.stdin.on("error", () => {}) // a write cut short by a failed test's kill
    const lines: Json[] = []
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8")
      for (let at = stdout.indexOf("\n"); at !== -1; at = stdout.indexOf("\n")) {
        lines.push(JSON.parse(stdout.slice(0, at)))
        stdout = stdout.slice(at + 1)
      }
    })
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8")
    })
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    const until = async (n: number) => {
      for (let i = 0; i < 600 && lines.length < n; i++) await new Promise((r) => setTimeout(r, 50))
      expect(lines.length, `stdout lines: ${JSON.stringify(lines)}; stderr: ${stderr.slice(-500)}`).toBeGreaterThanOrEqual(n)
    }
    try {
      child.stdin.write(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"${"x".repeat(10 * 1024 * 1024)}"}}\n`)
      await until(1)
      expect(lines[0]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } })
      expect(lines[0].error.message).toContain("too large")
      expect(stderr).toContain("too large")
      child.stdin.write("this is not json\n")
      await until(2)
      expect(lines[1]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } })
      // still serving
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`)
      await until(3)
      expect(lines[2]).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "fund-data-service" } } })
      expect(child.exitCode).toBeNull()
      child.stdin.end()
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill()
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
