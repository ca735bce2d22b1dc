/** Handlers of /health and /api/key/info. */
import { Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { KeyStore } from "../accounts/KeyStore.ts"
import { Api } from "../Api.ts"
import { CurrentKey } from "../Security.ts"
import { SnapshotStore } from "../SnapshotStore.ts"

export const PublicHandlers = HttpApiBuilder.group(Api, "public", (handlers) =>
  handlers.handle("health", () =>
    Effect.gen(function* () {
      const store = yield* SnapshotStore
      const loaded = store.current()
      if (loaded === null) return { status: "unavailable" as const, last_scraped_date: null, total_records: 0 }
      return { status: "ok" as const, last_scraped_date: loaded.reader.batchDate, total_records: loaded.totalRecords }
    }),
  ),
)

export const KeyHandlers = HttpApiBuilder.group(Api, "key", (handlers) =>
  handlers.handle("keyInfo", () =>
    Effect.gen(function* () {
      const key = yield* CurrentKey
      const keys = yield* KeyStore
      const today = yield* keys.usageToday(key.id).pipe(
        Effect.mapError(
          () =>
            new ServiceUnavailable({
              reason: "key_check_unavailable",
              message: "the API key could not be checked; retry later",
              retryAfter: 5,
            }),
        ),
      )
      return HttpApiSchema.withHeaders({
        body: {
          name: key.name,
          tier: key.tier,
          daily_quota: key.dailyQuota,
          // Keys without a daily limit (internal tier by default) are counted but never refused.
          quota_enforced: key.dailyQuota !== null,
          created_at: key.createdAt,
          requests_today: today,
        },
        headers: { "cache-control": "no-store" as const },
      })
    }),
  ),
)
