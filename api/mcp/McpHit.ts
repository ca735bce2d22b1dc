/**
 * A kept tool result sent at the Node level (issue #32 item 3), as a kept GET answer is
 * (api/http/HitPath.ts): the route's kept results (McpHttp.ts KeptResults) answer a plain tool
 * call asked again on the same batch without the router, the same bytes and headers the route
 * sends, with the same per-request part (the per-IP token, the key checked and one request of its
 * quota counted, the quota headers, Batch-Id).
 *
 * A POST carries its call in its body, which the router reads too when the request is handed to
 * it, so the body is looked at without taking it: read as it arrives ('readable', read()) and put
 * back whole (unshift) before the stream could end, so the router reads it as Node gave it. Only
 * what the route would take the same way is looked at: a POST to /mcp itself (no query), a body
 * of a known length up to the API's limit (no chunked or encoded body, no `Expect`), a plain Host
 * with nothing in it that reads as a key (the route refuses a key in the URL), a key sent, no
 * Origin or Referer (a browser's, which the route checks against the trusted origins), the headers
 * of a plain tool call (McpHttp.ts plainToolCallHeaders). Anything else goes to the router with
 * the body as it came: a body that is not a plain call or that the look cannot read (nothing is
 * thrown from a stream's listener, where it would end the process), a result not kept, a key
 * refused or not checked, a refused token. A client gone before its body arrived is not handed
 * over (nothing could answer it; the access log has its 499).
 */
import type { IncomingMessage } from "node:http"
import { Effect } from "effect"
import { BATCH_ID_HEADER } from "../../schemas/Batches.ts"
import { PLAIN_AUTHORITY } from "../http/Caching.ts"
import { type HitAnswer, type HitGate, keyOf, type PostHit } from "../http/HitPath.ts"
import { MAX_BODY } from "../NotFound.ts"
import { keyInAuthority } from "../security/SecurityLive.ts"
import { AnswerCacheService } from "../snapshot/AnswerCache.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { type FoundResult, KeptResults, MCP_PATH, type PlainToolCall, plainToolCallBody, plainToolCallHeaders } from "./McpHttp.ts"

/**
 * The whole body of `request` (`length` bytes) given to `then` and left in the stream, unread: read
 * as it comes and put back at once, before the stream can end (an end is only emitted once its
 * buffer is empty on the next tick; Node's endReadableNT checks for this last unshift). `then` is
 * not called when the request is gone first.
 */
export const peekBody = (request: IncomingMessage, length: number, then: (body: Buffer) => void): void => {
  const chunks: Array<Buffer> = []
  let got = 0
  const stop = () => {
    request.removeListener("readable", onReadable)
    request.removeListener("close", stop)
  }
  const onReadable = () => {
    for (let chunk: Buffer | null = request.read(); chunk !== null; chunk = request.read()) {
      chunks.push(chunk)
      got += chunk.length
    }
    if (got < length) return
    stop()
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
    request.unshift(body)
    then(body)
  }
  request.on("readable", onReadable)
  request.once("close", stop)
}

/** A Content-Length the hit may read: digits, 1 to the API's body limit; else null. */
const bodyLength = (header: string | undefined): number | null => {
  if (header === undefined || !/^\d{1,9}$/.test(header)) return null
  const length = Number(header)
  return length > 0 && length <= Number(MAX_BODY) ? length : null
}

/** The Node-level answer of kept tool results (see the module's comment), made with the hit path's gate. */
export const mcpHit: PostHit<AnswerCacheService | SnapshotStore> = {
  path: MCP_PATH,
  make: (gate: HitGate) =>
    Effect.gen(function* () {
      const kept = new KeptResults(yield* AnswerCacheService, yield* SnapshotStore)
      const answer: HitAnswer = (request, response, router) => {
        const headers = request.headers
        if (headers.origin !== undefined || headers.referer !== undefined || headers.expect !== undefined) return false
        if (headers["transfer-encoding"] !== undefined || headers["content-encoding"] !== undefined) return false
        // a key in the Host is the route's to refuse (checkKey: a key in the URL)
        if (headers.host !== undefined && (!PLAIN_AUTHORITY.test(headers.host) || keyInAuthority(`http://${headers.host}${MCP_PATH}`))) return false
        const length = bodyLength(headers["content-length"])
        if (length === null || !plainToolCallHeaders(headers)) return false
        const apiKey = keyOf(request)
        if (apiKey === "") return false
        peekBody(request, length, (body) => {
          // in a stream's listener: nothing may be thrown from here (it would end the process)
          let call: PlainToolCall | null
          let found: FoundResult | undefined
          try {
            call = plainToolCallBody(JSON.parse(body.toString("utf8")))
            found = call === null ? undefined : kept.find(call)
          } catch {
            return router() // the SDK answers a parse error
          }
          if (call === null || found === undefined) return router()
          const send = (quota: Record<string, string>): void => {
            const bytes = kept.send(found, call.id, true)
            response.writeHead(200, { ...quota, [BATCH_ID_HEADER]: found.batchId, "content-type": "application/json", "content-length": bytes.length })
            response.end(bytes)
            request.resume() // the body, unread: taken, so the request ends and its buffer is freed
          }
          if (!gate(request, response, apiKey, send, router)) router()
        })
        return true
      }
      return answer
    }),
}
