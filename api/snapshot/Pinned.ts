/**
 * The batch a request reads, pinned once for the whole request by a middleware (PinSnapshot) and
 * handed to the handlers as a service (PinnedSnapshot). Handlers never take a lease themselves:
 * they `yield* PinnedSnapshot` (or `read`) and fail with domain errors.
 *
 * The lease is taken in the request's scope, after the key check (the groups declare PinSnapshot
 * inside ApiKeyAuth), and released when the answer has been written. A 404 from a file that
 * changed on disk since its check (`Lease.intact`) becomes the 503 snapshot_damaged here, in one
 * place: random bytes can hide a row, and an id that exists is never a 404.
 */
import { Context, Effect, Layer } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { ServiceUnavailable, ServiceUnavailableResponse } from "../../schemas/ApiErrors.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { type Lease, SnapshotStore, snapshotDamaged } from "./SnapshotStore.ts"

/** The snapshot pinned for this request. */
export class PinnedSnapshot extends Context.Service<PinnedSnapshot, Lease>()("fds/api/PinnedSnapshot") {}

/** Pins the current snapshot for the request (declared on every route that reads published data). */
export class PinSnapshot extends HttpApiMiddleware.Service<PinSnapshot, { provides: PinnedSnapshot; requires: SnapshotStore }>()(
  "fds/api/PinSnapshot",
  { error: ServiceUnavailableResponse },
) {}

export const noSnapshot = new ServiceUnavailable({
  reason: "snapshot_unavailable",
  message: "no published batch is available yet; retry later",
  retryAfter: 5,
})

/** Pins a lease on the current snapshot in the request's scope; a 404 from a file no longer intact answers 503. */
export const PinSnapshotLive = Layer.succeed(PinSnapshot)((httpEffect) =>
  Effect.gen(function* () {
    const store = yield* SnapshotStore
    const lease = yield* Effect.mapError(store.lease, () => noSnapshot)
    const response = yield* Effect.provideService(httpEffect, PinnedSnapshot, lease)
    if (response.status === 404 && !lease.intact()) return yield* snapshotDamaged
    return response
  }),
)

/** One synchronous read on the request's snapshot. */
export const read = <A>(f: (reader: SnapshotReader) => A): Effect.Effect<A, ServiceUnavailable, PinnedSnapshot> =>
  Effect.flatMap(PinnedSnapshot, (lease) => lease.read(f))
