/**
 * The contract: GET /openapi.json is a valid OpenAPI 3.1 document (@apidevtools/swagger-parser)
 * and holds every operation of the interface specification's endpoint tables (41 operations on
 * 39 paths), each with its parameters, a response schema, its error statuses and its security.
 * The list is written out from /work/shared/spec/interface-spec.md "Endpoints"; it is not read
 * from the document under test.
 */
import SwaggerParser from "@apidevtools/swagger-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { get, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { ALL_OPERATIONS, SPEC_OPERATIONS } from "./specOperations.ts"

/** Errors every keyed operation declares: bad input, no/invalid key, quota or rate, key check down. */
const KEYED_ERRORS = ["401", "422", "429", "503"]

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
type Json = any

describe("the OpenAPI contract", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let doc: Json

  beforeAll(async () => {
    server = await startServer({ dataDir: fx.dataDir })
    const res = await get(`${server.url}/openapi.json`)
    expect(res.status).toBe(200)
    doc = res.body
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
    const validated = (await SwaggerParser.validate(structuredClone(doc))) as Json
    expect(validated.info.title).toBe("Fund Data Service")
  })

  it("carries version 1.0.0, a contact and the area tags with descriptions", () => {
    expect(doc.info.version).toBe("1.0.0")
    expect(doc.info.contact).toBeTypeOf("object")
    const tags = new Map<string, string>((doc.tags as Array<Json>).map((t) => [t.name, t.description]))
    for (const name of ["Fund Returns", "Investment Funds"]) {
      expect(tags.has(name), `tag ${name}`).toBe(true)
      expect((tags.get(name) ?? "").length).toBeGreaterThan(0)
    }
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item as Record<string, Json>)) {
        expect((op.summary ?? "").length, `summary of ${method} ${path}`).toBeGreaterThan(0)
        for (const tag of op.tags ?? []) expect(tags.has(tag), `declared tag ${tag}`).toBe(true)
      }
    }
  })

  it("lists 41 operations on 39 paths in the spec table", () => {
    expect(SPEC_OPERATIONS).toHaveLength(41)
    expect(new Set(SPEC_OPERATIONS.map((o) => o.path)).size).toBe(39)
  })

  it("spells each response header one way, as the spec does (X-RateLimit-*, Retry-After)", () => {
    const names = new Set<string>()
    for (const item of Object.values(doc.paths as Record<string, Json>)) {
      for (const op of Object.values(item as Record<string, Json>)) {
        for (const response of Object.values((op.responses ?? {}) as Record<string, Json>)) {
          for (const name of Object.keys(response.headers ?? {})) names.add(name)
        }
      }
    }
    expect(names).toContain("X-RateLimit-Limit")
    expect(names).toContain("Retry-After")
    const folded = new Map<string, string[]>()
    for (const n of names) folded.set(n.toLowerCase(), [...(folded.get(n.toLowerCase()) ?? []), n])
    expect([...folded.values()].filter((spellings) => spellings.length > 1)).toEqual([])
  })

  it("declares the X-Api-Key header as the security scheme", () => {
    const schemes = doc.components.securitySchemes as Record<string, Json>
    expect(schemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Api-Key" })
  })

  for (const op of ALL_OPERATIONS) {
    it(`${op.method.toUpperCase()} ${op.path}: parameters, response schema, errors, security`, () => {
      const operation = doc.paths?.[op.path]?.[op.method] as Json
      expect(operation, `${op.method.toUpperCase()} ${op.path} is in /openapi.json`).toBeDefined()
      // parameters
      const declared = new Set<string>((operation.parameters ?? []).map((p: Json) => `${p.in}:${p.name}`))
      for (const p of op.params) expect(declared.has(p), `parameter ${p}`).toBe(true)
      for (const p of operation.parameters ?? []) {
        expect(p.schema ?? p.content, `schema of parameter ${p.name}`).toBeDefined()
        if (p.in === "path") expect(p.required).toBe(true)
      }
      if (op.body) {
        const schema = operation.requestBody?.content?.["application/json"]?.schema
        expect(schema, "JSON request body schema").toBeDefined()
      }
      // the success answer
      const responses = operation.responses as Record<string, Json>
      if (op.noContent === undefined) {
        const ok = Object.entries(responses).find(([s]) => /^2\d\d$/.test(s))
        expect(ok, "a 2xx answer").toBeDefined()
        const media = op.media ?? "application/json"
        expect(ok![1].content?.[media]?.schema, `a ${media} response schema`).toBeDefined()
      } else {
        expect(responses[op.noContent], `a ${op.noContent} answer`).toBeDefined()
      }
      // errors, each with a schema
      const errors = [...(op.security === "apiKey" ? KEYED_ERRORS : []), ...(op.errors ?? [])]
      for (const status of errors) {
        expect(responses[status], `error ${status}`).toBeDefined()
        expect(responses[status].content?.["application/problem+json"]?.schema, `problem schema of error ${status}`).toBeDefined()
      }
      // security
      if (op.security === "apiKey") {
        expect(operation.security).toEqual([{ apiKey: [] }])
      } else {
        expect(operation.security ?? [], "no key required").toEqual([])
      }
    })
  }
})
