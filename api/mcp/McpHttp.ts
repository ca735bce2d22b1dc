/**
 * POST /mcp: the MCP Streamable HTTP transport of the official SDK, stateless (a transport per
 * request, its server one of a pool, JSON answers, no session), on the API's own terms:
 *   - the per-IP limit and CORS of the edge apply as to every route (api/ratelimit/Edge.ts);
 *   - a browser's Origin must be the service's own (web/Origin.ts), as MCP asks against DNS rebinding;
 *   - the key is the API's (X-Api-Key or Authorization: Bearer), checked by the routes' own check
 *     (handlers/Security.ts checkKey); a request carrying a tool call counts one request of its
 *     quota, the others (initialize, tools/list) are verified without counting;
 *   - a refused key or an exhausted quota is the API's 401 or 429 with its body and headers, which
 *     the SDK's client reports as an HTTP error of the transport;
 *   - the answer to a tool call names the batch its result was read from in `Batch-Id`, as the
 *     result does (structuredContent.batch_id);
 *   - a plain tool call asked again on the same batch is answered from its kept result, without
 *     the SDK (KeptResults below).
 * GET (a server-sent event stream) and DELETE (ending a session) have nothing to serve here: 405.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js"
import { ByteSize, Effect, Schema } from "effect"
import { HttpRouter, HttpServerError, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { AccountsConfig } from "../../accounts/AccountsConfig.ts"
import { KeyStore } from "../../accounts/KeyStore.ts"
import {
  QuotaExceededResponse,
  ServiceUnavailableResponse,
  UnauthorizedResponse,
  UntrustedOrigin,
  UntrustedOriginResponse,
} from "../../schemas/ApiErrors.ts"
import { BATCH_ID_HEADER, batchIdOfFile } from "../../schemas/Batches.ts"
import { MAX_BODY } from "../NotFound.ts"
import { checkKey, quotaHeaders } from "../security/SecurityLive.ts"
import { type AnswerCache, AnswerCacheService, type CachedAnswer, servedShelf } from "../snapshot/AnswerCache.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { isTrustedOrigin } from "../web/Origin.ts"
import { McpCalls } from "./McpCalls.ts"
import { TOOLS } from "./McpTools.ts"
import { makeMcpServer } from "./McpServer.ts"

export const MCP_PATH = "/mcp"

const HTTP_INFO = {
  description:
    "Fund Data Service (Chilean mutual funds, investment funds and ETFs from CMF files) over HTTP with your API key: each tool call counts as one request of the key's daily quota; each result names the batch (batch_id) it was read from.",
}

/** An API error as its response: the body and headers its schema encodes it to. */
const errorResponse = (schema: Schema.Top, error: unknown, status: number) => {
  const { body, headers } = Schema.encodeSync(schema as Schema.Codec<unknown, { body: unknown; headers: Record<string, string> }>)(error)
  return HttpServerResponse.jsonUnsafe(body, { status, headers })
}

const refused = (e: { readonly _tag: string }) =>
  e._tag === "Unauthorized"
    ? errorResponse(UnauthorizedResponse, e, 401)
    : e._tag === "QuotaExceeded"
      ? errorResponse(QuotaExceededResponse, e, 429)
      : errorResponse(ServiceUnavailableResponse, e, 503)

const jsonRpcError = (status: number, code: number, message: string) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", id: null, error: { code, message } }, { status })

/** A body over the API's limit is its 413 (docs/http.md), any other it cannot read its 400, in the API's error shape. */
const unreadable = (error: unknown) =>
  HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
    ? HttpServerResponse.jsonUnsafe(
        { error: "payload_too_large", status: 413, message: `the request body is over ${ByteSize.format(MAX_BODY)}` },
        { status: 413 },
      )
    : HttpServerResponse.jsonUnsafe({ error: "bad_request", status: 400, message: "the request body could not be read" }, { status: 400 })

/** The tool calls a request body carries (a JSON-RPC message or a batch of them). */
const toolCalls = (body: unknown): number =>
  (Array.isArray(body) ? body : [body]).filter((m) => typeof m === "object" && m !== null && m.method === "tools/call").length

