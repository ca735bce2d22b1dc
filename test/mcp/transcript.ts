/**
 * Prints the example conversation of docs/mcp.md: the SDK's client (test/mcp/support.ts) on /mcp of
 * the real server over the small sample, the requests it sends and what it gets back (structured
 * content shortened). Run: node test/mcp/transcript.ts
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createKey, startServer } from "../support/server.ts"
import { buildSample, httpClient } from "./support.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any

const shorten = (value: Json, depth = 0): Json => {
  if (Array.isArray(value)) return value.length > 2 ? [...value.slice(0, 2).map((v) => shorten(v, depth + 1)), `… ${value.length - 2} more`] : value.map((v) => shorten(v, depth + 1))
  if (value !== null && typeof value === "object") {
    if (depth >= 3) return "{…}"
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]))
  }
  return value
}

const work = mkdtempSync(join(tmpdir(), "fds-mcp-transcript-"))
const out: string[] = []
try {
  const { dataDir } = await buildSample(work)
  const { key } = await createKey(dataDir, { email: "analyst@example.cl", dailyQuota: 1000 })
  const server = await startServer({ dataDir })
  const client = await httpClient(server.url, { authorization: `Bearer ${key}` })
  out.push(`→ initialize\n← serverInfo ${JSON.stringify(client.getServerVersion())}`)
  const { tools } = await client.listTools()
  out.push(`→ tools/list\n← ${tools.map((t) => t.name).join(", ")}`)
  const step = async (name: string, args: Record<string, string>) => {
    const result: Json = await client.callTool({ name, arguments: args })
    out.push(
      `→ tools/call ${name} ${JSON.stringify(args)}\n← ${result.isError ? "isError " : ""}text: ${result.content[0].text}\n  structuredContent: ${JSON.stringify(shorten(result.structuredContent))}`,
    )
    return result.structuredContent
  }
  await step("data_status", {})
  const found = await step("search_funds", { currency: "CLP", category: "balanced", sort: "1y", order: "desc", limit: "3" })
  const best = found.data[0] ?? (await step("search_funds", { currency: "CLP", sort: "1y", order: "desc", limit: "3" })).data[0]
  await step("get_returns", { asset_id: best.id })
  await step("get_returns", { asset_id: best.id, return_basis: "total" })
  await step("get_fund", { concept_id: best.attributes.fundId })
  await step("fund_portfolio", { run: best.attributes.run })
  await step("search_funds", { limit: "0" })
  await client.close()
  await server.close()
} finally {
  rmSync(work, { recursive: true, force: true })
}
console.log(out.join("\n\n"))
