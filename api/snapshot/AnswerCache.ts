/**
 * The answer cache (issue #32): a data route's 200 answer kept per batch, so that the same
 * request on the same batch is answered without running the route again and compressed once per
 * content coding, never on a hit. A published batch never changes, so neither does its answer to
 * one request target.
 *
 * Where: each snapshot handle keeps its answers on its memo (a shelf), so a retired batch's
 * answers go when its handle closes (SnapshotMemo disposes the shelf); one budget in bytes
 * (FDS_ANSWER_CACHE_MB) holds for every open batch together, the least recently used answer
 * dropped first. 0 turns the cache off.
 *
 * The key is the request target as the client sent it (path and query, in its order and
 * spelling), with its Accept header: the links of a page echo the query as given, so two
 * spellings of one query may answer different bytes, and /days answers CSV to an Accept that
 * prefers it (Vary: Accept); the cache never lets one answer for the other. An answer that varies
 * by another request header is not kept. Only what the route
 * answered is kept (status, headers, JSON bytes, the headers it set at send time such as Link);
 * the key check, the quota, the per-IP limit, Batch-Id, Cache-Control and the conditional
 * request stay per request (api/http/Caching.ts, PinSnapshot in Pinned.ts).
 *
 * Each kept answer counts its hits; the count lives and dies with the entry (counts are kept for
 * kept answers only, so they are bounded by the budget). A shelf names its hottest keys
 * (`hottest`), and before a new batch serves, those of the batch served are computed for it and
 * kept on its shelf (warm on swap, AnswerWarm.ts: FDS_WARM_ANSWERS, FDS_WARM_ANSWERS_MS).
 */
import { Context, Effect, Layer } from "effect"
import { HttpServerResponse } from "effect/http"
import { numberSetting } from "../system/Settings.ts"
import type { SnapshotHandle } from "./SnapshotHandle.ts"

/** A coding a cached answer keeps a copy of. */
export type CachedCoding = "br" | "gzip"

/**
 * What an entry costs on the heap beyond the bytes counted as its own (key, headers, body and
 * codings): the response objects and their headers, the entry, its places in the shelf's map and
 * the recency order, and the answer made ready to send in two codings (SendableAnswer). Measured:
 * 1,963–1,983 bytes per entry over 20,000 and 50,000 entries (test/bench/answerEntrySize.ts,
 * node 24, 2026-12-02).
 */
export const ENTRY_OVERHEAD_BYTES = 2048

/**
 * A kept answer as the caching middleware sends it in one coding (api/http/Caching.ts): its body
 * in that coding, Vary, ETag and Batch-Id set, made on the first request in that coding; what
 * stays per request (Cache-Control, unless the route set its own, and the 304) is added to it.
 */
export interface SendableAnswer {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly vary: string
  readonly etag: string | undefined
  readonly batchId: string | undefined
  /** The route's own Cache-Control, if it set one. */
  readonly cacheControl: string | undefined
}

/** One kept answer: the route's response and the headers it set at send time, each coding of its body made once. */
export class CachedAnswer {
  readonly key: string
  readonly response: HttpServerResponse.HttpServerResponse
  /** The route's response with the headers it set at send time: what a hit answers, without running the route. */
  readonly sent: HttpServerResponse.HttpServerResponse
  readonly body: Uint8Array
  readonly sendHeaders: Readonly<Record<string, string>>
  /** Bytes counted against the budget. */
  bytes: number
  /** Requests answered from it (its count dies with it: counts are kept for kept answers only). */
  hits = 0
  private readonly codings: Partial<Record<CachedCoding, Promise<Uint8Array>>> = {}
  /** The answer ready to send, per coding (SendableAnswer). */
  readonly sendable = new Map<string, SendableAnswer>()
  readonly shelf: AnswerShelf

