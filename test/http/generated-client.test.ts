/**
 * A TypeScript client generated from GET /openapi.json works: openapi-typescript (in
 * tools/openapi-typescript, it needs the TypeScript 5 compiler API) turns the served document into
 * `schema.d.ts` without a warning, with typed query parameters (`limit?: number`,
 * `is_etf?: boolean`, closed lists as unions); a small openapi-fetch module written against those
 * types type-checks with the project's tsc (strict), while wrong calls (a limit given as text) do
 * not; run by Node, the module calls four routes of the real server (the market fixture, with
 * returns) with a real key and gets the fixture's data.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { marketFixtureData } from "../market/fixtureFunds.ts"
import { makeMarketFixture } from "../market/marketSnapshot.ts"
import { type CreatedKey, createKey, get, type RunningServer, startServer } from "../support/server.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const GENERATOR = join(repoRoot, "tools", "openapi-typescript", "node_modules", "openapi-typescript", "bin", "cli.js")
const TSC = join(repoRoot, "node_modules", "typescript", "bin", "tsc")

/** The client as a user would write it: five calls, the second's answer feeding the third; typed query values. */
const CLIENT = `import createClient from "openapi-fetch"
import type { paths } from "./schema.d.ts"

export const callFour = async (baseUrl: string, key: string) => {
  // JSON answers only: /days also offers text/csv (?format=csv), which would widen its data type
  const client = createClient<paths, "application/json">({ baseUrl, headers: { "X-Api-Key": key } })
  const providers = await client.GET("/api/asset_providers")
  const funds = await client.GET("/api/all-funds", { params: { query: { vehicle: "mutual_fund" } } })
  const first = funds.data?.data.find((row) => row.vehicle === "mutual_fund")
  if (first === undefined) throw new Error(\`no fund in /api/all-funds (\${funds.response.status})\`)
  const days = await client.GET("/api/real_assets/{asset_id}/days", {
    params: { path: { asset_id: first.serieId }, query: { from_date: "2000-01-01" } },
  })
  const limit: number = 2
  const page = await client.GET("/api/screener", {
    params: { query: { currency: "PESOS", sort: "1m", order: "desc", limit, offset: 1 } },
  })
  // the aliases the screener takes are in the contract: USD for DOLAR
  const dollars = await client.GET("/api/screener", { params: { query: { currency: "USD", limit: 200 } } })
  return {
    providers: { status: providers.response.status, names: providers.data?.data.map((p) => p.attributes.name) ?? [] },
    funds: { status: funds.response.status, count: funds.data?.meta.count ?? 0, serieId: first.serieId },
    days: { status: days.response.status, prices: days.data?.data.map((d) => d.attributes.price) ?? [] },
    screener: {
      status: page.response.status,
      limit: page.data?.meta.limit,
      offset: page.data?.meta.offset,
      ids: page.data?.data.map((d) => d.id) ?? [],
    },
    dollars: { status: dollars.response.status, ids: dollars.data?.data.map((d) => d.id) ?? [] },
  }
}
`

const RUN = `import { callFour } from "./client.ts"
console.log(JSON.stringify(await callFour(process.argv[2] ?? "", process.env.FDS_KEY ?? "")))
`

/** Calls the generated types must refuse; each line after a marker is one error. */
const WRONG = `import createClient from "openapi-fetch"
import type { paths } from "./schema.d.ts"

const client = createClient<paths>({ baseUrl: "http://127.0.0.1" })
// @ts-expect-error: no such route
void client.GET("/api/no-such-route")
// @ts-expect-error: the path parameter asset_id is required
void client.GET("/api/real_assets/{asset_id}/days", { params: { query: { from_date: "2026-01-01" } } })
// @ts-expect-error: vehicle is one of four words
void client.GET("/api/all-funds", { params: { query: { vehicle: "bonds" } } })
// @ts-expect-error: limit is a number, not text
void client.GET("/api/screener", { params: { query: { limit: "50" } } })
// @ts-expect-error: currency is PESOS, CLP, DOLAR or USD
void client.GET("/api/screener", { params: { query: { currency: "EUR" } } })
// @ts-expect-error: is_etf is a boolean, not text
void client.GET("/api/fi/instruments", { params: { query: { is_etf: "true" } } })
export const misuse = async () => {
  const { data } = await client.GET("/api/all-funds")
  // @ts-expect-error: an all-funds row has no such field
  return data?.data[0]?.no_such_field
}
`

