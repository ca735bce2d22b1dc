/**
 * A bench server for `benchQuota`: the real routes and stores, without the per-IP limit, either as
 * served (`counted`: the key's daily quota decided and counted by its atomic statement on every
 * request, the requests of one event-loop turn in one transaction with their keys' rows) or with
 * that statement replaced by a constant answer (`uncounted`) given after the same wait for the end
 * of the turn, each key's row read once per turn too. Everything else — key lookup and hash check,
 * the quota headers, the route — is the same in both.
 */

import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { AccountsDb } from "../../accounts/AccountsDb.ts"
import { type KeyRecord, KeyStore } from "../../accounts/KeyStore.ts"
import { perTurn } from "../../accounts/PerTurn.ts"
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
    const unlimited = (record: KeyRecord) => ({
      record,
      quota: { allowed: true, limit: record.dailyQuota, used: 0, remaining: record.dailyQuota, resetAt: 0, now: 0 },
    })
    return KeyStore.of({
      ...real,
      // the same wait for the end of the turn, each key's row read once per turn, as the counted
      // requests; no counting statement, no transaction
      verifyAndConsume: perTurn((batch: ReadonlyArray<string>) => {
        const seen = new Map<string, KeyRecord | null>()
        return batch.map((key) => {
          let record = seen.get(key)
          if (record === undefined) {
            record = Effect.runSync(real.verify(key))
            seen.set(key, record)
          }
          return Effect.succeed(record === null ? null : unlimited(record))
        })
      }),
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
