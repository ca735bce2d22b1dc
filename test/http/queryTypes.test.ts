/**
 * /openapi.json from a real server declares every query parameter of every operation by the value
 * it decodes to: integers as `integer` with their bounds, booleans as `boolean`, closed lists as
 * `enum`, and the spec's defaults as `default` (interface spec: screener, FI, reports, returns,
 * all-funds, statistics, portfolio tables). The table below lists them all, so a parameter added
 * without its declared type fails here. The document is also held to the server: each enum value
 * and each integer bound is accepted (not 422), one past a bound is refused naming the parameter,
 * and each default is a value its own schema allows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AFM_FAMILIES } from "../../schemas/AfmFamilies.ts"
import type { Json } from "../support/openApiSchema.ts"
import { type CreatedKey, createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { fixtureA, makeFixtureA } from "../support/snapshotFixture.ts"

const CATEGORIES = ["money_market_90d", "debt_365d", "debt_medium_long", "balanced", "equity", "free_investment", "structured", "qualified_investors"]
const FAMILIES = [
  "Deuda < 90 días nacional",
  "Deuda < 90 días internacional usd",
  "Deuda < 365 días nacional pesos",
  "Deuda < 365 días nacional uf",
  "Deuda < 365 días internacional",
  "Deuda > 365 días nacional pesos",
  "Deuda > 365 días nacional uf hasta 3 años",
  "Deuda > 365 días nacional uf 3 a 5 años",
  "Deuda > 365 días nacional uf más de 5 años",
  "Deuda > 365 días internacional emergente",
  "Deuda > 365 días internacional desarrollado",
  "Deuda > 365 días origen flexible",
  "Balanceado conservador",
  "Balanceado moderado",
  "Balanceado agresivo",
  "Accionario nacional",
  "Accionario eeuu",
  "Accionario europa",
  "Accionario desarrollado",
  "Accionario latam",
  "Accionario asia emergente",
  "Accionario emergente",
  "Estructurado",
  "Inversionistas calificados deuda",
]
/** A family is taken by its name or its slug: the enum lists both, name first. */
const FAMILY_SPELLINGS = FAMILIES.flatMap((name) => [name, Object.values(AFM_FAMILIES).find((f) => f.familyRar === name)!.slug])
const WINDOWS = ["1m", "3m", "6m", "1y", "ytd", "3y_ann", "5y_ann", "last_closed_month"]
const U32 = 4_294_967_295
const SAFE = Number.MAX_SAFE_INTEGER

/** What the document says of a parameter's value: the keys a client's types come from. */
interface Declared {
  readonly type: string
  readonly enum?: ReadonlyArray<unknown>
  readonly minimum?: number
  readonly maximum?: number
  readonly default?: unknown
  readonly items?: string
}

const str: Declared = { type: "string" }
const int = (minimum: number, maximum: number, byDefault?: number): Declared => ({
  type: "integer",
  minimum,
  maximum,
  ...(byDefault === undefined ? {} : { default: byDefault }),
})
const oneOf = (values: ReadonlyArray<string>, byDefault?: string): Declared => ({
  type: "string",
  enum: values,
  ...(byDefault === undefined ? {} : { default: byDefault }),
})

