/**
 * The MCP part of `make bench`: each tool's median latency over /mcp (the SDK's client, one call
 * at a time) beside its HTTP route (fetch, one request at a time), alternating call and request,
 * on one `./fds serve` of the small sample. A tool's time includes the JSON-RPC envelope, the key
 * check and the in-process route; get_fund reads several routes (beside: the fund's series route).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import Database from "better-sqlite3"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { benchKey, median, publishSample, startApi, startProcess } from "./harness.ts"

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 60)

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any

export const benchMcp = async (): Promise<Record<string, unknown>> => {
  const work = mkdtempSync(join(tmpdir(), "fds-bench-mcp-"))
  const env = { ...process.env, FDS_DATA_DIR: join(work, "data") }
  console.log(`bench: preparing the small sample in ${work}`)
  console.log(publishSample(env, work))
  const key = benchKey(env)
  const api = await startApi(env)
  const headers = { "x-api-key": key }
  const json = async (path: string): Promise<Json> => (await fetch(api.url + path, { headers })).json()
  try {
    const screener = await json("/api/screener?limit=2&sort=1y&currency=CLP&order=desc")
    const [a, b] = screener.data
    const snapshots = join(env.FDS_DATA_DIR, "snapshots")
    const db = new Database(join(snapshots, readCurrent(snapshots)!), { readonly: true })
    const run = db.prepare("SELECT run FROM fm_holdings ORDER BY run LIMIT 1").pluck().get() as number
    const fiRun = db.prepare("SELECT run FROM fi_holdings ORDER BY run LIMIT 1").pluck().get() as number
    db.close()
    const instrument = (await json("/api/fi/instruments?status=all&limit=500")).data.find((i: Json) => i.run.split("-")[0] === String(fiRun))
    const cases: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
      ["search_funds", { q: "fondo", limit: "20" }, "/api/screener?q=fondo&limit=20"],
      ["get_fund", { concept_id: a.attributes.fundId }, `/api/conceptual_assets/${a.attributes.fundId}/real_assets`],
      ["get_returns", { asset_id: a.id }, `/api/real_assets/${a.id}/returns`],
      ["compare_funds", { series: `${a.id},${b.id}` }, `/api/compare?series=${a.id},${b.id}`],
      ["market_summary", {}, "/api/market-summary"],
      ["fund_portfolio", { run: String(run) }, `/api/funds/${run}/cartera/holdings`],
      ["fund_portfolio (FI)", { instrument_id: instrument.instrument_id }, `/api/fi/instruments/${instrument.instrument_id}/cartera/holdings`],
      ["list_investment_funds", { limit: "100" }, "/api/fi/instruments?limit=100"],
      ["tac_changes", {}, "/api/reports/tac-changes"],
      ["data_status", {}, "/health"],
    ]
    const client = new Client({ name: "fds-bench", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers } }))
    const rows: Array<Record<string, unknown>> = []
    console.log(`bench: ${CALLS} calls per tool, one at a time, alternating with its route`)
    console.log("tool                      mcp ms   route ms   route")
    for (const [label, args, path] of cases) {
      const name = label.split(" ")[0]!
      const tool: number[] = []
      const route: number[] = []
      for (let i = 0; i < CALLS + 5; i++) {
        let t = performance.now()
        const result = await client.callTool({ name, arguments: args })
        const toolMs = performance.now() - t
        if (result.isError) throw new Error(`${label}: ${JSON.stringify(result.content)}`)
        t = performance.now()
        const res = await fetch(api.url + path, { headers })
        await res.arrayBuffer()
        const routeMs = performance.now() - t
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
        if (i >= 5) {
          tool.push(toolMs)
          route.push(routeMs)
        }
      }
      const row = { tool: label, mcp_median_ms: median(tool), route_median_ms: median(route), route: path.replace(/\?.*$/, "") }
      rows.push(row)
      console.log(`${label.padEnd(24)} ${row.mcp_median_ms.toFixed(2).padStart(8)} ${row.route_median_ms.toFixed(2).padStart(10)}   ${row.route}`)
    }
    await client.close()
    // The floor, in the same run: the SDK alone answering a fixed result (data_status' and
    // list_investment_funds' route JSON) beside plain node:http sending the same bytes.
    console.log("floor (the SDK alone, fixed result)   mcp ms   plain ms")
    const floor: Array<Record<string, unknown>> = []
    for (const [label, path] of [
      ["data_status", "/health"],
      ["list_investment_funds", "/api/fi/instruments?limit=100"],
    ] as const) {
      const bodyFile = join(work, `floor-${label}.json`)
      writeFileSync(bodyFile, Buffer.from(await (await fetch(api.url + path, { headers })).arrayBuffer()))
      const server = await startProcess([join(import.meta.dirname, "mcpFloorServer.ts"), bodyFile], env)
      try {
        const floorClient = new Client({ name: "fds-bench-floor", version: "1.0.0" })
        await floorClient.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
        const tool: number[] = []
        const plain: number[] = []
        for (let i = 0; i < CALLS + 5; i++) {
          let t = performance.now()
          await floorClient.callTool({ name: "fixed", arguments: {} })
          const toolMs = performance.now() - t
          t = performance.now()
          await (await fetch(`${server.url}/plain`)).arrayBuffer()
          const plainMs = performance.now() - t
          if (i >= 5) {
            tool.push(toolMs)
            plain.push(plainMs)
          }
        }
        await floorClient.close()
        const row = { tool: label, floor_mcp_median_ms: median(tool), floor_plain_median_ms: median(plain) }
        floor.push(row)
        console.log(`${label.padEnd(36)} ${row.floor_mcp_median_ms.toFixed(2).padStart(8)} ${row.floor_plain_median_ms.toFixed(2).padStart(10)}`)
      } finally {
        server.child.kill()
      }
    }
    return { calls: CALLS, rows, floor }
  } finally {
    api.child.kill()
    rmSync(work, { recursive: true, force: true })
  }
}
