/**
 * Conditional requests, caching headers and compression for data routes (GET/HEAD under /api/,
 * except the account routes, the webhook routes and /api/key/info), as a global router middleware.
 *
 * The route runs first (the key is checked and the request counted), then its 200 answer gets:
 *   - `Batch-Id: <batch id>`: the batch that answered, the request's lease, also on the 304; a
 *     route whose batch is another names it itself and keeps it (a download, which reads no
 *     lease, on its 200 and 206: the path's batch; /api/changes, at send time: its to_batch);
 *   - a strong ETag: SHA-256 of (content hash of the snapshot that answered, path, sorted query),
 *     with a suffix per content coding; when If-None-Match names it, the answer becomes a 304
 *     without body (the quota headers, set at send time by the key middleware, are still added: a
 *     304 is counted). The snapshot is the request's lease, which PinSnapshot records here
 *     (PinnedRecord): a lease never mixes two batches. An answer read from no snapshot (the
 *     batches' list, from the ledger) is validated by a hash of its bytes instead;
 *   - `Cache-Control: private, max-age=<seconds until the next expected batch>`; for a request
 *     that names its batch (`?batch=`) `private, max-age=31536000, immutable`, since a published
 *     batch never changes; for an answer read from no snapshot `private, no-cache`. A route that
 *     sets its own ETag or Cache-Control keeps them;
 *   - `Vary: X-Api-Key, Authorization, Accept-Encoding`;
 *   - gzip or brotli (node:zlib) for JSON bodies of 1 KiB and more when Accept-Encoding allows
 *     (once per body object: an answer kept per snapshot is compressed once per coding); a body
 *     the route already encoded (a stored gzip copy sent to a gzip client) is left as it is.
 *
 * The answer cache (api/snapshot/AnswerCache.ts) keeps a data route's 200 answer per batch under
 * the request target; the route's PinSnapshot answers a hit without running the route. The kept
 * answer holds its codings and ETags, made once; everything above but those stays per request.
 */
import { createHash } from "node:crypto"
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { BATCH_ID_HEADER, batchIdOfFile } from "../../schemas/Batches.ts"
import { santiagoStartOf } from "../../snapshots/Status.ts"
import { type AnswerCache, AnswerCacheService, type CachedAnswer, type SendableAnswer } from "../snapshot/AnswerCache.ts"
import { PinnedRecord, type PinRecord, pinRecord } from "../snapshot/Pinned.ts"
import { isAccountPath } from "../web/Cors.ts"
import { recent, requestUrl } from "./Recent.ts"
import { routePath } from "./RoutePath.ts"

const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

/** Bodies below this size are sent as they are. */
export const COMPRESS_MIN_BYTES = 1024

const UNCACHED = new Set(["/api/key/info"])

/** The webhook routes (api/webhooks/): a key's own endpoints, never kept, never a batch's. */
const isWebhooksPath = (path: string): boolean => path === "/api/webhooks" || path.startsWith("/api/webhooks/")

/** GET/HEAD of a data route: under /api/, not an account route, not /api/key/info (as the router reads the path). */
export const isCacheableDataRequest = (method: string, url: string): boolean => {
  if (method !== "GET" && method !== "HEAD") return false
  const path = routePath(url)
  if (path === null) return false // no route matches it
  return path.startsWith("/api/") && !isAccountPath(url) && !UNCACHED.has(path) && !isWebhooksPath(path)
}

export type Coding = "br" | "gzip" | "identity"

/** The q-value of each coding Accept-Encoding names (`*` included), lower-cased. */
const qualities = (header: string): Map<string, number> => {
  const q = new Map<string, number>()
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";")
    if (name === undefined || name === "") continue
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    const value = qp === undefined ? 1 : Number(qp.slice(2))
    q.set(name.trim(), Number.isFinite(value) ? value : 0)
  }
  return q
}

/** True when Accept-Encoding admits `coding`: named with q > 0, or through `*` when not named. */
export const admitsCoding = (header: string | undefined, coding: "br" | "gzip"): boolean => {
  if (header === undefined) return false
  const q = qualities(header)
  return (q.get(coding) ?? q.get("*") ?? 0) > 0
}

