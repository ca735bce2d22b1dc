/**
 * The HttpApi floor for test/bench/profile.ts: effect's HttpApi (the layer our routes are built
 * with) serving one GET endpoint at the profiled path, answering fixed bytes, with none of our
 * middleware (no key, quota, caching, log, CORS). Between effect's bare router
 * (effectFloorServer.ts) and our server, it shows what declaring routes through HttpApi costs.
 *
 *   node test/bench/httpApiFloorServer.ts BODY_FILE /api/compare
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { HttpMiddleware, HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const body = readFileSync(process.argv[2]!)
const path = (process.argv[3] ?? "/floor") as `/${string}`
const Floor = HttpApi.make("floor").add(HttpApiGroup.make("floor").add(HttpApiEndpoint.get("floor", path, { success: Schema.Unknown })))
const Handlers = HttpApiBuilder.group(Floor, "floor", (handlers) =>
  handlers.handle("floor", () => Effect.succeed(HttpServerResponse.uint8Array(body, { contentType: "application/json" }) as unknown)),
)

Layer.launch(
  HttpRouter.serve(HttpApiBuilder.layer(Floor).pipe(Layer.provide(Handlers)), { disableLogger: true }).pipe(
    // as our server: no span per request
    Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen)(() => true)),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  ),
).pipe(NodeRuntime.runMain)
