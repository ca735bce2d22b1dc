/**
 * Prints the agent tasks of docs/mcp.md: the SDK's client (test/mcp/support.ts) on /mcp of the real
 * server over the small sample (two batches), the calls it sends and the text it gets back, with
 * the structured content's size and top-level keys. Run: node test/mcp/transcript.ts
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createKey, startServer } from "../support/server.ts"
import { buildSample, httpClient } from "./support.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any

const work = mkdtempSync(join(tmpdir(), "fds-mcp-transcript-"))
const out: string[] = []
try {
  const { dataDir } = await buildSample(work)
  const { key } = await createKey(dataDir, { email: "analyst@example.cl", dailyQuota: 1000 })
  const server = await startServer({ dataDir })
  const client = await httpClient(server.url, { authorization: `Bearer ${key}` })
  const { tools } = await client.listTools()
  out.push(`→ tools/list\n← ${tools.map((t) => t.name).join(", ")}`)
  const step = async (name: string, args: Record<string, string>) => {
    const result: Json = await client.callTool({ name, arguments: args })
    const s = result.structuredContent
    out.push(
      `→ tools/call ${name} ${JSON.stringify(args)}\n← ${result.isError ? "isError " : ""}text:\n${result.content[0].text}\n  structuredContent: ${JSON.stringify(s).length} bytes, keys ${Object.keys(s).join(", ")}`,
    )
    return s
  }
  out.push("## Task 1: the best CLP series over a year, what it costs, and its path")
  const found = await step("search_funds", { currency: "CLP", sort: "1y", order: "desc", limit: "3" })
  await step("compare_funds", { series: found.data.map((r: Json) => r.id).join(",") })
  await step("get_price_history", { asset_id: found.data[0].id, from_date: "2025-11-01", sampling: "monthly" })
  out.push("## Task 2: what changed since the previous batch")
  const batches = await step("list_batches", {})
  await step("list_changes_since_batch", { from_batch: batches.data[1].id })
  out.push("## Task 3: what a fund holds and how its TAC moved")
  const fund = await step("get_fund", { concept_id: found.data[0].attributes.fundId })
  await step("fund_portfolio", { run: fund.fund.run })
  await step("get_tac_history", { asset_id: found.data[0].id })
  out.push("## Errors")
  await step("get_fund", {})
  await step("search_funds", { sort: "1y" })
  await client.close()
  await server.close()
} finally {
  rmSync(work, { recursive: true, force: true })
}
console.log(out.join("\n\n"))