/**
 * Tool results kept per batch (issue #32 item 3): the SDK's answer to a plain tool call is
 * `{"result":…,"jsonrpc":"2.0","id":…}`, the result a function of the tool, its arguments and the
 * batch it read, so the second time the same call comes on the same batch its result is sent
 * without the SDK (its transport, its validation, a server of the pool): the answer cache keeps
 * the result's JSON on the batch's shelf (`mcp-rpc <tool> <arguments as sent>`), within its
 * budget, dropped with the batch. Only what the SDK would take the same way goes by it: one
 * request (no batch, no notification) of `tools/call` with a name and arguments and nothing else,
 * an id the SDK takes, Accept naming both types, Content-Type application/json, no session, a
 * protocol version the SDK supports (else it is the SDK's to refuse). A result is kept only when
 * the SDK's answer is exactly that envelope around it (checked byte for byte), is no tool error,
 * and names the batch served now; the tools that read the clock or the ledger are never kept.
 * The key check and the count, the quota headers and Batch-Id stay per request.
 */
const NEVER_KEPT: ReadonlySet<string> = new Set(["data_status", "list_batches", "list_changes_since_batch"])
const KEPT_TOOLS: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name).filter((name) => !NEVER_KEPT.has(name)))

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype

/** A plain tool call: its id and the key of its result. */
export interface PlainToolCall {
  readonly id: string | number
  readonly key: string
}

/** The headers of a plain tool call: Accept naming both types, JSON, no session, a protocol version the SDK supports. */
export const plainToolCallHeaders = (headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>): boolean => {
  const accept = headers.accept ?? ""
  if (typeof accept !== "string" || !accept.includes("application/json") || !accept.includes("text/event-stream")) return false
  const contentType = headers["content-type"]
  if (typeof contentType !== "string" || contentType.split(";")[0]!.trim().toLowerCase() !== "application/json") return false
  if (headers["mcp-session-id"] !== undefined) return false
  const version = headers["mcp-protocol-version"]
  return version === undefined || (typeof version === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(version))
}

/** A plain tool call the kept results may answer, its headers checked already: its id and its key; null for anything else. */
export const plainToolCallBody = (body: unknown): PlainToolCall | null => {
  if (!isPlainObject(body) || body.jsonrpc !== "2.0" || body.method !== "tools/call") return null
  if (Object.keys(body).some((k) => k !== "jsonrpc" && k !== "id" && k !== "method" && k !== "params")) return null
  const id = body.id
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null
  const params = body.params
  if (!isPlainObject(params) || Object.keys(params).some((k) => k !== "name" && k !== "arguments")) return null
  if (typeof params.name !== "string" || !KEPT_TOOLS.has(params.name) || !isPlainObject(params.arguments)) return null
  let args: string
  try {
    args = JSON.stringify(params.arguments)
  } catch {
    return null // nested too deep to write again (RangeError): not plain, the SDK's to answer
  }
  return { id, key: `mcp-rpc ${params.name} ${args}` }
}

/** A plain tool call the kept results may answer: its id and its key; null for anything else. */
export const plainToolCall = (body: unknown, headers: Readonly<Record<string, string | undefined>>): PlainToolCall | null =>
  plainToolCallHeaders(headers) ? plainToolCallBody(body) : null

/** The SDK's answer to `id` around a result's JSON: this opening, the result, then `envelopeEnd(id)`. */
const ENVELOPE_OPEN = '{"result":'
const envelopeEnd = (id: string | number): string => `,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`
const envelope = (result: string, id: string | number): string => `${ENVELOPE_OPEN}${result}${envelopeEnd(id)}`
const ENVELOPE_OPEN_BYTES = Buffer.from(ENVELOPE_OPEN, "utf8")

/** A kept result found for a call, on the batch served now. */
export interface FoundResult {
  readonly kept: CachedAnswer
  readonly batchId: string
}

