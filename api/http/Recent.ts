/**
 * Per-request work that depends only on a text (the request target, the validator's inputs) and
 * repeats across requests: computed once per distinct text and kept in a bounded map (the oldest
 * entry out when full). Values must be treated as read-only by every caller. A text that may
 * carry a secret is never kept (see mayHoldSecret): it is worked out each time.
 */
import { KEY_PREFIX } from "../accounts/ApiKey.ts"

/**
 * Query names that carry secrets here: keys (refused, but sent), sign-in codes and states,
 * one-time tokens. The access log redacts their values; targets holding them are never kept.
 */
export const SECRET_QUERY_NAMES: ReadonlyArray<string> = ["api_key", "apikey", "key", "x-api-key", "token", "access_token", "code", "state"]
// `;` too: the router reads what follows a `;` in the path as the query
const SECRET_QUERY = new RegExp(`[?&;](?:${SECRET_QUERY_NAMES.join("|")})=`, "i")

/** A request target up to its `?` (its path, and what follows a `;`, which the router reads as a query). */
export const beforeQuery = (target: string): string => {
  const query = target.indexOf("?")
  return query < 0 ? target : target.slice(0, query)
}

/** `text` percent-decoded, as the router and URLSearchParams read it (an escape that does not decode stays as it is). */
export const decodedLoosely = (text: string): string => {
  if (!text.includes("%")) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text.replace(/%[0-9a-f]{2}/giu, (sequence) => {
      try {
        return decodeURIComponent(sequence)
      } catch {
        return sequence
      }
    })
  }
}

/** True when a request target (or a text holding one) may carry a secret, spelled plainly or percent-encoded. */
export const mayHoldSecret = (text: string): boolean => {
  const decoded = decodedLoosely(text)
  return SECRET_QUERY.test(decoded) || decoded.includes(KEY_PREFIX)
}

export const recent = <A>(limit: number, compute: (text: string) => A): ((text: string) => A) => {
  const kept = new Map<string, A>()
  return (text) => {
    const hit = kept.get(text)
    if (hit !== undefined || kept.has(text)) return hit as A
    const value = compute(text)
    if (mayHoldSecret(text)) return value
    if (kept.size >= limit) kept.delete(kept.keys().next().value!)
    kept.set(text, value)
    return value
  }
}

/** The request target (path and query) parsed: several middlewares read it on every request. */
export const requestUrl: (target: string) => URL = recent(256, (target) =>
  // a path is appended to the origin, not resolved against it: `//api/x` would be host `api`
  target.startsWith("/") ? new URL(`http://localhost${target}`) : new URL(target, "http://localhost"),
)
