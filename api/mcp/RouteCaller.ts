/**
 * The API's own routes, called in-process by the MCP tools: the same handlers, the same query
 * validation (a 422 names its parameter) and the same error shape, without a socket. Every route
 * a tool call reaches reads the snapshot the call pinned (its lease), so one call reads one
 * batch. The key was checked and counted once for the call (api/mcp/McpHttp.ts) or there is none
 * (stdio), so the routes' key middleware is a pass-through here. A tool's route answers from the
 * server's answer cache (api/snapshot/AnswerCache.ts) like an HTTP request, on the call's batch,
 * under keys of its own (`mcp <path?query>`): here the routes get no strict query check and another
 * request target, so an HTTP answer and a tool's never stand for each other.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type { KeyRecord } from "../../accounts/KeyStore.ts"
import { BatchesHandlers } from "../batches/Batches.ts"
import { ChangesHandlers } from "../batches/Changes.ts"
import { CatalogHandlers } from "../catalog/Catalog.ts"
import { FiHandlers } from "../fi/Fi.ts"
import { HoldersHandlers } from "../holders/Holders.ts"
import { FiReturnsLive } from "../fi/FiReturns.ts"
import { MarketHandlers } from "../market/Market.ts"
import { OffThreadRenderer } from "../market/OffThreadRender.ts"
import { ReturnsHandlers } from "../returns/Returns.ts"
import { ApiKeyAuth, CurrentKey } from "../security/Security.ts"
import { RequestValidationLive } from "../security/SecurityLive.ts"
import { AnswerCacheService } from "../snapshot/AnswerCache.ts"
import { PinCurrentSnapshotLive, PinnedRecord, PinSnapshotLive, pinRecord } from "../snapshot/Pinned.ts"
import { type Lease, SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { Readiness } from "../system/Readiness.ts"
import { PublicHandlers } from "../system/System.ts"
import { McpApi } from "./McpApi.ts"

/** No route reachable here reads the key: the tool call was authorised before it got here. */
const CHECKED_CALLER: KeyRecord = { id: 0, lookup: "mcp", name: "mcp", email: "", tier: "internal", dailyQuota: null, createdAt: "" }
const CheckedKey = Layer.succeed(ApiKeyAuth)(
  ApiKeyAuth.of({ apiKey: (httpEffect) => Effect.provideService(httpEffect, CurrentKey, CHECKED_CALLER) }),
)

/**
 * The lease of the call a route runs for. Provided per call: the routes run in the context their
 * router was built in, over the request's, so a store provided per call would not be the one they
 * read; this service is in no router's build context, so they see the call's.
 */
class CallLease extends Context.Service<CallLease, Lease>()("fds/api/mcp/CallLease") {}

/**
 * The store the router is built with: every lease its routes take is their call's (CallLease,
 * which the call releases), never the batch current when the route runs; the store's own lease
 * only outside a call (none is made here).
 */
const leasingCall = (store: SnapshotStore["Service"]): SnapshotStore["Service"] =>
  SnapshotStore.of({
    ...store,
    lease: Effect.flatMap(Effect.serviceOption(CallLease), (lease) => (Option.isSome(lease) ? Effect.succeed(lease.value) : store.lease)),
  })

const routes = HttpApiBuilder.layer(McpApi).pipe(
  Layer.provide([PublicHandlers, CatalogHandlers, ReturnsHandlers, MarketHandlers, FiHandlers, HoldersHandlers, BatchesHandlers, ChangesHandlers]),
  Layer.provide([CheckedKey, RequestValidationLive, FiReturnsLive, PinSnapshotLive, PinCurrentSnapshotLive]),
)

/** What a route answered: its HTTP status, its JSON body and its Retry-After (seconds) if any. */
export interface RouteAnswer {
  readonly status: number
  readonly body: unknown
  readonly retryAfter: number | null
}

export type Query = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const DECODER = new TextDecoder()

/** The body as JSON; null when it is not. */
const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * An answer without JSON. The router's own 404 (no route has this path: an id that is no path
 * segment, such as `.`) is the caller's: the API's 404 shape. Any other is a failure of ours
 * (every route reachable here answers JSON): the API's 500, and a line in the log naming the
 * route, its status and the start of its body.
 */
