/**
 * The hit path (issue #32): a data request whose answer the answer cache holds, ready in the
 * coding the client takes, is answered at the Node level, before effect's router runs. A kept
 * answer is the route's answer to the same target on the same batch, so the router would only
 * add what is per request, and that is done here, by the same rules and with the same services:
 *   - the per-IP token (the edge's own buckets, api/ratelimit/Edge.ts, the fleet's when shared),
 *     for the client address effect's X-Forwarded-For rule gives;
 *   - the key, from X-Api-Key or `Authorization: Bearer`, checked and one request of its quota
 *     counted in one step (KeyStore.verifyAndConsume, the instrumented store the routes use), and
 *     the quota headers;
 *   - Batch-Id, ETag, Vary and the coding (made once per kept answer, api/http/Caching.ts), the
 *     Cache-Control of the current batch, the 304 of a conditional request, CORS for a request
 *     with an Origin;
 *   - the access log and the metrics, which are Node-level listeners already (RequestLog.ts).
 *
 * Everything else goes to the router, as before: a miss, an answer not yet made in the client's
 * coding, `?batch=` or a `;` in the target, a target in absolute form (`GET http://…`, whose key
 * check the router makes on the whole URL) or with a Host that is not a plain host and port (no
 * answer is kept for one: Caching.ts answerKey), a request with a body, no key or one that is refused
 * (401, 429, 503 are the router's to answer, with their problem bodies), a refused token, a
 * replica out of step with the fleet, a batch being checked again. A request handed over after
 * its token was taken is marked (`tokenTaken`), so the edge does not take a second one; a key
 * that was refused was not counted, so the router's check counts nothing twice; a store that did
 * not answer is not asked again by the router (`keyCheckFailed`: its 503 at once).
 *
 * A kept MCP tool result is sent here too, with the same per-request part (the gate below): a POST
 * to /mcp, whose body is looked at and left whole for the router (api/mcp/McpHit.ts, given to
 * hitPathLayer by the server, so that this folder imports nothing of the MCP's).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Clock, Effect, Exit, Layer } from "effect"
import { KEY_PREFIX } from "../../accounts/ApiKey.ts"
import { KeyStore } from "../../accounts/KeyStore.ts"
import { parseNetworks, nodeClientKey, type TakeToken, tokenTaken } from "../ratelimit/Edge.ts"
import { keyCheckFailed, quotaHeaders } from "../security/SecurityLive.ts"
import { bearerToken } from "./Secrets.ts"
import { AnswerCacheService, servedShelf } from "../snapshot/AnswerCache.ts"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { numberSetting } from "../system/Settings.ts"
import { corsHeadersFor } from "../web/Cors.ts"
import { answerKey, cacheControlOf, PLAIN_AUTHORITY, codingOf, ifNoneMatchHits, isCacheableDataRequest, notModifiedHeaders } from "./Caching.ts"
import { recent } from "./Recent.ts"

/** Answers a request at the Node level: true when it took it (then it may still hand it to `router` later, once). */
export type HitAnswer = (request: IncomingMessage, response: ServerResponse, router: () => void) => boolean

/**
 * Where the Node server finds the hit path (RequestLog.ts): empty until the routes' services are
 * built, and when FDS_HIT_PATH is 0.
 */
export class HitPath {
  answer: HitAnswer | null = null
}

/** The per-IP limit as the edge applies it; null: none. */
export interface HitLimit {
  readonly take: TakeToken
  readonly trustedProxies: ReadonlyArray<string>
}

/** The key as the router's check reads it (SecurityLive.ts checkKey): X-Api-Key, else a Bearer key; "" when neither. */
export const keyOf = (request: IncomingMessage): string => {
  const header = request.headers["x-api-key"]
  if (typeof header === "string" && header !== "") return header
  const bearer = bearerToken(request.headers.authorization)
  return bearer?.startsWith(KEY_PREFIX) ? bearer : ""
}

/**
 * The target as effect's Node request names it (`originalUrl`): absolute, from the Host header,
 * when the target is a path and Host is given (the answer cache's key holds it: a page's links are
 * made from it).
 */
const originalUrl = (scheme: string, host: string | undefined, url: string): string => {
  if (url[0] !== "/" || host === undefined) return url
  return `${scheme}://${host}${url}`
}

/** A target in origin form (a path: not `http://…`, whose key check the router makes on its whole URL) with a plain Host. */
const originForm = (host: string | undefined, url: string): boolean => url[0] === "/" && (host === undefined || PLAIN_AUTHORITY.test(host))

/** A target the hit path may answer: no `;` (the router reads a query there) and no `batch` parameter. */
const plainTarget = (url: string): boolean => {
  if (url.includes(";") || url.includes("#")) return false
  const query = url.indexOf("?")
  return query < 0 || !new URLSearchParams(url.slice(query + 1)).has("batch")
}

/** A header as the memo below holds it: absent is not empty. */
const held = (value: string | undefined): string => (value === undefined ? "\u0001" : `=${value}`)
const unheld = (text: string): string | undefined => (text === "\u0001" ? undefined : text.slice(1))

/**
 * The answer cache's key of a GET the hit path may answer (a data route, a plain target in origin
 * form: see above), null when it may not; worked out once per distinct target, Host, Accept and
 * scheme (a request line and headers hold no line break), as the router's own per-target work is.
 */
