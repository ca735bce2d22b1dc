/**
 * Per-request work that depends only on a text (the request target, a key header, the validator's
 * inputs) and repeats across requests: computed once per distinct text and kept in a bounded map
 * (the oldest entry out when full). Values must be treated as read-only by every caller.
 */
export const recent = <A>(limit: number, compute: (text: string) => A): ((text: string) => A) => {
  const kept = new Map<string, A>()
  return (text) => {
    const hit = kept.get(text)
    if (hit !== undefined || kept.has(text)) return hit as A
    const value = compute(text)
    if (kept.size >= limit) kept.delete(kept.keys().next().value!)
    kept.set(text, value)
    return value
  }
}

/** The request target (path and query) parsed: several middlewares read it on every request. */
export const requestUrl: (target: string) => URL = recent(256, (target) => new URL(target, "http://localhost"))
