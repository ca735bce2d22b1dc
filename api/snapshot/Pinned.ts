/**
 * The batch a request reads, pinned once for the whole request by a middleware (PinSnapshot) and
 * handed to the handlers as a service (PinnedSnapshot). Handlers never take a lease themselves:
 * they `yield* PinnedSnapshot` (or `read`) and fail with domain errors.
 *
 * On every data route a request may name a batch, `?batch=<batch_id>` (schemas/Batches.ts): it is
 * read here and nowhere else. Without it the request reads the current batch; with it, that batch
 * as it was published (SnapshotStore.leaseBatch: the current lease when it is the current batch,
 * else its past snapshot), so every route answers from a past batch with no code of its own. A
 * malformed id is a 422 naming `batch`, an unknown one a 404, one whose file retention removed a
 * 410 (batch_not_retained). Routes that must read the current batch whatever the query says (an
 * account's watchlist) declare PinCurrentSnapshot instead.
 *
 * The lease is taken in the request's scope, after the key check (the groups declare PinSnapshot
 * inside ApiKeyAuth), and released when the answer has been written. A 404 from a file that
 * changed on disk since its check (`Lease.intact`) becomes the 503 snapshot_damaged here, in one
 * place: random bytes can hide a row, and an id that exists is never a 404. The lease is also
 * recorded for the caching middleware (PinnedRecord), which gives the answer its ETag.
 */
import { Context, Effect, Layer, Option } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import {
  BatchNotRetainedResponse,
  InvalidParameter,
  InvalidParameterResponse,
  NotFoundResponse,
  ServiceUnavailable,
  ServiceUnavailableResponse,
} from "../../schemas/ApiErrors.ts"
import { BATCH_ID_RULE, isBatchId } from "../../schemas/Batches.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import type { AnswerCache, CachedAnswer } from "./AnswerCache.ts"
import { type Lease, SnapshotStore, snapshotDamaged } from "./SnapshotStore.ts"

/** The snapshot pinned for this request. */
export class PinnedSnapshot extends Context.Service<PinnedSnapshot, Lease>()("fds/api/PinnedSnapshot") {}

/** The query parameter naming the batch a data route answers from. */
export const BATCH_PARAMETER = "batch"

/**
 * Pins the batch the request names, or the current one (declared on every data route). Its errors
 * are each such route's: OpenAPI lists them, and `batch` as a query parameter (BatchParameter.ts).
 */
export class PinSnapshot extends HttpApiMiddleware.Service<PinSnapshot, { provides: PinnedSnapshot; requires: SnapshotStore }>()(
  "fds/api/PinSnapshot",
  { error: [ServiceUnavailableResponse, NotFoundResponse, BatchNotRetainedResponse, InvalidParameterResponse] },
) {}

/** Pins the current snapshot whatever the query holds (routes that are not data routes, such as the watchlist's). */
export class PinCurrentSnapshot extends HttpApiMiddleware.Service<
  PinCurrentSnapshot,
  { provides: PinnedSnapshot; requires: SnapshotStore }
>()("fds/api/PinCurrentSnapshot", { error: ServiceUnavailableResponse }) {}

/**
 * Where the lease of a request is recorded for the caching middleware (api/http/Caching.ts), which
 * provides one per request: the ETag is that of the batch that answered, and a request that named
 * its batch gets an immutable Cache-Control.
 */
export interface PinRecord {
  lease: Lease | null
  named: boolean
  /**
   * The answer cache (AnswerCache.ts) and this request's key in it, when its answer may be kept
   * (a GET or HEAD of a data route, the cache on); null otherwise.
   */
  readonly answers: { readonly cache: AnswerCache; readonly key: string } | null
  /** The answer kept for this request: the one it was answered from (a hit) or the one its route's answer became. */
  answer: CachedAnswer | null
  /** Headers the route set at send time (a page's Link), kept with its answer. */
  readonly sendHeaders: Record<string, string>
}

/** A record for a request whose answer is not kept. */
export const pinRecord = (answers: PinRecord["answers"] = null): PinRecord => ({
  lease: null,
  named: false,
  answers,
  answer: null,
  sendHeaders: {},
})
export class PinnedRecord extends Context.Service<PinnedRecord, PinRecord>()("fds/api/PinnedRecord") {}

export const noSnapshot = new ServiceUnavailable({
  reason: "snapshot_unavailable",
  message: "no published batch is available yet; retry later",
  retryAfter: 5,
})

