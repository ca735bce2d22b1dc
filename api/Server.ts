/** Wires the API: routes, handlers, the key store, the snapshot store and the Node HTTP server. */

import { join } from "node:path"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpMiddleware, HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AccountsLive, AccountsOnStore } from "../accounts/Accounts.ts"
import { AccountsDb, isPostgres } from "../accounts/AccountsDb.ts"
import { Api } from "./Api.ts"
import { AccountHandlers } from "./account/Account.ts"
import { AccountOriginLive } from "./account/AccountSession.ts"
import { BatchesHandlers } from "./batches/Batches.ts"
import { ChangesHandlers } from "./batches/Changes.ts"
import { DownloadsHandlers } from "./batches/Downloads.ts"
import { ReleaseKeyHandlers, ReleasesHandlers } from "./batches/Releases.ts"
import { CatalogHandlers } from "./catalog/Catalog.ts"
import { FiHandlers } from "./fi/Fi.ts"
import { FiReturnsLive } from "./fi/FiReturns.ts"
import { HoldersHandlers } from "./holders/Holders.ts"
import { httpCachingLayer } from "./http/Caching.ts"
import { HitPath, hitPathLayer } from "./http/HitPath.ts"
import { mcpHit } from "./mcp/McpHit.ts"
import { ServiceMetrics } from "./http/Metrics.ts"
import { DEFAULT_METRICS_ALLOW, instrumentedKeyStore, metricsRoute } from "./http/MetricsRoute.ts"
import { type AccessLogSink, loggedServer } from "./http/RequestLog.ts"
import { routeTemplate } from "./http/RouteTemplate.ts"
import { type ErrorLogSink, serverErrorsLayer } from "./http/ServerErrors.ts"
import { MarketHandlers } from "./market/Market.ts"
import { OffThreadRenderer } from "./market/OffThreadRender.ts"
import { McpCalls } from "./mcp/McpCalls.ts"
import { McpRoute } from "./mcp/McpHttp.ts"
import { RouteCaller } from "./mcp/RouteCaller.ts"
import { BodyLimit, JsonNotFound, JsonUnmatched, OPENAPI_PATH } from "./NotFound.ts"
import type { ConnectionLimits } from "./ratelimit/ConnectionGuard.ts"
import { type EdgeOptions, edgeLayer, type TakeToken } from "./ratelimit/Edge.ts"
import { sharedBuckets } from "./ratelimit/SharedBuckets.ts"
import { TokenBuckets } from "./ratelimit/TokenBucket.ts"
import { ReturnsHandlers } from "./returns/Returns.ts"
import { ApiKeyAuthLive, RequestValidationLive } from "./security/SecurityLive.ts"
import { AnswerCacheService } from "./snapshot/AnswerCache.ts"
import { answerWarmLayer } from "./snapshot/AnswerWarm.ts"
import type { FleetSettings } from "./snapshot/FleetMember.ts"
import { PinCurrentSnapshotLive, PinSnapshotLive } from "./snapshot/Pinned.ts"
import { SnapshotStore } from "./snapshot/SnapshotStore.ts"
import { SwapWarm, warmSnapshot } from "./snapshot/Warm.ts"
import { DrainState } from "./system/Drain.ts"
import { FleetReadiness, Readiness } from "./system/Readiness.ts"
import { KeyHandlers, PublicHandlers } from "./system/System.ts"
import { DocsRoutes } from "./web/DocsRoutes.ts"
import { LandingRoutes } from "./web/LandingRoutes.ts"
import { RegisterRoutes } from "./web/RegisterRoutes.ts"
import { FeedRoutes } from "./webhooks/EventsFeed.ts"
import { WebhooksHandlers } from "./webhooks/Webhooks.ts"
import { withJsonLogs } from "../snapshots/Log.ts"