const notJson = (path: string, status: number, text: string): Effect.Effect<RouteAnswer> =>
  status === 404 && text === ""
    ? Effect.succeed({ status: 404, body: { error: "not_found", status: 404, message: `no resource at ${path}: check the ids given` }, retryAfter: null })
    : Effect.as(
        Effect.logError("mcp: a route answered no JSON").pipe(Effect.annotateLogs({ path, status, body: text.slice(0, 200) })),
        { status: 500, body: { error: "internal_error", status: 500, message: "the server failed to answer this call" }, retryAfter: null },
      )

/** Calls the API's data routes in-process. */
export class RouteCaller extends Context.Service<
  RouteCaller,
  {
    /** GET `path?query` on the snapshot of `lease`. */
    readonly get: (lease: Lease, path: string, query?: Query) => Effect.Effect<RouteAnswer>
  }
>()("fds/api/mcp/RouteCaller") {
  /** Needs what the routes need: the snapshot store and the off-thread renderer. */
  static readonly layer = Layer.effect(
    RouteCaller,
    Effect.gen(function* () {
      const store = yield* SnapshotStore
      const renderer = yield* OffThreadRenderer
      // /health's status: the server's readiness when there is a server, else (stdio) ready
      const readiness = Option.getOrElse(yield* Effect.serviceOption(Readiness), () => Readiness.of({ reasons: Effect.succeed([]) }))
      // the server's answer cache; none over stdio
      const answers = Option.getOrNull(yield* Effect.serviceOption(AnswerCacheService))
      // A router of its own: with the server's memo map the routes would land in the server's router.
      // The handlers run in the context they were built in, over the request's: they are built with
      // a store whose lease is the call's (CallLease).
      const routesStore = leasingCall(store)
      const app = yield* HttpRouter.toHttpEffect(routes.pipe(Layer.provide(NodeHttpServer.layerHttpServices))).pipe(
        Effect.provideService(Layer.CurrentMemoMap, Layer.makeMemoMapUnsafe()),
        Effect.provideService(SnapshotStore, routesStore),
      )
      const get = (lease: Lease, path: string, query: Query = {}) => {
        const search = new URLSearchParams()
        for (const [name, value] of Object.entries(query)) {
          if (value === undefined) continue
          for (const v of typeof value === "string" ? [value] : value) search.append(name, v)
        }
        const qs = search.size === 0 ? "" : `?${search}`
        const request = HttpServerRequest.fromWeb(new Request(`http://mcp.invalid${path}${qs}`, { headers: { accept: "application/json" } }))
        return app.pipe(
          Effect.catchCause((cause) => Effect.map(HttpServerError.causeResponse(cause), ([response]) => response)),
          Effect.provideService(HttpServerRequest.HttpServerRequest, request),
          Effect.provideService(PinnedRecord, pinRecord(answers?.enabled === true ? { cache: answers, key: `mcp ${path}${qs}` } : null)),
          Effect.provideService(CallLease, lease),
          // what the router's type asks per request; the one it was built with (the build's wins)
          Effect.provideService(SnapshotStore, routesStore),
          Effect.provideService(OffThreadRenderer, renderer),
          Effect.provideService(Readiness, readiness),
          Effect.scoped,
          Effect.flatMap((response) =>
            Effect.flatMap(
              // a route's JSON is bytes in hand (a Uint8Array body): decoded as they are, without a Web response around them
              response.body._tag === "Uint8Array"
                ? Effect.succeed(DECODER.decode(response.body.body))
                : Effect.promise(() => HttpServerResponse.toWeb(response).text()),
              (text): Effect.Effect<RouteAnswer> => {
                const body = parsed(text)
                if (body === null) return notJson(path, response.status, text)
                const retryAfter = Number(response.headers["retry-after"] ?? Number.NaN)
                return Effect.succeed({ status: response.status, body, retryAfter: Number.isInteger(retryAfter) ? retryAfter : null })
              },
            ),
          ),
        )
      }
      return RouteCaller.of({ get })
    }),
  )
}