  constructor(
    shelf: AnswerShelf,
    key: string,
    response: HttpServerResponse.HttpServerResponse,
    body: Uint8Array,
    sendHeaders: Readonly<Record<string, string>>,
  ) {
    this.shelf = shelf
    this.key = key
    this.response = response
    this.sent = Object.keys(sendHeaders).length === 0 ? response : HttpServerResponse.setHeaders(response, sendHeaders)
    this.body = body
    this.sendHeaders = sendHeaders
    let headerBytes = 0
    for (const [name, value] of Object.entries({ ...response.headers, ...sendHeaders })) headerBytes += name.length + value.length
    this.bytes = ENTRY_OVERHEAD_BYTES + key.length * 2 + headerBytes * 2 + body.byteLength
  }

  /** The body in `coding`, made by `compress` the first time only (a failed one is tried again next time). */
  coding(coding: CachedCoding, compress: (body: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array> {
    let copy = this.codings[coding]
    if (copy === undefined) {
      this.shelf.cache.compressions++
      copy = compress(this.body)
      this.codings[coding] = copy
      copy.then(
        (bytes) => this.shelf.cache.grew(this, bytes.byteLength),
        () => {
          if (this.codings[coding] === copy) delete this.codings[coding]
        },
      )
    }
    return copy
  }
}

/** One batch's answers, kept on its snapshot handle's memo; disposed (emptied) when the handle closes. */
export class AnswerShelf {
  readonly cache: AnswerCache
  readonly answers = new Map<string, CachedAnswer>()
  disposed = false
  constructor(cache: AnswerCache) {
    this.cache = cache
  }

  /**
   * The keys of its hottest answers (warmed on the next batch, AnswerWarm.ts): at most `n` of
   * those hit at least once that `wanted` accepts, most hits first (ties: kept first).
   */
  hottest(n: number, wanted: (key: string) => boolean = () => true): ReadonlyArray<string> {
    if (n <= 0) return []
    const hot: CachedAnswer[] = []
    for (const answer of this.answers.values()) if (answer.hits > 0 && wanted(answer.key)) hot.push(answer)
    return hot
      .sort((a, b) => b.hits - a.hits)
      .slice(0, n)
      .map((answer) => answer.key)
  }

  [Symbol.dispose](): void {
    this.disposed = true
    for (const answer of this.answers.values()) this.cache.forget(answer)
    this.answers.clear()
  }
}

/** What a kept answer may be: a 200 whose JSON bytes the route did not encode nor negotiate itself. */
export const keepable = (response: HttpServerResponse.HttpServerResponse): Uint8Array | null => {
  if (response.status !== 200 || response.body._tag !== "Uint8Array") return null
  if (response.headers["content-encoding"] !== undefined) return null
  // a route that chose its bytes by a request header says so in Vary: by Accept (/days as JSON or
  // CSV) it is kept, the key holding Accept; by another (the benchmarks' stored gzip copy) it is not
  const vary = response.headers.vary
  if (vary?.split(",").some((name) => name.trim().toLowerCase() !== "accept")) return null
  if (response.headers["set-cookie"] !== undefined) return null
  return response.body.body
}

/** Counts, for /metrics. */
export interface AnswerCacheStats {
  readonly hits: number
  readonly misses: number
  readonly evictions: number
  readonly compressions: number
  readonly entries: number
  readonly bytes: number
  readonly maxBytes: number
  /** Answers computed for a new batch before it served (AnswerWarm.ts). */
  readonly warmed: number
  /** Hits sent at the Node level, before the router (api/http/HitPath.ts); counted in `hits` too. */
  readonly early: number
  /** MCP tool calls answered from a kept result, without the SDK (api/mcp/McpHttp.ts); counted in `hits` too. */
  readonly mcpResults: number
}

/** The budget and the recency order of every batch's kept answers (one per server). */
export class AnswerCache {
  readonly maxBytes: number
  hits = 0
  misses = 0
  evictions = 0
  compressions = 0
  /** Answers kept by the warm on swap (AnswerWarm.ts). */
  warmed = 0
  /** Hits sent before the router (api/http/HitPath.ts). */
  early = 0
  /** MCP tool calls answered from a kept result (api/mcp/McpHttp.ts). */
  mcpResults = 0
  private bytes = 0
  /** Least recently used first. */
  private readonly order = new Set<CachedAnswer>()

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
  }

  get enabled(): boolean {
    return this.maxBytes > 0
  }

  /** The shelf of the batch `memo` belongs to (a lease's or a handle's memo). */
  shelfOn(memo: <A>(key: string, compute: () => A) => A): AnswerShelf {
    return memo(this.memoKey, () => new AnswerShelf(this))
  }

  // a cache per server: two servers of one process (tests) keep their own shelves on one handle
  private readonly memoKey = `answer-cache:${++caches}`

  /** The answer kept under `key`, now the most recently used; counts the hit or the miss. */
  get(shelf: AnswerShelf, key: string): CachedAnswer | undefined {
    const answer = shelf.answers.get(key)
    if (answer === undefined) {
      this.misses++
      return undefined
    }
    this.hit(answer)
    return answer
  }

  /** `answer` answered a request: its hit is counted and it is now the most recently used (if still kept). */
  hit(answer: CachedAnswer): void {
    this.hits++
    answer.hits++
    if (!this.order.delete(answer)) return
    this.order.add(answer)
  }

  /** Keeps the route's answer under `key` when it may be kept and fits; the answer kept, or null. */
  put(
    shelf: AnswerShelf,
    key: string,
    response: HttpServerResponse.HttpServerResponse,
    sendHeaders: Readonly<Record<string, string>>,
  ): CachedAnswer | null {
    const body = keepable(response)
    if (body === null || shelf.disposed) return null
    const answer = new CachedAnswer(shelf, key, response, body, sendHeaders)
    if (answer.bytes > this.maxBytes) return null
    const previous = shelf.answers.get(key)
    if (previous !== undefined) this.forget(previous)
    shelf.answers.set(key, answer)
    this.order.add(answer)
    this.bytes += answer.bytes
    this.evict()
    return answer
  }

  /** A coding of `answer` was made: its bytes count (if it is still kept). */
  grew(answer: CachedAnswer, bytes: number): void {
    answer.bytes += bytes
    if (!this.order.has(answer)) return
    this.bytes += bytes
    this.evict()
  }

  /** Drops `answer` from the budget and its shelf. */
  forget(answer: CachedAnswer): void {
    if (!this.order.delete(answer)) return
    this.bytes -= answer.bytes
    if (answer.shelf.answers.get(answer.key) === answer) answer.shelf.answers.delete(answer.key)
  }

  private evict(): void {
    while (this.bytes > this.maxBytes) {
      const oldest = this.order.values().next()
      if (oldest.done === true) break
      this.forget(oldest.value)
      this.evictions++
    }
  }

  get stats(): AnswerCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      compressions: this.compressions,
      entries: this.order.size,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
      warmed: this.warmed,
      early: this.early,
      mcpResults: this.mcpResults,
    }
  }
}

