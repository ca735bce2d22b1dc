/**
 * OpenAPI transform, the last one (api/Api.ts): what a generator needs of the document as a whole.
 *   - `servers`: the origin that serves the document (a relative URL, as OpenAPI 3.1 allows), so a
 *     generated client resolves the paths without a base URL written in;
 *   - every operation has a `description`: its own where the route gives one, else its summary
 *     followed by what the document knows of it: whether it needs a key, and the query parameters
 *     it takes (a keyed route refuses any other with 422, api/http/StrictQuery.ts).
 */

export const SERVERS = [
  { url: "/", description: "This service: paths are relative to the origin that serves this document" },
] as const

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`)

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
const describe = (operation: Record<string, any>): string => {
  const keyed = Array.isArray(operation.security) && operation.security.some((s: object) => "apiKey" in s)
  const query = ((operation.parameters ?? []) as Array<{ name: string; in: string }>).filter((p) => p.in === "query").map((p) => p.name)
  const parts = [sentence(String(operation.summary ?? `${operation.operationId}`))]
  parts.push(keyed ? "Needs an API key (X-Api-Key header)." : "No API key.")
  const names = query.map((name) => `\`${name}\``).join(", ")
  if (keyed) {
    parts.push(
      query.length === 0
        ? "Takes no query parameter: one in the request is refused with 422 naming it."
        : `Query parameters: ${names}; any other is refused with 422 naming it.`,
    )
  } else if (query.length > 0) {
    parts.push(`Query parameters: ${names}.`)
  }
  return parts.join(" ")
}

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
export const documentOperations = (spec: Record<string, any>): Record<string, any> => {
  for (const item of Object.values(spec.paths ?? {})) {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const ops = item as Record<string, any>
    for (const method of METHODS) {
      const operation = ops[method]
      if (operation === undefined) continue
      if (typeof operation.description !== "string" || operation.description.trim() === "") operation.description = describe(operation)
    }
  }
  // after `info`, where readers look for it
  return { openapi: spec.openapi, info: spec.info, servers: SERVERS.map((server) => ({ ...server })), ...spec }
}
