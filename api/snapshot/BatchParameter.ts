/**
 * OpenAPI transform: `batch` as a query parameter of every operation that declares PinSnapshot
 * (every data route), where the middleware reads it (Pinned.ts). The routes' query schemas do not
 * carry it: they ignore keys they do not name, and one declaration here covers every route. Its
 * 404, 410 and 422 come with PinSnapshot's declared errors.
 */
import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { BATCH_ID_RULE } from "../../schemas/Batches.ts"
import { BATCH_PARAMETER, PinSnapshot } from "./Pinned.ts"

export const BATCH_QUERY_PARAMETER = {
  name: BATCH_PARAMETER,
  in: "query",
  required: false,
  description:
    "Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; " +
    "strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. " +
    `Expected: ${BATCH_ID_RULE}. Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422.`,
  schema: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}-[0-9a-f]{16}$", examples: ["2026-11-20-0123456789abcdef"] },
} as const

/** The operations (`get /api/x/{id}`) whose endpoint declares PinSnapshot. */
const pinnedOperations = <Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<string, Groups>): ReadonlySet<string> => {
  const out = new Set<string>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      if ([...middleware].some((m) => m.key === PinSnapshot.key)) out.add(`${endpoint.method.toLowerCase()} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`)
    },
  })
  return out
}

export const documentBatchParameter = <Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<string, Groups>,
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
  spec: Record<string, any>,
  // biome-ignore lint/suspicious/noExplicitAny: see above
): Record<string, any> => {
  const pinned = pinnedOperations(api)
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    for (const [method, operation] of Object.entries(item as Record<string, any>)) {
      if (!pinned.has(`${method} ${path}`)) continue
      const parameters = (operation.parameters ?? []) as Array<{ name: string; in: string }>
      if (parameters.some((p) => p.in === "query" && p.name === BATCH_PARAMETER)) {
        throw new Error(`${method} ${path}: its query declares ${BATCH_PARAMETER}, which PinSnapshot reads`)
      }
      operation.parameters = [...parameters, structuredClone(BATCH_QUERY_PARAMETER)]
    }
  }
  return spec
}
