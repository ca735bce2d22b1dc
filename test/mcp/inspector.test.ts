/**
 * The MCP server with an independent client: the MCP Inspector's command-line mode
 * (`@modelcontextprotocol/inspector --cli`, in tools/mcp-inspector with its own lockfile), one
 * process per call as a user runs it, on the small sample built by the real pipeline. Over stdio
 * it starts `node api/main.ts mcp` (what `./fds mcp` runs, without the wrapper's `make install`)
 * on the data folder; over HTTP it calls /mcp of the real server (ephemeral port) with a key from
 * the real KeyStore. The tool list is checked against the fifteen names the docs publish, and the
 * calls' structured results against the JSON of the routes they map onto, fetched over HTTP.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readCurrent } from "../../snapshots/Pointer.ts"
import { createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { buildSample, repoRoot, TOOL_NAMES } from "./support.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any

const INSPECTOR = join(repoRoot, "tools", "mcp-inspector", "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")

let work: string
let dataDir: string
let server: RunningServer
let key: string
let batchId: string

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** `mcp-inspector --cli <args>` with the project's Node; never throws (the exit code is in the result). */
const inspector = (args: ReadonlyArray<string>): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, "--cli", "--connect-timeout", "60000", ...args],
      // its catalog of servers in the test's folder, not the user's home
      { cwd: work, env: { ...process.env, NO_COLOR: "1", MCP_CATALOG_PATH: join(work, "catalog.json") }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resolve({ code, stdout, stderr })
      },
    )
  })

/** The Inspector on `node api/main.ts mcp` over stdio, on the sample's data folder; its JSON answer. */
const stdio = async (args: ReadonlyArray<string>): Promise<Json> => {
  const run = await inspector(["-e", `FDS_DATA_DIR=${dataDir}`, "--cwd", repoRoot, ...args, "--", process.execPath, join(repoRoot, "api", "main.ts"), "mcp"])
  expect(run.code, `inspector exited ${run.code}: ${run.stdout}${run.stderr}`).toBe(0)
  return JSON.parse(run.stdout)
}

/**
 * The Inspector on /mcp of the server, with these extra arguments (the key header); its exit code
 * and JSON answer (on stdout; a failure's `{"error": …}` is the last line of stderr).
 */
const http = async (args: ReadonlyArray<string>): Promise<{ code: number; body: Json; stderr: string }> => {
  const run = await inspector([`${server.url}/mcp`, "--transport", "http", ...args])
  const failure = run.stderr.trim().split("\n").at(-1) ?? ""
  const body = run.stdout.trim() !== "" ? JSON.parse(run.stdout) : failure.startsWith("{") ? JSON.parse(failure) : null
  return { code: run.code, body, stderr: run.stderr }
}

const route = async (path: string): Promise<Json> => {
  const res = await get(server.url + path, { "x-api-key": key })
  expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200)
  return res.body
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-inspector-"))
  dataDir = (await buildSample(work)).dataDir
  batchId = readCurrent(join(dataDir, "snapshots"))!.replace(/\.sqlite$/, "")
  key = (await createKey(dataDir, { email: "inspector@example.cl", tier: "internal" })).key
  server = await startServer({ dataDir })
}, 240_000)

afterAll(async () => {
  await server?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("the MCP Inspector's CLI as a client", () => {
  it("over stdio, tools/list names the fifteen tools, each with an object input schema and an output schema", { timeout: 150_000 }, async () => {
    // --strict: the Inspector's check of the tool schemas' portability exits 6 on an error-severity problem
    const { tools } = await stdio(["--strict", "--method", "tools/list"])
    expect((tools as Json[]).map((t) => t.name)).toEqual(TOOL_NAMES)
    for (const tool of tools as Json[]) {
      expect(tool.inputSchema.type, tool.name).toBe("object")
      expect(typeof tool.outputSchema, tool.name).toBe("object")
      expect(tool.description.length, tool.name).toBeGreaterThan(20)
    }
  })

  it("over stdio, search_funds and get_returns answer as /api/screener and /returns, plus the batch id", { timeout: 150_000 }, async () => {
    const screener = await route("/api/screener?currency=CLP&sort=1y&order=desc&limit=3")
    expect(screener.data).toHaveLength(3)
    const search = await stdio(["--method", "tools/call", "--tool-name", "search_funds", "--tool-arg", "currency=CLP", "sort=1y", "order=desc", "limit=3"])
    expect(search.isError ?? false, JSON.stringify(search.content)).toBe(false)
    expect(search.structuredContent).toEqual({ ...screener, batch_id: batchId })
    // the text an agent reads carries the best series' id
    expect(search.content[0].text).toContain(screener.data[0].id)

    const best = screener.data[0].id as string
    const returns = await stdio(["--method", "tools/call", "--tool-name", "get_returns", "--tool-arg", `asset_id=${best}`, "as_of_date=2026-06-30"])
    expect(returns.isError ?? false, JSON.stringify(returns.content)).toBe(false)
    expect(returns.structuredContent).toEqual({ ...(await route(`/api/real_assets/${best}/returns?as_of_date=2026-06-30`)), batch_id: batchId })
  })

  it("over HTTP with the key, list_batches answers as /api/batches; without it the call is refused", { timeout: 150_000 }, async () => {
    const batches = await http(["--header", `X-Api-Key: ${key}`, "--method", "tools/call", "--tool-name", "list_batches"])
    expect(batches.code, batches.stderr).toBe(0)
    expect(batches.body.isError ?? false).toBe(false)
    const listed = await route("/api/batches")
    expect(listed.data).toHaveLength(2)
    expect(batches.body.structuredContent).toEqual({ ...listed, batch_id: batchId })

    // 401 with `WWW-Authenticate: Bearer`: the Inspector reads it as a login to start, which it does
    // not do without a terminal (--stored-auth-only: no browser either)
    const keyless = await http(["--stored-auth-only", "--method", "tools/list"])
    expect(keyless.code).not.toBe(0)
    expect(keyless.body?.error?.code, keyless.stderr).toBe("auth_required")
    // the server's own 401 body, as the route's
    expect(keyless.body.error.message).toContain("missing API key: send the X-Api-Key header")
  })
})