export interface ServerOptions extends EdgeOptions, ConnectionLimits {
  readonly dataDir: string
  readonly host: string
  /** 0 = an ephemeral port (tests). */
  readonly port: number
  readonly pollMillis?: number
  readonly drainMillis?: number
  /** Where the JSON access log lines go (default: stdout). */
  readonly accessLog?: AccessLogSink
  /** Where the JSON error lines of failed requests go (default: stderr). */
  readonly errorLog?: ErrorLogSink
  /** The fleet (FDS_ACCOUNTS_URL's PostgreSQL decides the current batch); null: this process alone. */
  readonly fleet?: FleetSettings | null
  /** The drain `serve` begins on SIGTERM (api/system/Drain.ts); readiness fails while it runs. */
  readonly drain?: DrainState
  /** The fleet's part of readiness; default: always ready. */
  readonly fleetReadiness?: Layer.Layer<FleetReadiness, never, AccountsDb | SnapshotStore>
  /** Who may read /metrics without an internal-tier key (FDS_METRICS_ALLOW); default loopback. */
  readonly metricsAllow?: ReadonlyArray<string>
  /** A PostgreSQL accounts store unreachable at start is waited for (the server); default: fail. */
  readonly waitForAccountsStore?: boolean
  /** The server's metrics; default: a registry of its own. */
  readonly metrics?: ServiceMetrics
}

export const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: OPENAPI_PATH }).pipe(
  Layer.provide([
    PublicHandlers,
    KeyHandlers,
    CatalogHandlers,
    ReturnsHandlers,
    MarketHandlers,
    FiHandlers,
    HoldersHandlers,
    BatchesHandlers,
    ChangesHandlers,
    AccountHandlers,
    DownloadsHandlers,
    ReleasesHandlers,
    ReleaseKeyHandlers,
    WebhooksHandlers,
  ]),
  Layer.provide([ApiKeyAuthLive, RequestValidationLive, AccountOriginLive, FiReturnsLive, PinSnapshotLive, PinCurrentSnapshotLive]),
)

const snapshotStore = (options: ServerOptions, metrics?: ServiceMetrics, swapWarm?: SwapWarm) =>
  SnapshotStore.layer({
    dir: join(options.dataDir, "snapshots"),
    pollMillis: options.pollMillis ?? 2000,
    drainMillis: options.drainMillis ?? 30_000,
    // the server's: the compare rows, then the hottest answers (answerWarmLayer attaches them)
    warm: swapWarm?.warm ?? warmSnapshot,
    ...(swapWarm === undefined ? {} : { prepare: swapWarm.prepare }),
    fleet: options.fleet ?? null,
    ...(metrics === undefined ? {} : { events: metrics.snapshotEvents }),
  })

/** /mcp: the tools, which call the routes above in-process (api/mcp/). */
export const McpRoutes = McpRoute.pipe(Layer.provide(McpCalls.layer), Layer.provide(RouteCaller.layer))

/** Everything the routes need that lives outside the HTTP layer. */
export const services = (options: ServerOptions) =>
  Readiness.layer(options.drain ?? new DrainState(), { lastFailureMillis: 0, lastSuccessMillis: 0 }).pipe(
    Layer.provide(options.fleetReadiness ?? FleetReadiness.layer),
    Layer.provideMerge(Layer.mergeAll(AccountsLive(options.dataDir), snapshotStore(options), OffThreadRenderer.layer)),
  )

/**
 * No span per request: the API has no tracing backend; with request spans disabled (and no
 * middleware around the application) effect's HTTP server runs each request in one frame. A
 * tracing backend added later must lift this.
 */
const NoRequestSpans = Layer.succeed(HttpMiddleware.TracerDisabledWhen)(() => true)

/**
 * The per-IP limit: the fleet's buckets in the accounts store when it is PostgreSQL (unless
 * FDS_RATE_LIMIT_STORE=process), else this process's own; refusals counted.
 */
