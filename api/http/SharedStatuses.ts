/**
 * OpenAPI transform: a status an operation answers both as a success and as an error (GET /health's
 * 503: the Health body when it cannot serve keyed data requests, ServiceUnavailable while the
 * server is still starting). The generator writes the success bodies of a status, then the error
 * bodies of that status over them, so the success schema was missing from the response (and its
 * component unused, which Spectral and Redocly report). Here the response takes both: the success
 * bodies' components under application/json (`anyOf` when there are several), the error body as a
 * problem document under application/problem+json, its description naming them all.
 */
import { SchemaAST } from "effect"
import { HttpApi, type HttpApiGroup, HttpApiSchema } from "effect/http-api"

const JSON_TYPE = "application/json"

export const documentSharedStatuses = <Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<string, Groups>,
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
  spec: Record<string, any>,
  // biome-ignore lint/suspicious/noExplicitAny: see above
): Record<string, any> => {
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, successes, errors }) => {
      for (const [status, schemas] of successes) {
        if (!errors.has(status)) continue
        const where = `${endpoint.method} ${endpoint.path} ${status}`
        const response = spec.paths?.[endpoint.path.replace(/:(\w+)/g, "{$1}")]?.[endpoint.method.toLowerCase()]?.responses?.[String(status)]
        if (response === undefined) throw new Error(`${where}: no such response in the document`)
        const names = schemas.map((schema) => {
          const body = HttpApiSchema.isWithHeaders(schema) ? schema.schema : schema
          const name = SchemaAST.resolveIdentifier(body.ast)
          // a success body without a component would have to be written inline here: none is yet
          if (name === undefined || spec.components?.schemas?.[name] === undefined) {
            throw new Error(`${where}: the success body shares its status with an error and has no component (give it an identifier)`)
          }
          return name
        })
        // the error bodies are problem documents (application/problem+json), kept as they are; the
        // success bodies go under application/json, beside any error body written there
        const media = response.content?.[JSON_TYPE] ?? {}
        const errorSchemas = media.schema === undefined ? [] : Array.isArray(media.schema.anyOf) ? media.schema.anyOf : [media.schema]
        const all = [...names.map((name) => ({ $ref: `#/components/schemas/${name}` })), ...errorSchemas]
        response.content = { ...response.content, [JSON_TYPE]: { ...media, schema: all.length === 1 ? all[0] : { anyOf: all } } }
        response.description = [...names, response.description].filter((d) => typeof d === "string" && d !== "").join(" | ")
      }
    },
  })
  return spec
}
