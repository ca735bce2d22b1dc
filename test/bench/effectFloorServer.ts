/**
 * The framework's floor for test/bench/profile.ts: effect's HttpRouter on @effect/platform-node
 * answering fixed bytes on every GET, with none of our layers (no key, quota, caching, log, CORS).
 * Between plain node:http and our server, it shows what the HTTP stack itself costs per request.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const body = readFileSync(process.argv[2]!)
const route = HttpRouter.add("GET", "/*", HttpServerResponse.uint8Array(body, { contentType: "application/json" }))

Layer.launch(
  HttpRouter.serve(route, { disableLogger: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  ),
).pipe(NodeRuntime.runMain)
