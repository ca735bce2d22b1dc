/**
 * Reading a served /openapi.json in tests: resolve `$ref`s, reach a property through nested
 * schemas, and check a real answer against an operation's response schema — every key of every
 * object declared (the structs are `additionalProperties: false`), every required key present,
 * every JSON type and enum respected. anyOf/oneOf: one branch must fit; allOf: all must.
 */

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is plain JSON
export type Json = any

/** The schema a `$ref` (or a chain of them) points to; other schemas as they are. */
export const resolve = (doc: Json, schema: Json): Json => {
  let s = schema
  while (s?.$ref !== undefined) s = doc.components.schemas[String(s.$ref).replace("#/components/schemas/", "")]
  return s
}

/** The JSON Schema type name of a JSON value. */
const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v

/** What in `value` the schema does not describe, as "path: problem" lines; empty when it fits. */
export const mismatches = (doc: Json, schema: Json, value: unknown, path = "$"): string[] => {
  const s = resolve(doc, schema)
  if (s === undefined) return [`${path}: no schema`]
  const branches = s.anyOf ?? s.oneOf
  if (branches !== undefined) {
    const results = (branches as Json[]).map((b) => mismatches(doc, b, value, path))
    const fits = results.find((r) => r.length === 0)
    if (fits === undefined) return results.reduce((a, b) => (b.length < a.length ? b : a))
  }
  const all = ((s.allOf ?? []) as Json[]).flatMap((b) => mismatches(doc, b, value, path))
  if (s.enum !== undefined && !(s.enum as unknown[]).includes(value)) return [...all, `${path}: ${JSON.stringify(value)} not in enum`]
  const type = s.type as string | undefined
  const actual = typeOf(value)
  if (type !== undefined && type !== actual && !(type === "number" && actual === "integer")) {
    return [...all, `${path}: ${actual}, declared ${type}`]
  }
  if (actual === "array") {
    const items = (value as unknown[]).flatMap((v, i) => {
      const item = s.prefixItems?.[i] ?? s.items
      return item === undefined ? [`${path}[${i}]: no item schema`] : mismatches(doc, item, v, `${path}[${i}]`)
    })
    return [...all, ...items]
  }
  if (actual === "object" && (s.properties !== undefined || s.type === "object")) {
    const o = value as Record<string, unknown>
    const props = (s.properties ?? {}) as Record<string, Json>
    const missing = ((s.required ?? []) as string[]).filter((k) => !(k in o)).map((k) => `${path}.${k}: required, missing`)
    const keys = Object.entries(o).flatMap(([k, v]) => {
      if (k in props) return mismatches(doc, props[k], v, `${path}.${k}`)
      if (typeof s.additionalProperties === "object") return mismatches(doc, s.additionalProperties, v, `${path}.${k}`)
      return s.additionalProperties === true ? [] : [`${path}.${k}: not declared`]
    })
    return [...all, ...missing, ...keys]
  }
  return all
}

/** The 200 answer's schema of an operation. */
export const okSchema = (doc: Json, path: string, method = "get"): Json =>
  doc.paths[path][method].responses["200"].content["application/json"].schema

/** The object schemas reached from `schema` by the property names in `at` (anyOf branches kept apart). */
export const objectsAt = (doc: Json, schema: Json, at: ReadonlyArray<string>): Json[] => {
  const s = resolve(doc, schema)
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (branches !== undefined) return branches.flatMap((b) => objectsAt(doc, b, at))
  if (s.type === "array") return objectsAt(doc, s.items, at)
  if (at.length === 0) return [s]
  const next = s.properties?.[at[0]!]
  return next === undefined ? [] : objectsAt(doc, next, at.slice(1))
}

/** A property's description, whether on the property or (beside a `$ref`) in its allOf. */
export const descriptionOf = (property: Json): string | undefined =>
  property.description ?? (property.allOf as Json[] | undefined)?.find((p) => p.description !== undefined)?.description
