/**
 * The /api/real_assets/* operations in /openapi.json describe their FI/ETF answers too: the fields
 * an FI/ETF id adds (schemas/FiRealAssets.ts) are declared, optional and documented as FI/ETF-only,
 * and real answers of the FI fixture (FI and FM ids, every route, accounting and converted
 * returns) fit their operation's response schema: no undeclared key anywhere, $refs followed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFiFixture } from "../fi/fiFixture.ts"
import { testInstrumentId, testSerieId } from "../fi/fiIds.ts"
import { ALL_ON, startWithFlags } from "../returns/fixture.ts"
import { descriptionOf, type Json, mismatches, objectsAt, okSchema } from "../support/openApiSchema.ts"
import { createKey, get, type RunningServer } from "../support/server.ts"

const A = testSerieId(9251, "A")
const COP = testSerieId(7010, "UNICA")
const ETF = testSerieId(7003, "UNICA")
const INSTRUMENT = testInstrumentId(9251)

/** Per operation: where the FI/ETF fields sit in its 200 schema, and which they are. */
const FI_FIELDS: ReadonlyArray<readonly [route: string, at: ReadonlyArray<string>, fields: ReadonlyArray<string>]> = [
  ["days", ["data", "attributes"], ["currency", "price_source", "price_basis"]],
  ["days", ["meta"], ["serie_id"]],
  ["returns", ["data", "attributes"], ["price_source", "price_basis", "accounting_currency"]],
  ["risk_metrics", ["data", "attributes"], ["price_basis"]],
  ["expense_ratio", ["data", "attributes"], ["tac_status", "source"]],
]

/** Real answers checked against their operation: [operation route, request]. */
const ANSWERS: ReadonlyArray<readonly [route: string, request: string]> = [
  ...["days", "returns", "risk_metrics", "expense_ratio", "expense_ratio/history"].flatMap((route) =>
    [A, ETF, COP, INSTRUMENT].map((id) => [route, `${id}/${route}`] as const),
  ),
  ["returns", `${A}/returns?valuation=clp`],
  ["returns", `${A}/returns?valuation=real_uf`],
  ["returns", `${COP}/returns?valuation=real_uf`],
  ["returns", `${A}/returns?as_of_date=2026-02-05`],
]

describe("OpenAPI of /api/real_assets/* for FI/ETF ids", () => {
  const fx = makeFiFixture()
  let server: RunningServer
  let key: string
  let doc: Json
  let fm: string
  beforeAll(async () => {
    key = (await createKey(fx.dataDir, { email: "fi-contract@example.cl" })).key
    server = await startWithFlags(fx.dataDir, ALL_ON)
    doc = (await get(`${server.url}/openapi.json`)).body
    fm = (await call("/api/all-funds")).body.data[0].serieId
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })
  const call = async (path: string) => {
    const res = await get(server.url + path, { "x-api-key": key })
    expect(res.status, `${path}: ${res.text}`).toBe(200)
    return res as typeof res & { body: Json }
  }
  const schemaOf = (route: string) => okSchema(doc, `/api/real_assets/{asset_id}/${route}`)

  it.each(FI_FIELDS)("/%s declares at %j the optional FI/ETF fields %j, described as FI/ETF-only", (route, at, fields) => {
    const objects = objectsAt(doc, schemaOf(route), at).filter((o) => o.type === "object")
    // /returns: the accounting and converted answers carry them; the total answer (FM only) does not.
    const carriers = objects.filter((o) => fields.every((f) => f in (o.properties ?? {})))
    expect(carriers.length, `${route} ${at.join(".")}`).toBe(route === "returns" ? 2 : 1)
    for (const o of carriers) {
      for (const f of fields) {
        expect(o.required ?? [], `${f} is optional`).not.toContain(f)
        expect(descriptionOf(o.properties[f]), `description of ${f}`).toMatch(/FI\/ETF ids \(UUID asset_id\) only/)
      }
    }
  })

  it("/returns declares quota_source cmf_valor_libro for price answers, CMF only for total ones", () => {
    const sources = objectsAt(doc, schemaOf("returns"), ["data", "attributes"]).map((o) => o.properties.quota_source.enum)
    expect(sources).toEqual([
      ["CMF", "market_close", "cmf_valor_libro"],
      ["CMF", "market_close", "cmf_valor_libro"],
      ["CMF"],
    ])
  })

  it.each(ANSWERS)("an FI answer of /%s fits its schema: %s", async (route, request) => {
    const body = (await call(`/api/real_assets/${request}`)).body
    expect(mismatches(doc, schemaOf(route), body)).toEqual([])
  })

  it("the FI fields are really there, and FM answers of the same operations fit without them", async () => {
    const day = (await call(`/api/real_assets/${A}/days`)).body
    expect(Object.keys(day.data[0].attributes)).toEqual(expect.arrayContaining(["currency", "price_source", "price_basis"]))
    expect(Object.keys(day.meta)).toContain("serie_id")
    const returns = (await call(`/api/real_assets/${A}/returns`)).body.data.attributes
    expect(Object.keys(returns)).toEqual(expect.arrayContaining(["price_source", "price_basis", "accounting_currency"]))
    expect((await call(`/api/real_assets/${A}/risk_metrics`)).body.data.attributes.price_basis).toBe("valor_libro")
    expect(Object.keys((await call(`/api/real_assets/${A}/expense_ratio`)).body.data.attributes)).toEqual(
      expect.arrayContaining(["tac_status", "source"]),
    )
    for (const route of ["days", "returns", "returns?return_basis=total", "risk_metrics", "expense_ratio", "expense_ratio/history"]) {
      const body = (await call(`/api/real_assets/${fm}/${route}`)).body
      expect(mismatches(doc, schemaOf(route.replace(/\?.*/u, "")), body), route).toEqual([])
      expect(JSON.stringify(body), route).not.toMatch(/"(price_source|price_basis|accounting_currency|tac_status|serie_id)"/u)
    }
  })

  it("the check is not vacuous: an undeclared key, a missing one or a value outside the enum is reported", async () => {
    const body = (await call(`/api/real_assets/${A}/expense_ratio`)).body
    const attributes = body.data.attributes
    const { month: _, ...withoutMonth } = attributes
    const variant = (a: Json) => mismatches(doc, schemaOf("expense_ratio"), { data: { ...body.data, attributes: a } })
    expect(variant({ ...attributes, extra: 1 })).toEqual(["$.data.attributes.extra: not declared"])
    expect(variant(withoutMonth)).toEqual(["$.data.attributes.month: required, missing"])
    expect(variant({ ...attributes, tac_status: "guessed" })).toEqual(['$.data.attributes.tac_status: "guessed" not in enum'])
  })
})
