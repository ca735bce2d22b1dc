/**
 * OpenAPI transform: every query parameter is documented by the value its schema decodes to,
 * not by the text it travels as. effect documents query parameters by their string codec, so an
 * integer would read `type: string`; a generated client would then take `limit?: string`. Here a
 * parameter whose decoded value is a scalar (an integer with its bounds, a boolean, a word of a
 * closed list as `enum`, a date as text) gets that schema, with its `default` when absence means
 * a value (schemas/QueryParams.ts). A value decoded from a text format into a structure (the
 * comma-separated id list of /api/compare) keeps the text schema: that is what is sent. A closed
 * list that also takes aliases (`currency`: CLP for PESOS, USD for DOLAR) lists them in its `enum`
 * too (schemas/QueryParams.ts ACCEPTED_SPELLINGS): the enum is what a client may send. Each
 * query parameter also carries its schema's description itself, where generators look for it.
 */
import { Schema, SchemaAST } from "effect"
import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { ACCEPTED_SPELLINGS } from "../../schemas/QueryParams.ts"

const SCALARS = new Set(["integer", "number", "boolean", "string"])

type JsonSchema = Record<string, unknown>

/** The decoded-side JSON Schema of each query field, by operation (`get /api/x/{id}`). */
const decodedQueries = <Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<string, Groups>): ReadonlyMap<string, Readonly<Record<string, JsonSchema>>> => {
  const out = new Map<string, Record<string, JsonSchema>>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (endpoint.query === undefined) return
      const document = Schema.toJsonSchemaDocument(Schema.toType(endpoint.query))
      if (Object.keys(document.definitions).length > 0) {
        // a named schema would need its own component; query values are plain scalars
        throw new Error(`query of ${endpoint.path}: named schemas in a query are not documented (${Object.keys(document.definitions)})`)
      }
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
      const fields = { ...(document.schema.properties ?? {}) } as Record<string, JsonSchema>
      const decoded = SchemaAST.toType(endpoint.query.ast)
      for (const p of SchemaAST.isObjects(decoded) ? decoded.propertySignatures : []) {
        const spellings = p.type.annotations?.[ACCEPTED_SPELLINGS]
        const field = fields[String(p.name)]
        if (Array.isArray(spellings) && field !== undefined) fields[String(p.name)] = { ...field, enum: spellings }
      }
      out.set(`${endpoint.method.toLowerCase()} ${path}`, fields)
    },
  })
  return out
}

export const documentQueryTypes = <Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<string, Groups>,
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
  spec: Record<string, any>,
  // biome-ignore lint/suspicious/noExplicitAny: see above
): Record<string, any> => {
  const decoded = decodedQueries(api)
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    for (const [method, operation] of Object.entries(item as Record<string, any>)) {
      const fields = decoded.get(`${method} ${path}`)
      if (fields === undefined) continue
      for (const parameter of operation.parameters ?? []) {
        const schema = parameter.in === "query" ? fields[parameter.name] : undefined
        if (schema !== undefined && SCALARS.has(String(schema.type))) parameter.schema = schema
        // generators document a parameter by its own description (openapi-typescript's JSDoc)
        if (parameter.in === "query" && parameter.description === undefined && typeof parameter.schema?.description === "string") {
          parameter.description = parameter.schema.description
        }
      }
    }
  }
  return spec
}