/** The kept results, on the answer cache of the batch served now. */
export class KeptResults {
  private readonly cache: AnswerCache
  private readonly store: SnapshotStore["Service"]
  constructor(cache: AnswerCache, store: SnapshotStore["Service"]) {
    this.cache = cache
    this.store = store
  }

  private shelf() {
    const served = servedShelf(this.cache, this.store)
    return served === null ? null : { shelf: served.shelf, batchId: batchIdOfFile(served.handle.file) }
  }

  /** The kept result of `call`, its hit not counted (it is once sent: send()); undefined when none (a miss, counted when `misses`). */
  find(call: PlainToolCall, misses = false): FoundResult | undefined {
    const on = this.shelf()
    if (on === null) return undefined
    const kept = on.shelf.answers.get(call.key)
    if (kept === undefined) {
      if (misses) this.cache.misses++
      return undefined
    }
    return { kept, batchId: on.batchId }
  }

  /** The answer to `id` around a kept result found, counted as a hit (`early`: sent before the router): the SDK's envelope around its bytes. */
  send(found: FoundResult, id: string | number, early = false): Uint8Array {
    this.cache.hit(found.kept)
    this.cache.mcpResults++
    if (early) this.cache.early++
    return Buffer.concat([ENVELOPE_OPEN_BYTES, found.kept.body, Buffer.from(envelopeEnd(id), "utf8")])
  }

  /** The answer to a call whose result is kept (its hit or miss counted): its bytes and batch; undefined when it is not. */
  answer(call: PlainToolCall): { readonly body: Uint8Array; readonly batchId: string } | undefined {
    const found = this.find(call, true)
    return found === undefined ? undefined : { body: this.send(found, call.id), batchId: found.batchId }
  }

  /** Keeps the result the SDK answered, when the answer is its envelope, no tool error, read from the batch served now. */
  keep(call: PlainToolCall, answer: string, batchId: string | null): void {
    const on = this.shelf()
    if (on === null || batchId !== on.batchId) return
    let parsed: unknown
    try {
      parsed = JSON.parse(answer)
    } catch {
      return
    }
    if (!isPlainObject(parsed) || !isPlainObject(parsed.result) || parsed.result.isError === true) return
    const result = JSON.stringify(parsed.result)
    if (envelope(result, call.id) !== answer) return
    this.cache.put(on.shelf, call.key, HttpServerResponse.uint8Array(Buffer.from(result, "utf8"), { contentType: "application/json" }), {})
  }
}

/** The most idle servers kept for the next requests. */
const IDLE_SERVERS = 16

/**
 * The SDK's servers, each with the tools, reused from one request to the next: a stateless
 * transport serves one request (the SDK refuses it a second), but a closed server connects again,
 * and making one (its handlers, its schemas) was about half of a tool call's own cost. A server
 * serves one request at a time; the request's calls (which record its batch) are set on it for
 * that request. A server whose request failed is not kept.
 */
class ServerPool {
  private readonly idle: Array<PooledServer> = []

  private static make(): PooledServer {
    const slot: { calls: McpCalls["Service"] | null } = { calls: null }
    const server = makeMcpServer(
      McpCalls.of({
        call: (name, args) => (slot.calls === null ? Effect.die(new Error("mcp: a tool call outside its request")) : slot.calls.call(name, args)),
      }),
      HTTP_INFO,
    )
    return { server, slot }
  }

  async serve<A>(calls: McpCalls["Service"], use: (server: Server) => Promise<A>): Promise<A> {
    const pooled = this.idle.pop() ?? ServerPool.make()
    pooled.slot.calls = calls
    const answer = await use(pooled.server)
    pooled.slot.calls = null
    if (this.idle.length < IDLE_SERVERS) this.idle.push(pooled)
    return answer
  }
}

/** A server of the pool and the calls of the request it serves now. */
interface PooledServer {
  readonly server: Server
  readonly slot: { calls: McpCalls["Service"] | null }
}