/**
 * Why the current batch cannot be pinned: out of step with the fleet (it does not hold the fleet's
 * current batch: the balancer sends the retry elsewhere) or nothing served.
 */
export const noCurrent = (store: SnapshotStore["Service"]): ServiceUnavailable => {
  const problem = store.fleetProblem()
  return problem === null
    ? noSnapshot
    : new ServiceUnavailable({ reason: "not_in_step", message: `${problem}; retry (another replica answers)`, retryAfter: 1 })
}

const REPEATED = "given more than once; send it once"

/** The batch id the request names: none, or its text; a 422 naming `batch` when it is not one. */
const namedBatch = Effect.gen(function* () {
  const query = yield* Effect.serviceOption(HttpServerRequest.ParsedSearchParams)
  const value = Option.isSome(query) ? query.value[BATCH_PARAMETER] : undefined
  if (value === undefined) return null
  if (typeof value !== "string") {
    return yield* new InvalidParameter({
      message: `batch: ${REPEATED}`,
      parameter: BATCH_PARAMETER,
      issues: [{ path: [BATCH_PARAMETER], message: REPEATED }],
    })
  }
  if (!isBatchId(value)) {
    const rule = `expected ${BATCH_ID_RULE}`
    return yield* new InvalidParameter({
      message: `batch: ${rule}`,
      parameter: BATCH_PARAMETER,
      issues: [{ path: [BATCH_PARAMETER], message: rule }],
    })
  }
  return value
})

/**
 * A header the route sets at send time (after the middlewares, as a page's Link): recorded too,
 * so that an answer kept by the cache is sent again with it.
 */
export const sendHeader = (name: string, value: string) =>
  Effect.gen(function* () {
    const record = yield* Effect.serviceOption(PinnedRecord)
    if (Option.isSome(record)) record.value.sendHeaders[name] = value
    yield* HttpEffect.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeader(response, name, value)))
  })

/**
 * Runs the route on `lease` (recorded for the caching middleware); a 404 from a file no longer
 * intact answers 503. With `keep`, an answer kept for this request on this batch is sent again
 * without running the route, and a route's answer that may be kept is (AnswerCache.ts).
 */
const onLease = <E, R>(
  httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | PinnedSnapshot>,
  lease: Lease,
  named: boolean,
  keep: boolean,
) =>
  Effect.gen(function* () {
    const record = Option.getOrNull(yield* Effect.serviceOption(PinnedRecord))
    if (record !== null) {
      record.lease = lease
      record.named = named
    }
    const answers = keep ? (record?.answers ?? null) : null
    const shelf = answers === null ? null : answers.cache.shelfOn(lease.memo)
    if (record !== null && answers !== null && shelf !== null) {
      const kept = answers.cache.get(shelf, answers.key)
      if (kept !== undefined) {
        // the headers the route set at send time are on the kept response already
        record.answer = kept
        return kept.sent
      }
    }
    const response = yield* Effect.provideService(httpEffect, PinnedSnapshot, lease)
    if (response.status === 404 && !lease.intact()) return yield* snapshotDamaged
    if (record !== null && answers !== null && shelf !== null) {
      record.answer = answers.cache.put(shelf, answers.key, response, { ...record.sendHeaders })
    }
    return response
  })

/** Pins the named batch, or the current one, in the request's scope. */
export const PinSnapshotLive = Layer.succeed(PinSnapshot)((httpEffect) =>
  Effect.gen(function* () {
    const store = yield* SnapshotStore
    const batch = yield* namedBatch
    const lease = batch === null ? yield* Effect.mapError(store.lease, () => noCurrent(store)) : yield* store.leaseBatch(batch)
    return yield* onLease(httpEffect, lease, batch !== null, true)
  }),
)

/** Pins the current snapshot in the request's scope. */
export const PinCurrentSnapshotLive = Layer.succeed(PinCurrentSnapshot)((httpEffect) =>
  Effect.gen(function* () {
    const store = yield* SnapshotStore
    const lease = yield* Effect.mapError(store.lease, () => noCurrent(store))
    return yield* onLease(httpEffect, lease, false, false)
  }),
)

/** One synchronous read on the request's snapshot. */
export const read = <A>(f: (reader: SnapshotReader) => A): Effect.Effect<A, ServiceUnavailable, PinnedSnapshot> =>
  Effect.flatMap(PinnedSnapshot, (lease) => lease.read(f))
