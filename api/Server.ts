/** Wires the API: routes, handlers, the key store, the snapshot store and the Node HTTP server. */

import { join } from "node:path"
import { NodeHttpServer } from "@effect/platform-node"
import { Layer } from "effect"
import { HttpMiddleware, HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AccountsLive, AccountsOnStore, accountsStore } from "../accounts/Accounts.ts"
import { Api } from "./Api.ts"
import { AccountHandlers } from "./account/Account.ts"
import { AccountOriginLive } from "./account/AccountSession.ts"
import { BatchesHandlers } from "./batches/Batches.ts"
import { ChangesHandlers } from "./batches/Changes.ts"
import { DownloadsHandlers } from "./batches/Downloads.ts"
import { CatalogHandlers } from "./catalog/Catalog.ts"
import { FiHandlers } from "./fi/Fi.ts"
import { FiReturnsLive } from "./fi/FiReturns.ts"
import { httpCachingLayer } from "./http/Caching.ts"
import { type AccessLogSink, loggedServer } from "./http/RequestLog.ts"
import { type ErrorLogSink, serverErrorsLayer } from "./http/ServerErrors.ts"
import { MarketHandlers } from "./market/Market.ts"
import { OffThreadRenderer } from "./market/OffThreadRender.ts"
import { McpCalls } from "./mcp/McpCalls.ts"
import { McpRoute } from "./mcp/McpHttp.ts"
import { RouteCaller } from "./mcp/RouteCaller.ts"
import { BodyLimit, JsonNotFound, JsonUnmatched, OPENAPI_PATH } from "./NotFound.ts"
import type { ConnectionLimits } from "./ratelimit/ConnectionGuard.ts"
import { type EdgeOptions, edgeLayer } from "./ratelimit/Edge.ts"
import { ReturnsHandlers } from "./returns/Returns.ts"
import { ApiKeyAuthLive, RequestValidationLive } from "./security/SecurityLive.ts"
import { PinCurrentSnapshotLive, PinSnapshotLive } from "./snapshot/Pinned.ts"
import type { FleetSettings } from "./snapshot/FleetMember.ts"
import { SnapshotStore } from "./snapshot/SnapshotStore.ts"
import { warmSnapshot } from "./snapshot/Warm.ts"
import { KeyHandlers, PublicHandlers } from "./system/System.ts"
import { DocsRoutes } from "./web/DocsRoutes.ts"
import { LandingRoutes } from "./web/LandingRoutes.ts"
import { RegisterRoutes } from "./web/RegisterRoutes.ts"

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
}

export const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: OPENAPI_PATH }).pipe(
  Layer.provide([
    PublicHandlers,
    KeyHandlers,
    CatalogHandlers,
    ReturnsHandlers,
    MarketHandlers,
    FiHandlers,
    BatchesHandlers,
    ChangesHandlers,
    AccountHandlers,
    DownloadsHandlers,
  ]),
  Layer.provide([ApiKeyAuthLive, RequestValidationLive, AccountOriginLive, FiReturnsLive, PinSnapshotLive, PinCurrentSnapshotLive]),
)

const snapshotStore = (options: ServerOptions) =>
  SnapshotStore.layer({
    dir: join(options.dataDir, "snapshots"),
    pollMillis: options.pollMillis ?? 2000,
    drainMillis: options.drainMillis ?? 30_000,
    warm: warmSnapshot,
    fleet: options.fleet ?? null,
  })

/** /mcp: the tools, which call the routes above in-process (api/mcp/). */
export const McpRoutes = McpRoute.pipe(Layer.provide(McpCalls.layer), Layer.provide(RouteCaller.layer))

/** Everything the routes need that lives outside the HTTP layer. */
export const services = (options: ServerOptions) =>
  Layer.mergeAll(AccountsLive(options.dataDir), snapshotStore(options), OffThreadRenderer.layer)

/**
 * No span per request: the API has no tracing backend; with request spans disabled (and no
 * middleware around the application) effect's HTTP server runs each request in one frame. A
 * tracing backend added later must lift this.
 */
const NoRequestSpans = Layer.succeed(HttpMiddleware.TracerDisabledWhen)(() => true)

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
export const ServerLive = (options: ServerOptions) =>
  HttpRouter.serve(
    Layer.mergeAll(ApiRoutes, McpRoutes, RegisterRoutes, DocsRoutes, LandingRoutes, edgeLayer(options), JsonNotFound, JsonUnmatched, httpCachingLayer).pipe(
      Layer.provide(serverErrorsLayer(options.errorLog)),
    ),
    { disableLogger: true },
  ).pipe(
    Layer.provide(NoRequestSpans),
    Layer.provide(BodyLimit),
    Layer.provide(AccountsOnStore(options.dataDir)),
    // the request id and the access log are added at the Node level (api/http/RequestLog.ts)
    Layer.provideMerge(NodeHttpServer.layer(loggedServer(options.accessLog, options), { port: options.port, host: options.host })),
    Layer.provide(Layer.mergeAll(snapshotStore(options), accountsStore(options.dataDir), OffThreadRenderer.layer)),
  )