const handle = (
  servers: ServerPool,
  config: AccountsConfig["Service"],
  keys: KeyStore["Service"],
  mcp: McpCalls["Service"],
  kept: KeptResults | null,
  request: HttpServerRequest.HttpServerRequest,
) =>
  Effect.gen(function* () {
    if (!isTrustedOrigin(config, request)) {
      return errorResponse(
        UntrustedOriginResponse,
        new UntrustedOrigin({ message: "MCP requests from a browser must come from this service's own pages" }),
        403,
      )
    }
    const read = request.method === "POST" ? yield* Effect.result(request.text) : null
    if (read?._tag === "Failure") return unreadable(read.failure)
    const text = read?.success ?? ""
    let parsedBody: unknown
    try {
      parsedBody = JSON.parse(text)
    } catch {
      parsedBody = undefined // the SDK answers the parse error
    }
    const calls = toolCalls(parsedBody)
    if (calls > 1) return jsonRpcError(400, -32600, "one tool call per request (each counts as one request of the key's quota)")
    const checked = yield* Effect.result(checkKey(keys, request, request.headers["x-api-key"] ?? "", calls === 1))
    if (checked._tag === "Failure") return refused(checked.failure)
    const headers = quotaHeaders(checked.success.quota)
    if (request.method !== "POST") {
      return HttpServerResponse.setHeaders(jsonRpcError(405, -32000, "method not allowed: this endpoint is stateless, POST only"), {
        ...headers,
        allow: "POST",
      })
    }
    const plain = kept === null || calls !== 1 ? null : plainToolCall(parsedBody, request.headers)
    const answered = plain === null ? undefined : kept!.answer(plain)
    if (answered !== undefined) {
      return HttpServerResponse.uint8Array(answered.body, {
        status: 200,
        headers: { ...headers, [BATCH_ID_HEADER]: answered.batchId },
        contentType: "application/json",
      })
    }
    // the one tool call's batch, for the Batch-Id header
    let batchId: string | null = null
    const recording = McpCalls.of({
      call: (name, args) =>
        Effect.tap(mcp.call(name, args), (result) =>
          Effect.sync(() => {
            const id = result?.structuredContent?.batch_id
            if (typeof id === "string") batchId = id
          }),
        ),
    })
    const response = yield* Effect.promise(() =>
      servers.serve(recording, async (server) => {
        const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true }) // no session ids: stateless
        await server.connect(transport)
        try {
          const webRequest = new Request(`http://mcp.invalid${MCP_PATH}`, {
            method: "POST",
            headers: Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === "string"),
            body: text,
          })
          const answer = await transport.handleRequest(webRequest, parsedBody === undefined ? {} : { parsedBody })
          // the body is read before the server closes (a JSON answer is complete once returned)
          return { status: answer.status, headers: [...answer.headers], body: await answer.arrayBuffer() }
        } finally {
          await server.close()
        }
      }),
    )
    const sdkHeaders = Object.fromEntries(response.headers.filter(([name]) => name !== "content-type" && name !== "content-length"))
    const contentType = response.headers.find(([name]) => name === "content-type")?.[1] ?? "application/json"
    if (plain !== null && response.status === 200 && contentType === "application/json" && Object.keys(sdkHeaders).length === 0) {
      kept!.keep(plain, Buffer.from(response.body).toString("utf8"), batchId)
    }
    return HttpServerResponse.uint8Array(new Uint8Array(response.body), {
      status: response.status,
      headers: { ...sdkHeaders, ...headers, ...(batchId === null ? {} : { [BATCH_ID_HEADER]: batchId }) },
      contentType,
    })
  })

/** The /mcp route; needs the key store, the accounts settings (trusted origins) and McpCalls. */
export const McpRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig
    const keys = yield* KeyStore
    const mcp = yield* McpCalls
    const servers = new ServerPool()
    const answers = yield* Effect.serviceOption(AnswerCacheService)
    const store = yield* Effect.serviceOption(SnapshotStore)
    const kept =
      answers._tag === "Some" && answers.value.enabled && store._tag === "Some" ? new KeptResults(answers.value, store.value) : null
    yield* router.add("*", MCP_PATH, (request) => handle(servers, config, keys, mcp, kept, request))
  }),
)
