/**
 * Per-request work that depends only on a text (the request target, the validator's inputs) and
 * repeats across requests: computed once per distinct text and kept in a bounded map (the oldest
 * entry out when full). Values must be treated as read-only by every caller. A text that may
 * carry a secret is never kept (see mayHoldSecret in Secrets.ts): it is worked out each time.
 */
import { mayHoldSecret } from "./Secrets.ts"

/** A request target up to its `?` (its path, and what follows a `;`, which the router reads as a query). */
export const beforeQuery = (target: string): string => {
  const query = target.indexOf("?")
  return query < 0 ? target : target.slice(0, query)
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
