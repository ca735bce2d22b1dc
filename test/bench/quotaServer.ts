/**
 * A bench server for `benchQuota`: the real routes and stores, without the per-IP limit, either as
 * served (`counted`: the key's daily quota decided and counted by its atomic statement on every
 * request, the requests of one event-loop turn in one transaction) or with that statement replaced
 * by a constant answer (`uncounted`) given after the same wait for the end of the turn. Everything
 * else — key lookup and hash check, the quota headers, the route — is the same in both.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { createServer } from "node:http"
import { AccountsDb } from "../../api/accounts/AccountsDb.ts"
import { type KeyRecord, KeyStore } from "../../api/accounts/KeyStore.ts"
import { perTurn } from "../../api/accounts/PerTurn.ts"
import { JsonNotFound } from "../../api/NotFound.ts"
import { ApiRoutes, services } from "../../api/Server.ts"

const [dataDir, mode] = process.argv.slice(2)
if (dataDir === undefined || (mode !== "counted" && mode !== "uncounted")) {
  throw new Error("usage: quotaServer.ts DATA_DIR counted|uncounted")
}

const withoutQuotaStep = Layer.effect(
  KeyStore,
  AccountsDb.useSync((db) => {
    const real = KeyStore.make(db)
    return KeyStore.of({
      ...real,
      // the same wait for the end of the turn as the counted requests, without the transaction
      consume: perTurn((batch: ReadonlyArray<KeyRecord>) =>
        batch.map((key) =>
          Effect.succeed({ allowed: true, limit: key.dailyQuota, used: 0, remaining: key.dailyQuota, resetAt: 0, now: 0 }),
        ),
      ),
    })
  }),
)

const routes = Layer.mergeAll(mode === "counted" ? ApiRoutes : ApiRoutes.pipe(Layer.provide(withoutQuotaStep)), JsonNotFound)
const options = { dataDir, host: "127.0.0.1", port: 0 }

Layer.launch(
  HttpRouter.serve(routes, { disableLogger: true }).pipe(
    Layer.provide(services(options)),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  ),
).pipe(NodeRuntime.runMain)
