/**
 * Strict query strings: a data route refuses a query parameter it does not declare, with the 422
 * of every invalid parameter (schemas/ApiErrors.ts) naming it and listing the ones it accepts.
 * A misspelt filter (`?curency=USD`) or an unsupported bound (`?to_date=` where there is none)
 * silently ignored answers 200 with data the client did not ask for.
 *
 * What an endpoint accepts comes from its definition: the fields of its query schema, and `batch`
 * where it declares PinSnapshot (which reads it; api/snapshot/BatchParameter.ts documents it).
 * The key middleware runs the check right after the key (api/security/SecurityLive.ts), so a
 * request without a key still gets its 401, and the refusal counts and carries the quota headers
 * like any other 422. Account routes are not keyed and stay lenient: an OpenID provider adds its
 * own parameters (`scope`, `authuser`, …) to the callback it redirects to.
 */
import { Effect, Option, type Schema, SchemaAST } from "effect"
import { HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { BATCH_PARAMETER, PinSnapshot } from "../snapshot/Pinned.ts"

/** The field names of a query schema (a Struct, or a Struct with checks or defaults). */
const queryFields = (query: Schema.Top | undefined): ReadonlyArray<string> => {
  const ast = query === undefined ? undefined : SchemaAST.toEncoded(query.ast)
  if (ast === undefined || !SchemaAST.isObjects(ast)) return []
  return ast.propertySignatures.map((p) => String(p.name))
}

const accepted = new WeakMap<HttpApiEndpoint.Top, ReadonlyArray<string>>()

/** The query parameters `endpoint` accepts, in the order of its definition (`batch` last). */
export const acceptedQueryParameters = (endpoint: HttpApiEndpoint.Top): ReadonlyArray<string> => {
  let names = accepted.get(endpoint)
  if (names === undefined) {
    const pinned = [...endpoint.middlewares].some((m) => m.key === PinSnapshot.key)
    names = [...queryFields(endpoint.query), ...(pinned ? [BATCH_PARAMETER] : [])]
    accepted.set(endpoint, names)
  }
  return names
}

const acceptedText = (names: ReadonlyArray<string>): string => (names.length === 0 ? "none" : names.join(", "))

/** The 422 for the query parameters of `given` that `endpoint` does not declare; undefined when there are none. */
export const unknownQueryParameters = (
  endpoint: HttpApiEndpoint.Top,
  given: Iterable<string>,
): InvalidParameter | undefined => {
  const names = acceptedQueryParameters(endpoint)
  const unknown = [...given].filter((name) => !names.includes(name))
  if (unknown.length === 0) return undefined
  // the answer stays small whatever the query: the first few names, each cut short (a query of
  // thousands of names answered a 1.2 MB body)
  const shown = unknown.slice(0, SHOWN_NAMES).map(cut)
  const more = unknown.length > SHOWN_NAMES ? ` and ${unknown.length - SHOWN_NAMES} more` : ""
  const list = acceptedText(names)
  return new InvalidParameter({
    parameter: shown[0]!,
    message:
      `unknown query parameter ${shown.join(", ")}${more}: ${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")} ` +
      `accepts ${list}`,
    issues: shown.map((name) => ({ path: [name], message: `not a parameter of this route; accepted: ${list}` })),
  })
}

/** How many unknown names a refusal lists, and how long each may be. */
const SHOWN_NAMES = 5
const NAME_CHARS = 64
const cut = (name: string): string => (name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name)

/** Fails with the 422 when the request's query names a parameter `endpoint` does not declare. */
export const refuseUnknownQuery = (endpoint: HttpApiEndpoint.Top) =>
  Effect.flatMap(Effect.serviceOption(HttpServerRequest.ParsedSearchParams), (query) => {
    const refusal = Option.isSome(query) ? unknownQueryParameters(endpoint, Object.keys(query.value)) : undefined
    return refusal === undefined ? Effect.void : Effect.fail(refusal)
  })