/** Every query parameter of every operation, as `<method> <path> <name>`. */
const EXPECTED: Readonly<Record<string, Declared>> = {
  "get /api/asset_providers scope": oneOf(["all"]),
  "get /api/real_assets/{asset_id}/days from_date": str,
  "get /api/real_assets/{asset_id}/days to_date": str,
  "get /api/real_assets/{asset_id}/days format": oneOf(["json", "csv"]),
  "get /api/real_assets/{asset_id}/returns as_of_date": str,
  "get /api/real_assets/{asset_id}/returns valuation": oneOf(["accounting", "clp", "real_uf"], "accounting"),
  "get /api/real_assets/{asset_id}/returns return_basis": oneOf(["price", "total"], "price"),
  "get /api/real_assets/{asset_id}/expense_ratio/history from_date": str,
  "get /api/all-funds category": oneOf(CATEGORIES),
  "get /api/all-funds fund_family": oneOf(FAMILY_SPELLINGS),
  "get /api/all-funds date": str,
  "get /api/all-funds article107_regulation_status": oneOf(["declares_eligible", "declares_not_eligible", "unknown"]),
  "get /api/all-funds vehicle": oneOf(["mutual_fund", "etf", "investment_fund", "all"], "mutual_fund"),
  "get /api/market-summary date": str,
  "get /api/families/{family_rar}/index currency": oneOf(["PESOS", "CLP", "DOLAR", "USD"]),
  "get /api/families/{family_rar}/index from_date": str,
  "get /api/benchmarks/{family_rar}/prices from_date": str,
  "get /api/agf_stats/ranking metric": oneOf(["patrimony", "shareholders"], "patrimony"),
  "get /api/agf_stats/ranking date": str,
  "get /api/agf_stats/evolution administrator": { type: "array", items: "string" },
  "get /api/agf_stats/evolution metric": oneOf(["patrimony", "shareholders"], "patrimony"),
  "get /api/agf_stats/evolution from_month": str,
  "get /api/agf_stats/evolution to_month": str,
  "get /api/reports/tac-changes date": str,
  "get /api/reports/tac-changes direction": oneOf(["up", "down"], "up"),
  "get /api/reports/tac-changes limit": int(1, 100, 15),
  "get /api/reports/tac-changes category": oneOf(CATEGORIES),
  "get /api/funds/{run}/cartera/resumen month": str,
  "get /api/funds/{run}/cartera/holdings month": str,
  "get /api/funds/{run}/cartera/holdings market": oneOf(["N", "E", "all"], "all"),
  // a comma-separated list is sent as one text (decoded to ids by the server)
  "get /api/compare series": str,
  "get /api/screener q": str,
  "get /api/screener fund_family": oneOf(FAMILY_SPELLINGS),
  "get /api/screener investor_class": oneOf(["APV", "Institutional", "Retail"]),
  "get /api/screener currency": oneOf(["PESOS", "CLP", "DOLAR", "USD"]),
  "get /api/screener category": oneOf(CATEGORIES),
  "get /api/screener administrator": str,
  "get /api/screener cmf_spheres_min": int(1, 5),
  "get /api/screener cmf_spheres_max": int(1, 5),
  "get /api/screener cmf_family": str,
  "get /api/screener cmf_investor_type": str,
  "get /api/screener sort": oneOf(["id", "tac", "cmf_spheres", ...WINDOWS], "id"),
  "get /api/screener order": oneOf(["asc", "desc"], "asc"),
  "get /api/screener limit": int(1, 200, 50),
  "get /api/screener offset": int(0, U32, 0),
  "get /api/fi/instruments provider_id": int(0, U32),
  "get /api/fi/instruments is_etf": { type: "boolean" },
  "get /api/fi/instruments regulatory_type": oneOf(["FIRES", "FINRE"]),
  "get /api/fi/instruments status": oneOf(["active", "inactive", "unknown", "all"], "active"),
  "get /api/fi/instruments q": str,
  "get /api/fi/instruments limit": int(1, 500, 100),
  "get /api/fi/instruments offset": int(0, SAFE, 0),
  "get /api/fi/instruments/{instrument_id}/prices from_date": str,
  "get /api/fi/instruments/{instrument_id}/prices to_date": str,
  "get /api/fi/instruments/{instrument_id}/prices limit": int(1, 5000, 1000),
  "get /api/fi/instruments/{instrument_id}/prices offset": int(0, SAFE, 0),
  "get /api/fi/instruments/{instrument_id}/cartera/holdings month": str,
  "get /api/fi/instruments/{instrument_id}/cartera/holdings market": oneOf(["N", "E", "all"], "all"),
  "get /api/fi/instruments/{instrument_id}/cartera/resumen month": str,
  "get /api/fi/instruments/{instrument_id}/cartera/resumen market": oneOf(["N", "E", "all"], "all"),
  "get /api/auth/google return_url": str,
  "get /api/auth/google/callback code": str,
  "get /api/auth/google/callback state": str,
  "post /api/alerts/unsubscribe/one-click token": str,
  "get /api/batches limit": int(1, 500, 100),
  "get /api/batches offset": int(0, SAFE, 0),
  "get /api/batches batch": str,
  "get /api/changes from_batch": str,
  "get /api/changes to_batch": str,
  "get /api/changes limit": int(1, 5000, 1000),
  "get /api/changes cursor": str,
  "get /api/batches/{batch_id}/days.csv.gz from_date": str,
  // #31: history without survivorship bias (universe, the screener's date), who holds this, fund flows
  "get /api/all-funds universe": oneOf(["current", "as_of"]),
  "get /api/market-summary universe": oneOf(["current", "as_of"]),
  "get /api/screener date": str,
  "get /api/screener universe": oneOf(["current", "as_of"]),
  "get /api/holders instrument": str,
  "get /api/holders isin": str,
  "get /api/holders issuer_rut": str,
  "get /api/holders month": str,
  "get /api/market/flows level": oneOf(["series", "fund", "administrator", "family"]),
  "get /api/market/flows id": str,
  "get /api/market/flows period": oneOf(["day", "month"], "day"),
  "get /api/market/flows from": str,
  "get /api/market/flows to": str,
  "get /api/market/flows currency": oneOf(["native", "CLP"], "native"),
  "get /api/market/flows limit": int(1, 5000, 1000),
  "get /api/market/flows offset": int(0, 10_000_000, 0),
  // ?batch=<batch_id> on every data route (the batch pinned for the request)
  ...Object.fromEntries(
    [
      "/api/asset_providers",
      "/api/asset_providers/{provider_id}/conceptual_assets",
      "/api/conceptual_assets/{concept_id}/real_assets",
      "/api/real_assets/{asset_id}/days",
      "/api/real_assets/{asset_id}/returns",
      "/api/real_assets/{asset_id}/risk_metrics",
      "/api/real_assets/{asset_id}/expense_ratio",
      "/api/real_assets/{asset_id}/expense_ratio/history",
      "/api/all-funds",
      "/api/market-summary",
      "/api/families/{family_rar}/index",
      "/api/benchmarks",
      "/api/benchmarks/{family_rar}/prices",
      "/api/agf_stats/ranking",
      "/api/agf_stats/evolution",
      "/api/reports/tac-changes",
      "/api/funds/{run}/cartera/resumen",
      "/api/funds/{run}/cartera/holdings",
      "/api/funds/{run}/article107",
      "/api/compare",
      "/api/screener",
      "/api/fi/instruments",
      "/api/fi/instruments/{instrument_id}",
      "/api/fi/instruments/{instrument_id}/prices",
      "/api/fi/instruments/{instrument_id}/cartera/holdings",
      "/api/fi/instruments/{instrument_id}/cartera/resumen",
      "/api/holders",
      "/api/market/flows",
    ].map((path) => [`get ${path} batch`, str]),
  ),
}