let caches = 0

/**
 * The shelf of the batch served now, as the answers sent before the route see it (the hit path,
 * api/http/HitPath.ts; the MCP tool results, api/mcp/McpHttp.ts): none while no batch serves, its
 * handle is closed or checked again, or the replica is out of step with its fleet (the route
 * answers those).
 */
export const servedShelf = (
  cache: AnswerCache,
  store: { readonly current: () => SnapshotHandle | null; readonly fleetProblem: () => string | null },
): { readonly shelf: AnswerShelf; readonly handle: SnapshotHandle } | null => {
  const handle = store.current()
  if (handle === null || !handle.isOpen || handle.suspect !== null || store.fleetProblem() !== null) return null
  return { shelf: cache.shelfOn((key, compute) => handle.memo(key, compute)), handle }
}

/** FDS_ANSWER_CACHE_MB: megabytes (a number ≥ 0; 0 turns the cache off), default 64. */
export const answerCacheMegabytes = numberSetting("FDS_ANSWER_CACHE_MB")

/** The server's answer cache. */
export class AnswerCacheService extends Context.Service<AnswerCacheService, AnswerCache>()("fds/api/AnswerCache") {
  /** Sized by FDS_ANSWER_CACHE_MB. */
  static readonly layer = Layer.effect(
    AnswerCacheService,
    Effect.map(answerCacheMegabytes, (mb) => new AnswerCache(Math.floor(mb * 1024 * 1024))),
  )
}