/** The preferred coding Accept-Encoding admits: br, then gzip (q > 0, `*` counts), else identity. */
export const chooseCoding = (header: string | undefined): Coding => {
  if (admitsCoding(header, "br")) return "br"
  if (admitsCoding(header, "gzip")) return "gzip"
  return "identity"
}

/** The strong validator of a data answer; `coding` distinguishes the encoded representations. */
export const entityTag = (contentHash: string, url: string, coding: Coding): string =>
  validator(`${coding}\n${contentHash}\n${url}`)

/** Computed once per coding, snapshot and request target (a request target holds no line break). */
const validator = recent(1024, (inputs) => {
  const [coding, contentHash, url] = inputs.split("\n", 3) as [Coding, string, string]
  const parsed = requestUrl(url)
  const query = [...parsed.searchParams].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
  const digest = createHash("sha256")
    .update(contentHash)
    .update("\n")
    .update(parsed.pathname)
    .update("\n")
    .update(new URLSearchParams(query).toString())
    .digest("base64url")
    .slice(0, 32)
  return coding === "identity" ? `"${digest}"` : `"${digest}-${coding}"`
})

const opaque = (tag: string): string => tag.replace(/^W\//, "").replace(/-(?:br|gzip)"$/, '"')

/** True when If-None-Match names `etag` (weak comparison, any coding of the same content) or is `*`. */
export const ifNoneMatchHits = (header: string | undefined, etag: string): boolean => {
  if (header === undefined) return false
  if (header.trim() === "*") return true
  const wanted = opaque(etag)
  return header.split(",").some((t) => opaque(t.trim()) === wanted)
}

const DEFAULT_BATCH_MINUTE = 7 * 60 + 30
const DAY = 86_400_000
const santiagoWeekday = new Intl.DateTimeFormat("en-US", { timeZone: "America/Santiago", weekday: "short" })
const santiagoDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago" })

/**
 * Seconds until the next expected batch: the daemon's default schedule, 07:30 America/Santiago
 * Monday to Saturday (`30 7 * * 1-6`). At least 60.
 */
export const secondsUntilNextBatch = (nowMillis: number, batchMinute = DEFAULT_BATCH_MINUTE): number => {
  // The next batch instant stays the same from one computation until it passes: computed once
  // then, not per request (≈20 Intl formats each, 4 % of a small request's CPU).
  if (next === null || next.batchMinute !== batchMinute || nowMillis < next.from || (next.at !== null && nowMillis >= next.at)) {
    next = { from: nowMillis, at: nextBatchAt(nowMillis, batchMinute), batchMinute }
  }
  return next.at === null ? 86_400 : Math.max(60, Math.ceil((next.at - nowMillis) / 1000))
}

let next: { readonly from: number; readonly at: number | null; readonly batchMinute: number } | null = null

/** The first batch instant after `nowMillis` (Monday to Saturday, Santiago time), null if none in 9 days. */
const nextBatchAt = (nowMillis: number, batchMinute: number): number | null => {
  for (let i = 0; i < 9; i++) {
    const probe = new Date(nowMillis + i * DAY)
    if (santiagoWeekday.format(probe) === "Sun") continue
    const at = santiagoStartOf(santiagoDay.format(probe)) + batchMinute * 60_000
    if (at > nowMillis) return at
  }
  return null
}

const mergeVary = (existing: string | undefined, add: ReadonlyArray<string>): string => {
  const names = (existing ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")
  for (const name of add) if (!names.some((n) => n.toLowerCase() === name.toLowerCase())) names.push(name)
  return names.join(", ")
}

const compressNow = (body: Uint8Array, coding: "br" | "gzip"): Promise<Uint8Array> =>
  coding === "gzip"
    ? gzipAsync(body, { level: 6 })
    : brotliAsync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      })

/**
 * Compressed copies of bodies that are sent more than once as the same object (answers a route
 * keeps per snapshot): each coding is computed once per body and goes away with it.
 */
const copies = new WeakMap<Uint8Array, Partial<Record<"br" | "gzip", Promise<Uint8Array>>>>()

const compress = (body: Uint8Array, coding: "br" | "gzip"): Effect.Effect<Uint8Array> =>
  Effect.promise(() => {
    let kept = copies.get(body)
    if (kept === undefined) {
      kept = {}
      copies.set(body, kept)
    }
    let copy = kept[coding]
    if (copy === undefined) {
      copy = compressNow(body, coding)
      kept[coding] = copy
      // a failed compression is not kept: the next request tries again
      copy.catch(() => {
        if (kept[coding] === copy) delete kept[coding]
      })
    }
    return copy
  })

