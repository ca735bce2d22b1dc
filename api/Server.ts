/** Wires the API: routes, handlers, the key store, the snapshot store and the Node HTTP server. */
import { NodeHttpServer } from "@effect/platform-node"
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { createServer } from "node:http"
import { join } from "node:path"
import { KeyStore } from "./accounts/KeyStore.ts"
import { Api } from "./Api.ts"
import { CatalogHandlers } from "./handlers/Catalog.ts"
import { ApiKeyAuthLive, RequestValidationLive } from "./handlers/Security.ts"
import { KeyHandlers, PublicHandlers } from "./handlers/System.ts"
import { JsonNotFound } from "./NotFound.ts"
import { SnapshotStore } from "./SnapshotStore.ts"

export interface ServerOptions {
  readonly dataDir: string
  readonly host: string
  /** 0 = an ephemeral port (tests). */
  readonly port: number
  readonly pollMillis?: number
  readonly drainMillis?: number
}

export const ApiRoutes = HttpApiBuilder.layer(Api, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([PublicHandlers, KeyHandlers, CatalogHandlers]),
  Layer.provide([ApiKeyAuthLive, RequestValidationLive]),
)

/** Everything the routes need that lives outside the HTTP layer. */
export const services = (options: ServerOptions) =>
  Layer.mergeAll(
    KeyStore.layerSqlite(join(options.dataDir, "accounts.sqlite")),
    SnapshotStore.layer({
      dir: join(options.dataDir, "snapshots"),
      pollMillis: options.pollMillis ?? 2000,
      drainMillis: options.drainMillis ?? 30_000,
    }),
  )

/** The HTTP server; its HttpServer service (with the bound address) stays in the output for tests. */
export const ServerLive = (options: ServerOptions) =>
  HttpRouter.serve(Layer.mergeAll(ApiRoutes, JsonNotFound), { disableLogger: true }).pipe(
    Layer.provide(services(options)),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host })),
  )
