/**
 * `meta.batch_id` written into a market answer that was rendered as JSON text without it: the
 * answers the pipeline stores in the snapshot (market_ready: all-funds, the market summary),
 * which cannot name their batch since the batch id is a hash of that very content, and the
 * answers the rendering thread makes with the same renderers. The id goes first in the answer's
 * top-level `meta` object, which these answers hold either first (`{"meta":{…` , the market
 * summary) or last (`…],"meta":{…}}`, all-funds); no key inside their rows or meta is `meta`.
 */

const META_FIRST = '{"meta":{'
const META_LAST = ',"meta":{'

/** `json` with `"batch_id":"<batchId>"` as the first field of its top-level meta; a defect when it has none. */
export const stampBatchId = (json: string, batchId: string): string => {
  const at = json.startsWith(META_FIRST) ? META_FIRST.length : json.lastIndexOf(META_LAST) + META_LAST.length
  if (at < META_LAST.length) throw new Error("an answer without a top-level meta object cannot name its batch")
  const field = `"batch_id":${JSON.stringify(batchId)}`
  return `${json.slice(0, at)}${json[at] === "}" ? field : `${field},`}${json.slice(at)}`
}

const stamped = new WeakMap<Uint8Array, Uint8Array>()

/**
 * The stored answer `json` (UTF-8) stamped with `batchId`, made once per stored answer (kept while
 * the snapshot's memo keeps `json`): the same bytes object each time, so its compressed copies are
 * made once too (api/http/Caching.ts).
 */
export const stampedBytes = (json: Uint8Array, batchId: string): Uint8Array => {
  let out = stamped.get(json)
  if (out === undefined) {
    out = Buffer.from(stampBatchId(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString("utf8"), batchId), "utf8")
    stamped.set(json, out)
  }
  return out
}
