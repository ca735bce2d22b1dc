/** Handlers of /health and /api/key/info. */

import { statSync } from "node:fs"
import { dirname, join } from "node:path"
import { Clock, Config, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { KeyStore } from "../../accounts/KeyStore.ts"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { CURRENT, inspectCurrent } from "../../snapshots/Pointer.ts"
import { type HealthInput, healthReasons, healthState, type PipelineStatus, readStatus, runReason, sourceState } from "../../snapshots/Status.ts"
import { Api } from "../Api.ts"
import { CurrentKey } from "../security/Security.ts"
import { type SnapshotHandle, SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { NOT_READY_RETRY_AFTER, Readiness } from "./Readiness.ts"

/** Hours after the end of the batch date before the data counts as stale (see snapshots/Status.ts). */
const StaleAfterHours = Config.Number("FDS_STALE_AFTER_HOURS").pipe(Config.withDefault(36))

const santiagoDay = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit" })

/** Each data set's freshness from STATUS.json, judged today (America/Santiago). */
const sourcesHealth = (status: PipelineStatus | null, nowMillis: number) => {
  const today = santiagoDay.format(new Date(nowMillis))
  return (status?.sources ?? []).map((s) => ({
    data_set: s.data_set,
    state: sourceState(s, today),
    cadence: s.cadence,
    latest_value_date: s.latest_value_date,
    last_received_at: s.last_received_at,
    how: s.how,
    waiting: s.waiting,
  }))
}

/** ok or degraded with its reasons, from the pipeline's STATUS.json, CURRENT next to the served snapshot and what the store found wrong. */
const servedHealth = (loaded: SnapshotHandle, faults: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const dir = dirname(loaded.reader.path)
    const current = inspectCurrent(dir)
    const since = statSync(join(dir, CURRENT), { throwIfNoEntry: false })?.mtimeMs ?? 0
    const status = readStatus(dir)
    const nowMillis = yield* Clock.currentTimeMillis
    const input: HealthInput = {
      served: { batchDate: loaded.reader.batchDate, file: loaded.file, fiUnavailable: loaded.fiUnavailable },
      current: current._tag === "Names" ? { file: current.file, sinceMillis: since } : null,
      faults,
      status,
      nowMillis,
      staleAfterHours: yield* StaleAfterHours.pipe(Effect.orElseSucceed(() => 36)),
      graceMillis: 10_000,
    }
    return { status: healthState(input), reasons: healthReasons(input), sources: sourcesHealth(status, nowMillis) }
  })

/** A probe's or /health's 503: its body as given, Retry-After, never cached. */
const notReadyAnswer = (body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, {
    status: 503,
    headers: { "retry-after": String(NOT_READY_RETRY_AFTER), "cache-control": "no-store" },
  })

const noStore = { headers: { "cache-control": "no-store" } }

export const PublicHandlers = HttpApiBuilder.group(Api, "public", (handlers) =>
  handlers
    .handle("health", () =>
      Effect.gen(function* () {
        const store = yield* SnapshotStore
        const notReady = yield* (yield* Readiness).reasons
        const loaded = store.current()
        const health =
          loaded === null
            ? {
                status: "unavailable" as const,
                last_scraped_date: null,
                batch_id: null,
                total_records: 0,
                // a first run that failed or was killed: said while nothing serves too
                reasons: [runReason(readStatus(store.dir))].filter((r): r is string => r !== null) as ReadonlyArray<string>,
                sources: [],
              }
            : {
                ...(yield* servedHealth(loaded, store.faults())),
                last_scraped_date: loaded.reader.batchDate,
                batch_id: batchIdOfFile(loaded.file),
                total_records: loaded.totalRecords,
              }
        if (notReady.length === 0) return health
        // the body says why as well: the readiness reasons join its own
        const reasons = [...health.reasons, ...notReady.filter((r) => !health.reasons.includes(r))]
        return notReadyAnswer({ ...health, status: "unavailable", reasons })
      }),
    )
    .handle("livez", () => Effect.succeed(HttpServerResponse.jsonUnsafe({ status: "alive" }, noStore)))
    .handle("readyz", () =>
      Effect.gen(function* () {
        const reasons = yield* (yield* Readiness).reasons
        if (reasons.length > 0) return notReadyAnswer({ status: "not_ready", reasons })
        return HttpServerResponse.jsonUnsafe({ status: "ready", reasons: [] }, noStore)
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