const hitKeyOf = recent(1024, (text) => {
  const [scheme, url, host, accept] = text.split("\n") as [string, string, string, string]
  const hostHeader = unheld(host)
  if (!isCacheableDataRequest("GET", url) || !plainTarget(url) || !originForm(hostHeader, url)) return null
  return answerKey(originalUrl(scheme, hostHeader, url), hostHeader, unheld(accept))
})

/**
 * The per-request part of a kept answer, the same for every kind (a GET here, an MCP tool call,
 * api/mcp/McpHit.ts): the per-IP token, then the key checked and one request of its quota counted;
 * `send` is given the quota headers when both allow it, else the router answers the request (and
 * counts a refused token). False: the token was refused at once, the caller hands it over.
 * `send` may throw: the request was counted, so it is not handed to the router but closed.
 */
export type HitGate = (
  request: IncomingMessage,
  response: ServerResponse,
  apiKey: string,
  send: (quota: Record<string, string>) => void,
  router: () => void,
) => boolean

/** A further Node-level answer (a POST of one path), made with the gate and the server's services. */
export interface PostHit<R> {
  readonly path: string
  readonly make: (gate: HitGate) => Effect.Effect<HitAnswer | null, never, R>
}

/** The Node-level answer of kept answers, with the server's services (see the module's comment); `post` the others. */
export const hitPathLayer = <R>(path: HitPath, limit: HitLimit | null, post?: PostHit<R>) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const cache = yield* AnswerCacheService
      const store = yield* SnapshotStore
      const keys = yield* KeyStore
      // the edge's clock for the buckets (tests hold it still); the caching middleware's for Cache-Control
      const clock = yield* Clock.Clock
      const context = yield* Effect.context<never>()
      const run = Effect.runCallbackWith(context)
      const trusted = parseNetworks(limit?.trustedProxies ?? [])
      if (!cache.enabled || (yield* numberSetting("FDS_HIT_PATH")) === 0) return

      const gate: HitGate = (request, response, apiKey, send, router) => {
        const checkKey = (): void => {
          run(keys.verifyAndConsume(apiKey), {
            onExit: (exit) => {
              if (Exit.isSuccess(exit) && exit.value?.quota.allowed) {
                try {
                  send(quotaHeaders(exit.value.quota))
                } catch (error) {
                  // counted already: not handed to the router, which would count it again
                  response.destroy(error instanceof Error ? error : new Error(String(error)))
                }
                return
              }
              // refused or not checked: the router answers it (not counted: only an allowed request is),
              // without asking a store that did not answer a second time
              if (Exit.isFailure(exit)) keyCheckFailed.add(request)
              router()
            },
          })
        }
        if (limit === null) {
          checkKey()
          return true
        }
        const client = nodeClientKey(request.socket.remoteAddress, request.headers["x-forwarded-for"] as string | undefined, trusted)
        const taken = limit.take(client, clock.currentTimeMillisUnsafe())
        if (taken === false) return false // the router refuses it (and counts the refusal)
        if (taken === true) {
          tokenTaken.add(request)
          checkKey()
          return true
        }
        taken.then(
          (served) => {
            if (served) {
              tokenTaken.add(request)
              checkKey()
            } else router()
          },
          () => router(),
        )
        return true
      }

      const getAnswer: HitAnswer = (request, response, router) => {
        const headers = request.headers
        if ((headers["content-length"] !== undefined && headers["content-length"] !== "0") || headers["transfer-encoding"] !== undefined) return false
        const url = request.url ?? "/"
        const scheme = (request.socket as { encrypted?: boolean }).encrypted === true ? "https" : "http"
        const key = hitKeyOf(`${scheme}\n${url}\n${held(headers.host)}\n${held(headers.accept)}`)
        if (key === null) return false
        const served = servedShelf(cache, store)
        if (served === null) return false
        const kept = served.shelf.answers.get(key)
        if (kept === undefined) return false
        const ready = kept.sendable.get(codingOf(kept.sent, headers["accept-encoding"]))
        if (ready === undefined) return false
        const apiKey = keyOf(request)
        if (apiKey === "") return false

        const send = (quota: Record<string, string>): void => {
          cache.hit(kept)
          cache.early++
          const cors = corsHeadersFor(headers.origin, url)
          const cacheControl = cacheControlOf(ready, "current", Date.now())
          if (ready.etag !== undefined && ifNoneMatchHits(headers["if-none-match"], ready.etag)) {
            response.writeHead(304, { ...notModifiedHeaders(ready, cacheControl), ...quota, ...cors })
            response.end()
            return
          }
          const body = ready.response.body
          response.writeHead(200, { ...ready.response.headers, "cache-control": cacheControl, ...quota, ...cors })
          response.end(body._tag === "Uint8Array" ? body.body : undefined)
        }
        return gate(request, response, apiKey, send, router)
      }
      const postAnswer = post === undefined ? null : yield* post.make(gate)
      const postPath = post?.path
      path.answer = (request, response, router) =>
        request.method === "GET"
          ? getAnswer(request, response, router)
          : request.method === "POST" && postAnswer !== null && request.url === postPath
            ? postAnswer(request, response, router)
            : false
    }),
  )
