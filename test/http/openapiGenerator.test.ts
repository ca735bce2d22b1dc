/**
 * The served /openapi.json can be handed whole to a client generator: `servers` declared, every
 * operation described, every array schema with its `items` (a schema, not `false`), and every
 * closed list listing each value the route accepts (the screener's `currency` takes CLP and USD as
 * well as PESOS and DOLAR; a family, its slug as well as its name); a status answered both as a
 * success and as an error (/health's 503) documented with both bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeMarketFixture } from "../market/marketSnapshot.ts"
import { get, type RunningServer, startServer } from "../support/server.ts"

type Json = Record<string, unknown>
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

const fx = makeMarketFixture()
let server: RunningServer
let spec: Json & { paths: Record<string, Record<string, Json>> }

beforeAll(async () => {
  server = await startServer({ dataDir: fx.dataDir })
  const res = await get(`${server.url}/openapi.json`)
  expect(res.status).toBe(200)
  spec = res.body as typeof spec
})
afterAll(async () => {
  await server?.close()
  fx.cleanup()
})

/** Every JSON Schema object in the document with its JSON pointer. */
const schemasIn = (node: unknown, pointer = "#", out: Array<[string, Json]> = []): Array<[string, Json]> => {
  if (Array.isArray(node)) {
    for (const [k, child] of node.entries()) schemasIn(child, `${pointer}/${k}`, out)
  } else if (typeof node === "object" && node !== null) {
    out.push([pointer, node as Json])
    for (const [key, child] of Object.entries(node)) schemasIn(child, `${pointer}/${key}`, out)
  }
  return out
}

const isArraySchema = (s: Json): boolean => s.type === "array" || (Array.isArray(s.type) && s.type.includes("array"))

const operations = () =>
  Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ name: `${method} ${path}`, op: op as Json & { parameters?: Array<Json> } })),
  )

const queryEnum = (path: string, name: string): unknown[] => {
  const operation = spec.paths[path]?.get as { parameters: Array<{ name: string; in: string; schema: { enum?: unknown[] } }> } | undefined
  expect(operation, path).toBeDefined()
  const parameter = operation?.parameters.find((p) => p.in === "query" && p.name === name)
  return parameter?.schema.enum ?? []
}

describe("/openapi.json for a generator", () => {
  it("declares servers", () => {
    expect(Array.isArray(spec.servers)).toBe(true)
    const servers = spec.servers as Array<{ url: string }>
    expect(servers.length).toBeGreaterThan(0)
    for (const s of servers) expect(typeof s.url).toBe("string")
  })

  it("every operation has a non-empty description", () => {
    const all = operations()
    expect(all.length).toBeGreaterThan(40)
    const undescribed = all.filter(({ op }) => typeof op.description !== "string" || op.description.trim() === "").map((o) => o.name)
    expect(undescribed).toEqual([])
  })

  it("every array schema has items, and they are a schema", () => {
    const arrays = schemasIn(spec).filter(([, s]) => isArraySchema(s))
    expect(arrays.length).toBeGreaterThan(10)
    const without = arrays.filter(([, s]) => typeof s.items !== "object" || s.items === null).map(([pointer]) => pointer)
    expect(without).toEqual([])
  })

  it("the screener's currency enum lists PESOS, CLP, DOLAR and USD; the family index's too", () => {
    for (const path of ["/api/screener", "/api/families/{family_rar}/index"]) {
      expect(queryEnum(path, "currency"), path).toEqual(expect.arrayContaining(["PESOS", "CLP", "DOLAR", "USD"]))
    }
  })

  it("a family is listed by its name and by its slug, as the routes take it", () => {
    for (const path of ["/api/screener", "/api/all-funds"]) {
      expect(queryEnum(path, "fund_family"), path).toEqual(expect.arrayContaining(["Accionario eeuu", "accionario-eeuu"]))
    }
  })

  it("a keyed operation's description names the query parameters it takes", () => {
    const days = spec.paths["/api/real_assets/{asset_id}/days"]?.get as { description: string }
    expect(days.description).toContain("`from_date`, `to_date`, `format`, `batch`; any other is refused with 422")
  })

  it("/health's 503 offers both bodies it answers with: the Health body (not ready) and ServiceUnavailable (still starting)", () => {
    const unavailable = (spec.paths["/health"]!.get as { responses: Record<string, Json> }).responses["503"] as {
      content: Record<string, { schema: { $ref?: string } }>
    }
    // the Health body is JSON; "still starting" is a problem document (RFC 9457)
    expect(unavailable.content["application/json"]?.schema.$ref).toBe("#/components/schemas/HealthNotReady")
    expect(unavailable.content["application/problem+json"]?.schema.$ref).toBe("#/components/schemas/ServiceUnavailableError")
    const components = (spec.components as { schemas: Record<string, Json> }).schemas
    expect(Object.keys(components.HealthNotReady?.properties as Json)).toEqual(expect.arrayContaining(["status", "request_id"]))
  })
})
