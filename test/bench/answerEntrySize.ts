/**
 * What one answer-cache entry costs on the heap beyond the bytes AnswerCache counts as its own
 * (key, headers, body): N entries kept as a data route's answer is (a JSON response with the
 * headers a route sets, its key, its shelf's map and the recency order), each made ready to send
 * in identity and gzip as the caching middleware makes it on a hit (SendableAnswer), the heap
 * measured before and after with the collector run. The figure sets ENTRY_OVERHEAD_BYTES in
 * api/snapshot/AnswerCache.ts.
 *
 *   node --expose-gc test/bench/answerEntrySize.ts        # ANSWER_ENTRIES (20000)
 */
import { HttpServerResponse } from "effect/http"
import { AnswerCache, AnswerShelf, ENTRY_OVERHEAD_BYTES } from "../../api/snapshot/AnswerCache.ts"

const N = Number(process.env.ANSWER_ENTRIES ?? 20_000)
const BODY_BYTES = 64
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("run with node --expose-gc")

const heap = () => {
  for (let i = 0; i < 3; i++) gc()
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers
}

const cache = new AnswerCache(Number.MAX_SAFE_INTEGER)
const shelf = new AnswerShelf(cache)
const made: unknown[] = []
const before = heap()
let counted = 0
for (let i = 0; i < N; i++) {
  const body = new Uint8Array(BODY_BYTES).fill(i % 251)
  const response = HttpServerResponse.uint8Array(body, {
    status: 200,
    headers: { "x-content-type-options": "nosniff" },
    contentType: "application/json",
  })
  const key = `/api/real_assets/${1_000_000 + i}/days?from=2020-01-01\naccept: application/json`
  const answer = cache.put(shelf, key, response, { link: `</api/real_assets/${i}/days?page=2>; rel="next"` })!
  const headers = { vary: "X-Api-Key, Authorization, Accept-Encoding", etag: `"${"e".repeat(32)}"`, "batch-id": "2026-11-20-9b82ac534055c6e3" }
  answer.sendable.set("identity", { response: HttpServerResponse.setHeaders(answer.sent, headers), vary: headers.vary, etag: headers.etag, batchId: headers["batch-id"], cacheControl: undefined })
  const gz = HttpServerResponse.setHeader(
    HttpServerResponse.uint8Array(new Uint8Array(BODY_BYTES), { status: 200, headers: answer.sent.headers, contentType: "application/json" }),
    "content-encoding",
    "gzip",
  )
  answer.sendable.set("gzip", { response: HttpServerResponse.setHeaders(gz, { ...headers, etag: `"${"e".repeat(32)}-gzip"` }), vary: headers.vary, etag: headers.etag, batchId: headers["batch-id"], cacheControl: undefined })
  counted += answer.bytes + BODY_BYTES // the gzip copy as grew() counts it
  made.push(answer)
}
const after = heap()
const perEntry = (after - before) / N
// what AnswerCache counts of an entry besides its overhead estimate: key, headers, body, codings
const countedBeyondOverhead = counted / N - ENTRY_OVERHEAD_BYTES
console.log(
  `${N} entries: ${((after - before) / 1e6).toFixed(1)} MB of heap and array buffers, ${perEntry.toFixed(0)} bytes per entry, of which AnswerCache counts ${countedBeyondOverhead.toFixed(0)} as key, headers and bodies: overhead ${(perEntry - countedBeyondOverhead).toFixed(0)} bytes per entry (ENTRY_OVERHEAD_BYTES now ${ENTRY_OVERHEAD_BYTES})`,
)
console.log(JSON.stringify({ entries: N, kept: made.length, heap_bytes_per_entry: Math.round(perEntry), overhead_bytes_per_entry: Math.round(perEntry - countedBeyondOverhead) }))
