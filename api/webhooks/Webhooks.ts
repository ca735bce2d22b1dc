/** Handlers of /api/webhooks: the key's endpoints through the Webhooks service (accounts/Webhooks.ts). */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AccountsUnavailable } from "../../accounts/AccountsDb.ts"
import { Webhooks } from "../../accounts/Webhooks.ts"
import { accountsUnavailable } from "../account/AccountSession.ts"
import { Api } from "../Api.ts"
import { CurrentKey } from "../security/Security.ts"

const withKey = <A, E, R>(f: (webhooks: Webhooks["Service"], keyId: number) => Effect.Effect<A, E | AccountsUnavailable, R>) =>
  Effect.gen(function* () {
    const key = yield* CurrentKey
    const webhooks = yield* Webhooks
    return yield* f(webhooks, key.id).pipe(
      Effect.catchIf(
        (e): e is AccountsUnavailable => e instanceof AccountsUnavailable,
        () => Effect.fail(accountsUnavailable()),
      ),
    )
  })

export const WebhooksHandlers = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  handlers
    .handle("createWebhook", ({ payload }) => withKey((w, key) => w.create(key, payload.url, payload.events)))
    .handle("webhooks", () => withKey((w, key) => Effect.map(w.list(key), (data) => ({ data }))))
    .handle("deleteWebhook", ({ params }) => withKey((w, key) => w.remove(key, params.webhook_id)))
    .handle("webhookDeliveries", ({ params }) => withKey((w, key) => Effect.map(w.deliveries(key, params.webhook_id), (data) => ({ data }))))
    .handle("testWebhook", ({ params }) => withKey((w, key) => w.test(key, params.webhook_id))),
)
