/** The MCP test client (the SDK's own) over HTTP and over stdio, and the sample data folder both read. */

import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { runPipelineLive as runPipeline } from "../../pipeline/Pipeline.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url))

/** Cartola fields (`;`, latin-1): RUN_FM 2, FECHA_INF 3, SERIE 8, VALOR_CUOTA 12. */
const CARTOLA = { run: 2, date: 3, serie: 8, price: 12 } as const

/** The value the earlier batch had and the later one corrected (the sample's own). */
export interface Restated {
  readonly run: number
  readonly serie: string
  readonly date: string
  readonly old: number
  readonly price: number
}

/**
 * The small sample through the real pipeline into `<work>/data`, twice (≈25 s): a first batch in
 * which one October quota value of the cartola is 1 % off, then the sample as written (the CMF's
 * correction), the current batch. Both are of 2026-11-20; `restated` is the value the feed of
 * changes reports between them.
 */
export const buildSample = async (work: string): Promise<{ dataDir: string; restated: Restated }> => {
  const dataDir = join(work, "data")
  const sample = join(work, "sample")
  await writeSample({ out: sample, scale: "small", seed: 11, endDate: "2026-11-20" })
  const publish = async () => {
    const outcome = await Effect.runPromise(
      runPipeline({
        dataDir,
        sources: [{ kind: "folder", path: sample }],
        today: "2026-11-22",
        historyStart: "2018-12-01",
        fetch: { timeoutMillis: 2000, retries: 0, retryBaseMillis: 10 },
      }),
    )
    if (outcome.outcome !== "published") throw new Error(`the sample was not published: ${outcome.outcome}`)
  }
  const october = join(sample, readdirSync(sample).find((n) => n.startsWith("ffmm_todos_20261001_"))!)
  const original = readFileSync(october, "latin1")
  const lines = original.split("\n")
  const at = lines.findIndex((l) => l.split(";")[CARTOLA.date] === "20261015")
  const fields = lines[at]!.split(";")
  const price = Number(fields[CARTOLA.price])
  const old = Math.round(price * 1.01 * 1e4) / 1e4
  fields[CARTOLA.price] = old.toFixed(4)
  lines[at] = fields.join(";")
  writeFileSync(october, lines.join("\n"), "latin1")
  await publish()
  writeFileSync(october, original, "latin1")
  await publish()
  const restated = { run: Number(fields[CARTOLA.run]), serie: fields[CARTOLA.serie]!.trim().toUpperCase(), date: "2026-10-15", old, price }
  return { dataDir, restated }
}

/** An SDK client connected to `<url>/mcp` with these headers (the key). */
export const httpClient = async (url: string, headers: Record<string, string>): Promise<Client> => {
  const client = new Client({ name: "fds-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }))
  return client
}

/** An SDK client on `node api/main.ts mcp` (what ./fds mcp runs) over stdio, on `dataDir`. */
export const stdioClient = async (dataDir: string): Promise<Client> => {
  const client = new Client({ name: "fds-test", version: "1.0.0" })
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined))
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot, "api", "main.ts"), "mcp"],
      env: { ...env, FDS_DATA_DIR: dataDir },
      cwd: repoRoot,
      stderr: "ignore",
    }),
  )
  return client
}

/** The tools the MCP server offers, in docs/mcp.md's order: the contract the tests hold api/mcp/McpTools.ts to. */
export const TOOL_NAMES = [
  "search_funds",
  "get_fund",
  "get_returns",
  "compare_funds",
  "market_summary",
  "fund_portfolio",
  "who_holds",
  "list_investment_funds",
  "tac_changes",
  "data_status",
  "get_price_history",
  "get_tac_history",
  "list_batches",
  "list_changes_since_batch",
  "fund_flows",
]