/** A year: the longest max-age caches are asked to honour (RFC 9111), for answers that never change. */
export const IMMUTABLE_SECONDS = 31_536_000

/** The strong validator of an answer read from no one snapshot (the batches' list), from its bytes. */
export const bodyTag = (body: Uint8Array, coding: Coding): string => {
  const digest = createHash("sha256").update(body).digest("base64url").slice(0, 32)
  return coding === "identity" ? `"${digest}"` : `"${digest}-${coding}"`
}

/** The coding a 200 answer goes out in: the route's own encoding, else the preferred one for JSON of 1 KiB and more, else identity. */
export const codingOf = (response: HttpServerResponse.HttpServerResponse, acceptEncoding: string | undefined): Coding => {
  const encoded = response.headers["content-encoding"]
  if (encoded !== undefined) return encoded === "gzip" || encoded === "br" ? encoded : "identity"
  const body = response.body
  if (body._tag !== "Uint8Array" || body.contentLength < COMPRESS_MIN_BYTES || !/json/i.test(body.contentType)) return "identity"
  return acceptEncoding === undefined ? "identity" : preferredCoding(acceptEncoding)
}

/** chooseCoding per distinct Accept-Encoding, worked out once (clients send a handful). */
const preferredCoding = recent(256, chooseCoding)

/**
 * A 200 answer in `coding`, with what does not change from one request for it to the next: Vary,
 * ETag, Batch-Id and the route's own Cache-Control (`answer`: the answer cache's entry it is, whose
 * codings are made once).
 */
const sendable = (
  response: HttpServerResponse.HttpServerResponse,
  coding: Coding,
  pinned: PinRecord,
  target: string,
  answer: CachedAnswer | null,
): Effect.Effect<SendableAnswer> =>
  Effect.gen(function* () {
    // the batch that answered: what the route named itself, else the lease it read
    const batchId = response.headers[BATCH_ID_HEADER] ?? (pinned.lease === null ? undefined : batchIdOfFile(pinned.lease.file))
    const encoded = response.headers["content-encoding"]
    const body = response.body
    const identityBytes = encoded === undefined && body._tag === "Uint8Array" ? body.body : null
    if (encoded === undefined && coding !== "identity" && body._tag === "Uint8Array") {
      const bytes =
        answer !== null && answer.body === body.body
          ? yield* Effect.promise(() => answer.coding(coding, (identity) => compressNow(identity, coding)))
          : yield* compress(body.body, coding)
      response = HttpServerResponse.setHeader(
        HttpServerResponse.uint8Array(bytes, { status: response.status, headers: response.headers, contentType: body.contentType }),
        "content-encoding",
        coding,
      )
    }
    const vary = mergeVary(response.headers.vary, ["X-Api-Key", "Authorization", "Accept-Encoding"])
    const lease = pinned.lease
    const etag =
      response.headers.etag ??
      (lease !== null
        ? // one batch answered (a lease never mixes two): its content hash, the path and the query
          entityTag(lease.contentHash, target, coding)
        : identityBytes === null
          ? undefined
          : bodyTag(identityBytes, coding))
    const cacheControl = response.headers["cache-control"]
    const headers: Record<string, string> = {
      vary,
      ...(etag === undefined ? {} : { etag }),
      ...(batchId === undefined ? {} : { [BATCH_ID_HEADER]: batchId }),
    }
    return { response: HttpServerResponse.setHeaders(response, headers), vary, etag, batchId, cacheControl }
  })

/**
 * The Cache-Control of a data answer: what the route set itself stands; else by what answered it,
 * no one snapshot (the batches' list: asked again each time, validated by its bytes), a batch
 * named in the query (it never changes), or the current batch (until the next one is expected).
 */
export const cacheControlOf = (ready: SendableAnswer, read: "none" | "named" | "current", nowMillis: number): string =>
  ready.cacheControl ??
  (read === "none"
    ? "private, no-cache"
    : read === "named"
      ? `private, max-age=${IMMUTABLE_SECONDS}, immutable`
      : `private, max-age=${secondsUntilNextBatch(nowMillis)}`)