const tsconfig = (files: ReadonlyArray<string>) =>
  JSON.stringify({
    compilerOptions: {
      target: "ES2024",
      lib: ["ES2024", "DOM"],
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      allowImportingTsExtensions: true,
      verbatimModuleSyntax: true,
      erasableSyntaxOnly: true,
      noEmit: true,
      types: ["node"],
    },
    files,
  })

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a script with the project's Node; never throws (the exit code is in the result). */
const node = (cwd: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resolve({ code, stdout, stderr })
      },
    )
  })

describe("a client generated with openapi-typescript + openapi-fetch", () => {
  const fx = makeMarketFixture({ returns: true })
  const dir = mkdtempSync(join(tmpdir(), "fds-client-"))
  let server: RunningServer
  let key: CreatedKey
  let generated: Run

  beforeAll(async () => {
    server = await startServer({ dataDir: fx.dataDir })
    key = await createKey(fx.dataDir, { email: "client@example.cl" })
    const spec = await get(`${server.url}/openapi.json`)
    expect(spec.status).toBe(200)
    writeFileSync(join(dir, "openapi.json"), spec.text)
    // openapi-fetch and the Node types are resolved from the project.
    symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir")
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }))
    writeFileSync(join(dir, "client.ts"), CLIENT)
    writeFileSync(join(dir, "run.ts"), RUN)
    writeFileSync(join(dir, "wrong.ts"), WRONG)
    writeFileSync(join(dir, "unguarded.ts"), WRONG.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ""))
    writeFileSync(join(dir, "tsconfig.json"), tsconfig(["client.ts", "run.ts", "wrong.ts"]))
    writeFileSync(join(dir, "tsconfig.unguarded.json"), tsconfig(["unguarded.ts"]))
    generated = await node(dir, [GENERATOR, "openapi.json", "--output", "schema.d.ts"])
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
    rmSync(dir, { recursive: true, force: true })
  })

  it("openapi-typescript turns /openapi.json into schema.d.ts without an error or a warning", () => {
    expect(generated.stderr).toBe("")
    expect(generated.code).toBe(0)
    expect(generated.stdout).toMatch(/openapi\.json → schema\.d\.ts/)
    const schema = readFileSync(join(dir, "schema.d.ts"), "utf8")
    expect(schema).toContain("export interface paths")
    for (const path of ["/api/asset_providers", "/api/all-funds", "/api/real_assets/{asset_id}/days", "/api/fi/instruments"]) {
      expect(schema).toContain(`"${path}": {`)
    }
  })

  it("the generated types take query values by their types: integers as number, booleans as boolean, closed lists as unions", () => {
    const schema = readFileSync(join(dir, "schema.d.ts"), "utf8")
    /** The query parameters of an operation, `name?: type` with the JSDoc lines left out. */
    const query = (operation: string): string[] => {
      const start = schema.indexOf(`    "${operation}": {`)
      expect(start, operation).toBeGreaterThan(-1)
      const block = schema.slice(start).split("            header?: never;")[0]!
      return block
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => /^[a-z_0-9]+\?: /.test(line))
    }
    expect(query("market.screener")).toEqual(
      expect.arrayContaining([
        "limit?: number;",
        "offset?: number;",
        "cmf_spheres_min?: number;",
        "cmf_spheres_max?: number;",
        'order?: "asc" | "desc";',
        'currency?: "PESOS" | "CLP" | "DOLAR" | "USD";',
        'investor_class?: "APV" | "Institutional" | "Retail";',
      ]),
    )
    expect(query("fi.instruments")).toEqual(
      expect.arrayContaining([
        "provider_id?: number;",
        "is_etf?: boolean;",
        "limit?: number;",
        "offset?: number;",
        'status?: "active" | "inactive" | "unknown" | "all";',
      ]),
    )
    expect(query("fi.prices")).toEqual(expect.arrayContaining(["limit?: number;", "offset?: number;"]))
    expect(query("market.tacChanges")).toEqual(expect.arrayContaining(["limit?: number;", 'direction?: "up" | "down";']))
    // no query parameter of any operation is an integer or a boolean spelled as text
    expect(schema).not.toMatch(/(limit|offset|provider_id|cmf_spheres_min|cmf_spheres_max)\?: string;/)
    expect(schema).not.toMatch(/is_etf\?: "true" \| "false";/)
  })

  it("the client type-checks against the generated types (strict), and wrong calls are refused", async () => {
    const checked = await node(dir, [TSC, "-p", "tsconfig.json"])
    expect(checked.stdout + checked.stderr).toBe("")
    expect(checked.code).toBe(0)
    // the same wrong calls without their @ts-expect-error: one error each, so the types are not loose
    const unguarded = await node(dir, [TSC, "-p", "tsconfig.unguarded.json"])
    expect(unguarded.code).not.toBe(0)
    const errors = unguarded.stdout.split("\n").filter((line) => /^unguarded\.ts\(\d+,\d+\): error TS\d+/.test(line))
    expect(errors.map((line) => line.match(/error (TS\d+)/)![1])).toEqual(["TS2554", "TS2741", "TS2322", "TS2322", "TS2322", "TS2322", "TS2339"])
  })

  it("run by Node, it calls four routes with the key and gets 200 and the fixture's data", async () => {
    const run = await node(dir, ["run.ts", server.url], { FDS_KEY: key.key })
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const result = JSON.parse(run.stdout) as {
      providers: { status: number; names: string[] }
      funds: { status: number; count: number; serieId: string }
      days: { status: number; prices: number[] }
      screener: { status: number; limit: number; offset: number; ids: string[] }
      dollars: { status: number; ids: string[] }
    }
    const fixture = marketFixtureData()
    expect(result.providers).toEqual({ status: 200, names: fixture.administrators.map((a) => a.name) })
    expect(result.funds.status).toBe(200)
    expect(result.funds.count).toBeGreaterThan(0)
    const series = fixture.funds.flatMap((f) => f.series).find((s) => String(s.assetId) === result.funds.serieId)
    expect(series, `serieId ${result.funds.serieId} is a fixture series`).toBeDefined()
    expect(result.days.status).toBe(200)
    expect(result.days.prices).toEqual(series!.quotas.map((q) => q.price))
    expect(result.days.prices.length).toBeGreaterThan(0)
    // the typed page (limit 2 from offset 1) is the one the same query sent as a URL gives
    const direct = await get(`${server.url}/api/screener?currency=PESOS&sort=1m&order=desc&limit=2&offset=1`, { "x-api-key": key.key })
    expect(direct.status).toBe(200)
    const ids = (direct.body as { data: Array<{ id: string }> }).data.map((d) => d.id)
    expect(ids).toHaveLength(2)
    expect(result.screener).toEqual({ status: 200, limit: 2, offset: 1, ids })
    // currency: "USD" sent by the typed client filters as DOLAR does
    const dolar = await get(`${server.url}/api/screener?currency=DOLAR&limit=200`, { "x-api-key": key.key })
    expect(result.dollars).toEqual({ status: 200, ids: (dolar.body as { data: Array<{ id: string }> }).data.map((d) => d.id) })
  })
})
