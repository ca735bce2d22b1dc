/**
 * OpenAPI metadata added after generation (composed after `documentQuotaHeaders` in api/Api.ts):
 *   - `info.contact`, and an SPDX `LicenseRef-` identifier for a licence given by name only;
 *   - the area tags under the contract's names ("Fund Returns", "Investment Funds"), with
 *     descriptions, also on the operations;
 *   - what api/http/ adds to data answers: ETag, Cache-Control, Vary, Content-Encoding,
 *     X-Request-Id and Batch-Id headers and the 304 answer to If-None-Match (not listed as a
 *     parameter: it is a standard conditional header, and the parameter lists are the spec's);
 *     the Link header on the 200 of each paged list (a body with `links`, schemas/Paging.ts).
 *   - `instance` of every error body, required: api/http/ServerErrors.ts adds it to each error
 *     answer on its way out (the schemas' own encoding, which knows no request id, leaves it out).
 */
import { isCacheableDataRequest } from "./Caching.ts"

/** Our tag names → the contract's tag names. */
export const TAG_RENAMES: Readonly<Record<string, string>> = {
  Returns: "Fund Returns",
  "Investment funds and ETFs": "Investment Funds",
}

export const CONTACT = {
  name: "Fund Data Service operator (keys at /register; institutional quotas on request)",
} as const

const HTTP_HEADERS = {
  ETag: {
    description:
      "Strong validator of the answer: the content hash of the batch that answered, path and query (a suffix per content coding); for /api/batches, a hash of the answer",
    schema: { type: "string" },
  },
  "Cache-Control": {
    description:
      "`private, max-age=<seconds until the next expected batch>` (data routes); `private, max-age=31536000, immutable` when the request names its batch (`?batch=`); `private, no-cache` for /api/batches",
    schema: { type: "string" },
  },
  Vary: { description: "X-Api-Key, Authorization, Accept-Encoding", schema: { type: "string" } },
  "Batch-Id": {
    description:
      "The batch this answer was read from (<batch date>-<16 hex digits of its content hash>): the one `?batch=` names, else the batch served now; " +
      "the same as the body's `meta.batch_id` where it has a meta. /api/changes: its to_batch; downloads: the path's batch",
    schema: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}-[0-9a-f]{16}$", examples: ["2026-11-20-0123456789abcdef"] },
  },
  Link: {
    description:
      'RFC 8288 links of a paged list, the same as the body\'s `links`: `<url>; rel="next"`, `<url>; rel="prev"`, `<url>; rel="self"` ' +
      "(those that exist). Root-relative URLs carrying every query parameter of the request and the batch the page was read from",
    schema: { type: "string" },
  },
  "X-Request-Id": {
    description: "The request's id: the incoming X-Request-Id when sane (1–128 of [A-Za-z0-9._:-]), else a UUID",
    schema: { type: "string" },
  },
} as const

/** Whether the 200 answer of `operation` is a paged list: its body has `links` (schemas/Paging.ts). */
// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
const isPagedList = (spec: Record<string, any>, operation: Record<string, any>): boolean => {
  let schema = operation.responses?.["200"]?.content?.["application/json"]?.schema
  const ref = typeof schema?.$ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref) : null
  if (ref !== null) schema = spec.components?.schemas?.[ref[1]!]
  return schema?.properties?.links !== undefined
}

/** Data routes read from the ledger, not from one batch: no Batch-Id. */
const LEDGER_PATHS = new Set(["/api/batches", "/api/batches/{batch_id}"])

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

const CANONICAL_HEADERS: Readonly<Record<string, string>> = {
  "x-ratelimit-limit": "X-RateLimit-Limit",
  "x-ratelimit-remaining": "X-RateLimit-Remaining",
  "x-ratelimit-reset": "X-RateLimit-Reset",
  "retry-after": "Retry-After",
  "www-authenticate": "WWW-Authenticate",
  "cache-control": "Cache-Control",
  "content-range": "Content-Range",
}

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
export const documentHttp = (spec: Record<string, any>): Record<string, any> => {
  spec.info = { ...spec.info, contact: CONTACT }
  const license = spec.info.license
  if (license !== undefined && license.url === undefined && license.identifier === undefined) {
    // 3.1 validators want an SPDX identifier or a URL; a proprietary licence is a LicenseRef.
    spec.info.license = { ...license, identifier: `LicenseRef-${String(license.name).replace(/[^A-Za-z0-9.-]/g, "-")}` }
  }
  spec.tags = (spec.tags ?? []).map((tag: { name: string }) => ({ ...tag, name: TAG_RENAMES[tag.name] ?? tag.name }))
  spec.components ??= {}
  spec.components.headers = { ...spec.components.headers, ...HTTP_HEADERS }
  for (const schema of Object.values(spec.components.schemas ?? {})) {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const s = schema as Record<string, any>
    if (s.properties?.instance === undefined || s.properties?.detail === undefined || !Array.isArray(s.required)) continue
    if (!s.required.includes("instance")) s.required.splice(s.required.indexOf("detail") + 1, 0, "instance")
  }
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const ops = item as Record<string, any>
    for (const method of METHODS) {
      const operation = ops[method]
      if (operation === undefined) continue
      if (Array.isArray(operation.tags)) {
        operation.tags = operation.tags.map((t: string) => TAG_RENAMES[t] ?? t)
      }
      for (const response of Object.values(operation.responses ?? {})) {
        // biome-ignore lint/suspicious/noExplicitAny: see above
        const r = response as Record<string, any>
        // Error schemas name their headers as Node reads them (lower case); the document spells
        // every header one way, as the 200 answers and the spec do.
        const headers = Object.entries(r.headers ?? {}).map(([name, h]) => [CANONICAL_HEADERS[name] ?? name, h])
        r.headers = { "X-Request-Id": ref("X-Request-Id"), ...Object.fromEntries(headers) }
      }
      const template = path.replace(/\{[^}]+\}/g, "x")
      if (!isCacheableDataRequest(method.toUpperCase(), template)) continue
      const ok = operation.responses?.["200"]
      const batchId = LEDGER_PATHS.has(path) ? {} : { "Batch-Id": ref("Batch-Id") }
      if (ok !== undefined) {
        const link = isPagedList(spec, operation) ? { Link: ref("Link") } : {}
        ok.headers = { ...ok.headers, ETag: ref("ETag"), "Cache-Control": ref("Cache-Control"), Vary: ref("Vary"), ...batchId, ...link }
      }
      const partial = operation.responses?.["206"]
      if (partial !== undefined) partial.headers = { ...partial.headers, ...batchId }
      operation.responses = {
        ...operation.responses,
        "304": {
          description:
            "Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present)",
          headers: {
            ETag: ref("ETag"),
            "Cache-Control": ref("Cache-Control"),
            "X-Request-Id": ref("X-Request-Id"),
            ...batchId,
            ...(ok?.headers?.["X-RateLimit-Limit"] === undefined
              ? {}
              : {
                  "X-RateLimit-Limit": ok.headers["X-RateLimit-Limit"],
                  "X-RateLimit-Remaining": ok.headers["X-RateLimit-Remaining"],
                  "X-RateLimit-Reset": ok.headers["X-RateLimit-Reset"],
                }),
          },
        },
      }
    }
  }
  return spec
}
