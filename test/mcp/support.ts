/** The MCP test client (the SDK's own) over HTTP and over stdio, and the sample data folder both read. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runPipelineLive as runPipeline } from "../../pipeline/Pipeline.ts"
import { writeSample } from "../../pipeline/sample/Sample.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))

/** The small sample through the real pipeline into `<work>/data` (≈10 s). */
export const buildSample = async (work: string): Promise<string> => {
  const dataDir = join(work, "data")
  await writeSample({ out: join(work, "sample"), scale: "small", seed: 11, endDate: "2026-11-20" })
  const outcome = await Effect.runPromise(
    runPipeline({
      dataDir,
      sources: [{ kind: "folder", path: join(work, "sample") }],
      today: "2026-11-22",
      historyStart: "2018-12-01",
      fetch: { timeoutMillis: 2000, retries: 0, retryBaseMillis: 10 },
    }),
  )
  if (outcome.outcome !== "published") throw new Error(`the sample was not published: ${outcome.outcome}`)
  return dataDir
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