const fx = makeFixtureA()
let server: RunningServer
let key: CreatedKey
let doc: Json

beforeAll(async () => {
  server = await startServer({ dataDir: fx.dataDir })
  key = await createKey(fx.dataDir, { email: "types@example.cl", tier: "internal" })
  const res = await get(`${server.url}/openapi.json`)
  expect(res.status).toBe(200)
  doc = res.body
})
afterAll(async () => {
  await server?.close()
  fx.cleanup()
})

interface QueryParameter {
  readonly operation: string
  readonly method: string
  readonly path: string
  readonly name: string
  readonly required: boolean
  readonly schema: Json
}

const queryParameters = (): QueryParameter[] =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      ((operation.parameters ?? []) as Json[])
        .filter((p) => p.in === "query")
        .map((p) => ({ operation: `${method} ${path}`, method, path, name: p.name, required: p.required === true, schema: p.schema })),
    ),
  )

const declared = (schema: Json): Declared => ({
  type: schema.type,
  ...(schema.enum === undefined ? {} : { enum: schema.enum }),
  ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
  ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
  ...(schema.default === undefined ? {} : { default: schema.default }),
  ...(schema.items === undefined ? {} : { items: schema.items.type }),
})

describe("/openapi.json declares each query parameter by its type", () => {
  it("every query parameter is in the table, and every entry of the table is in the document", () => {
    const found = queryParameters().map((p) => `${p.operation} ${p.name}`)
    expect(found.sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  it.each(Object.entries(EXPECTED))("%s", (id, expected) => {
    const p = queryParameters().find((q) => `${q.operation} ${q.name}` === id)!
    expect(declared(p.schema)).toEqual(expected)
  })

  it("a parameter with a default is optional, and its default is a value its own schema allows", () => {
    const withDefault = queryParameters().filter((p) => p.schema.default !== undefined)
    expect(withDefault.length).toBe(Object.values(EXPECTED).filter((d) => d.default !== undefined).length)
    for (const p of withDefault) {
      const s = p.schema
      expect(p.required, `${p.operation} ${p.name}`).toBe(false)
      if (s.enum !== undefined) expect(s.enum, `${p.operation} ${p.name}`).toContain(s.default)
      if (s.type === "integer") {
        expect(Number.isInteger(s.default)).toBe(true)
        expect(s.default).toBeGreaterThanOrEqual(s.minimum)
        expect(s.default).toBeLessThanOrEqual(s.maximum)
      }
    }
  })
})

describe("the server accepts what the document declares, and refuses past it", () => {
  const series = fixtureA().funds[0]!.series[0]!
  /** A route of each path with its required parameters filled (its answer may be 404 or 503; a 422 would be the query's). */
  const target = (p: QueryParameter) => {
    const path = p.path
      .replace("{asset_id}", String(series.assetId))
      .replace("{family_rar}", "accionario-eeuu")
      .replace("{run}", String(series.run))
      .replace("{instrument_id}", "5b0a3c9e-1f2d-5e6f-8a9b-0c1d2e3f4a5b")
    const required: Record<string, ReadonlyArray<string>> = {
      "/api/agf_stats/evolution": ["administrator=Alfa%20AGF%20S.A."],
      "/api/compare": [`series=${series.assetId}`],
      "/api/changes": [`from_batch=${fx.snapshot.finished.file.replace(/\.sqlite$/, "")}`],
      "/api/market/flows": ["level=series", `id=${series.assetId}`],
      // exactly one of instrument, isin and issuer_rut
      "/api/holders": p.name === "isin" || p.name === "issuer_rut" ? [] : ["instrument=NOBODYHOLDSTHIS"],
    }
    // the parameter under test is not given twice
    const filled = (required[p.path] ?? []).filter((pair) => !pair.startsWith(`${p.name}=`))
    return (query: string) => `${path}?${[...filled, query].join("&")}`
  }
  /** The data routes (the account routes' query parameters are strings, and they answer redirects). */
  const keyed = () => queryParameters().filter((p) => p.method === "get" && !p.path.startsWith("/api/auth"))
  // the rules between parameters: a window sort needs a currency, a spheres sort its family and investor type
  const companions: Record<string, string> = {
    "/api/screener sort": "currency=PESOS&cmf_family=x&cmf_investor_type=y",
  }

  const status = async (path: string) => {
    const res = await get(`${server.url}${path}`, { "x-api-key": key.key })
    return { status: res.status, body: res.body as Json }
  }

  it("each enum value and each boolean is accepted", async () => {
    const checked: string[] = []
    for (const p of keyed()) {
      const values: unknown[] = p.schema.type === "boolean" ? [true, false] : (p.schema.enum ?? [])
      for (const value of values) {
        const companion = companions[`${p.path} ${p.name}`]
        const query = [`${p.name}=${encodeURIComponent(String(value))}`, companion].filter((q) => q !== undefined).join("&")
        const r = await status(target(p)(query))
        expect(r.status, `${p.path}?${query}: ${JSON.stringify(r.body)}`).not.toBe(422)
        checked.push(`${p.name}=${value}`)
      }
    }
    expect(checked.length).toBeGreaterThan(100)
  })

  it("each integer is accepted at its bounds and refused one past them, naming the parameter", async () => {
    const ints = keyed().filter((p) => p.schema.type === "integer")
    expect(ints.map((p) => `${p.path} ${p.name}`)).toHaveLength(15)
    for (const p of ints) {
      for (const bound of [p.schema.minimum, p.schema.maximum]) {
        const r = await status(target(p)(`${p.name}=${bound}`))
        expect(r.status, `${p.path} ${p.name}=${bound}: ${JSON.stringify(r.body)}`).not.toBe(422)
      }
      for (const past of [p.schema.minimum - 1, p.schema.maximum + 1]) {
        if (past < 0) continue // "-1" is not decimal digits: refused too, as text
        const r = await status(target(p)(`${p.name}=${past}`))
        expect(r.status, `${p.path} ${p.name}=${past}`).toBe(422)
        expect(r.body.parameter).toBe(p.name)
      }
    }
  })
})