/** The headers of the 304 answering a conditional request for `ready` (its ETag named in If-None-Match). */
export const notModifiedHeaders = (ready: SendableAnswer, cacheControl: string): Record<string, string> => ({
  vary: ready.vary,
  "cache-control": cacheControl,
  ...(ready.etag === undefined ? {} : { etag: ready.etag }),
  ...(ready.batchId === undefined ? {} : { [BATCH_ID_HEADER]: ready.batchId }),
})

/** A plain authority: a host name or bracketed IPv6 address, and a port (effect's own check of a forwarded host). */
export const PLAIN_AUTHORITY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/i

/**
 * The answer cache's key of a request: its target as sent (effect's `originalUrl`: absolute, from
 * the Host header, when the target is a path) and its Accept header (AnswerCache.ts); null when
 * its answer is not to be kept: a Host, or a target's authority, that is not a plain host and port
 * (a Host holding `/`, `?` or `#`, which Node lets through, or a userinfo), or a fragment. Either
 * would make one key stand for two requests (a Host of `h/api/x` and a target of `/y` read as the
 * target `/api/x/y` of `h`), so that one route's answer could be sent for another.
 */
export const answerKey = (originalUrl: string, host: string | undefined, accept: string | undefined): string | null => {
  if (originalUrl.includes("#") || (host !== undefined && !PLAIN_AUTHORITY.test(host))) return null
  const scheme = /^https?:\/\//i.exec(originalUrl)
  if (scheme !== null) {
    const rest = originalUrl.slice(scheme[0].length)
    const slash = rest.indexOf("/")
    if (slash < 0 || !PLAIN_AUTHORITY.test(rest.slice(0, slash))) return null
  } else if (!originalUrl.startsWith("/")) return null
  return `${originalUrl}\naccept: ${accept ?? ""}`
}

/** The middleware function, on a clock, with the server's answer cache (none: nothing kept). */
export const httpCaching =
  (now: () => number = Date.now, answers: AnswerCache | null = null) =>
  <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!isCacheableDataRequest(request.method, request.originalUrl)) {
        const webhooks = routePath(request.originalUrl)
        if (!isAccountPath(request.originalUrl) && (webhooks === null || !isWebhooksPath(webhooks))) return yield* app
        // account answers (the user, the watchlist, a session) and a key's webhooks (a secret) are nobody's to keep
        const answer = yield* app
        return answer.headers["cache-control"] === undefined ? HttpServerResponse.setHeader(answer, "cache-control", "no-store") : answer
      }
      // the route's PinSnapshot records the lease it answered from here
      const key = answerKey(request.originalUrl, request.headers.host, request.headers.accept)
      const pinned: PinRecord = pinRecord(answers?.enabled === true && key !== null ? { cache: answers, key } : null)
      const response = yield* Effect.provideService(app, PinnedRecord, pinned)
      // an error names no batch; a 206 (a download) names its own
      if (response.status !== 200) return response
      const kept = pinned.answer
      let ready: SendableAnswer
      if (kept !== null && (response === kept.sent || response === kept.response)) {
        // a kept answer (a hit, or the miss that kept it): made ready once per coding, from the
        // response with its send-time headers (a hit runs no route to set them)
        const coding = codingOf(kept.sent, request.headers["accept-encoding"])
        const made = kept.sendable.get(coding)
        if (made === undefined) {
          ready = yield* sendable(kept.sent, coding, pinned, request.originalUrl, kept)
          kept.sendable.set(coding, ready)
        } else ready = made
      } else {
        ready = yield* sendable(response, codingOf(response, request.headers["accept-encoding"]), pinned, request.originalUrl, null)
      }
      const cacheControl = cacheControlOf(ready, pinned.lease === null ? "none" : pinned.named ? "named" : "current", now())
      if (ready.etag !== undefined && ifNoneMatchHits(request.headers["if-none-match"], ready.etag)) {
        return HttpServerResponse.empty({ status: 304, headers: notModifiedHeaders(ready, cacheControl) })
      }
      return HttpServerResponse.setHeader(ready.response, "cache-control", cacheControl)
    })

/** Installs the middleware on every route, with the server's answer cache. */
export const httpCachingLayer = HttpRouter.middleware(
  AnswerCacheService.useSync((answers) => httpCaching(Date.now, answers)),
  { global: true },
)