const edge = (options: ServerOptions, metrics: ServiceMetrics, hits: HitPath) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const db = yield* AccountsDb
      const store = options.rateLimitStore ?? (isPostgres(db) ? "shared" : "process")
      const limit = options.rateLimit
      const shared = store === "shared" && limit !== undefined && isPostgres(db) ? yield* sharedBuckets(db, limit) : undefined
      // one set of buckets for the router's edge and the hit path (api/http/HitPath.ts)
      const local = limit === undefined || shared !== undefined ? undefined : new TokenBuckets(limit)
      const take: TakeToken | undefined = shared ?? (local === undefined ? undefined : (key, now) => local.take(key, now))
      return Layer.mergeAll(
        edgeLayer(options, { rateLimited: () => metrics.rateLimited(), take }),
        hitPathLayer(hits, take === undefined ? null : { take, trustedProxies: options.trustedProxies ?? [] }, mcpHit),
      )
    }),
  )

/** The scrape reads the served batch and readiness from the running services. */
const watchedByMetrics = (metrics: ServiceMetrics, drain: DrainState, snapshotsDir: string) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const store = yield* SnapshotStore
      const readiness = yield* Readiness
      metrics.watchAnswers(yield* AnswerCacheService)
      metrics.watch({
        current: () => store.current(),
        snapshotsDir,
        notReady: () => Effect.runPromise(withJsonLogs(readiness.reasons)),
        draining: () => drain.draining,
      })
    }),
  )

/**
 * The HTTP server; its HttpServer service (with the bound address) stays in the output for tests.
 * The snapshot store (the first snapshot and its check, up to a second at full size) and the
 * accounts store (its connection and tables) are built before the port is bound: a request
 * accepted before the routes are attached gets no answer at all. The accounts services come
 * after: their default public URL is the bound address.
 * The global middlewares wrap the routes in the order they are registered, the first outermost:
 * the JSON 500 and its error line (serverErrorsLayer) are registered before all the others, so a
 * failure in any of them, or in any route, is answered and logged.
 */
export const ServerLive = (options: ServerOptions) => {
  const metrics = options.metrics ?? new ServiceMetrics()
  const drain = options.drain ?? new DrainState()
  const swapWarm = new SwapWarm()
  const hits = new HitPath()
  const readiness = Readiness.layer(drain, metrics.quotaStore).pipe(Layer.provide(options.fleetReadiness ?? FleetReadiness.layer))
  const observe = (method: string, url: string, status: number, seconds: number) =>
    metrics.answered(routeTemplate(method, url), method, status, seconds)
  return HttpRouter.serve(
    Layer.mergeAll(
      ApiRoutes,
      McpRoutes,
      RegisterRoutes,
      DocsRoutes,
      LandingRoutes,
      FeedRoutes,
      metricsRoute(metrics, options.metricsAllow ?? DEFAULT_METRICS_ALLOW),
      edge(options, metrics, hits),
      JsonNotFound,
      JsonUnmatched,
      httpCachingLayer,
      watchedByMetrics(metrics, drain, join(options.dataDir, "snapshots")),
      answerWarmLayer(swapWarm),
    ).pipe(Layer.provide(serverErrorsLayer(options.errorLog))),
    { disableLogger: true },
  ).pipe(
    Layer.provide(NoRequestSpans),
    Layer.provide(BodyLimit),
    Layer.provide(readiness),
    Layer.provide(instrumentedKeyStore(metrics)),
    Layer.provide(AccountsOnStore(options.dataDir)),
    // after the port is bound: a store that is waited for (waitForAccountsStore) leaves the start
    // answering 503 "starting" (and /livez 200) meanwhile (api/http/RequestLog.ts)
    Layer.provide(AccountsDb.layer(options.dataDir, { waitForStore: options.waitForAccountsStore === true })),
    // the request id and the access log are added at the Node level (api/http/RequestLog.ts)
    Layer.provideMerge(NodeHttpServer.layer(loggedServer(options.accessLog, options, observe, hits), { port: options.port, host: options.host })),
    Layer.provide(Layer.mergeAll(snapshotStore(options, metrics, swapWarm), OffThreadRenderer.layer, AnswerCacheService.layer)),
  )
}
