/**
 * Runs an FI handler's reads on the pinned snapshot, but only when its batch has FI data: a batch
 * whose FI part was missing or failed its checks answers 503 (`fi_unavailable`, with Retry-After)
 * on every FI route, while the FM routes keep answering from the same snapshot.
 */
import { Effect } from "effect"
import { BadRequest, NotFound, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { type FiAvailability, fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { type PinnedSnapshot, read } from "./Pinned.ts"
import { withSnapshot } from "./Snapshot.ts"
import type { Lease } from "./SnapshotStore.ts"

/** FI data only comes back with another batch; an hour is a polite time to look again. */
export const FI_RETRY_AFTER_SECONDS = 3600

export const fiUnavailable = (reason: string): ServiceUnavailable =>
  new ServiceUnavailable({
    reason: "fi_unavailable",
    message: `investment fund and ETF data is unavailable in the published batch (${reason}); mutual fund routes still answer`,
    retryAfter: FI_RETRY_AFTER_SECONDS,
  })

/** Fails with 503 fi_unavailable when the request's batch has no FI data. */
export const requireFi: Effect.Effect<void, ServiceUnavailable, PinnedSnapshot> = Effect.flatMap(
  read((r): FiAvailability => fiCatalog(r).availability),
  (availability) => (availability.available ? Effect.void : Effect.fail(fiUnavailable(availability.reason))),
)

/** Like withSnapshot, failing with fi_unavailable when the snapshot has no FI data. */
export const withFiSnapshot = <A, E, R>(
  use: (lease: Lease) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E | ServiceUnavailable, R | PinnedSnapshot> =>
  withSnapshot(
    (lease): Effect.Effect<A, E | ServiceUnavailable, R> =>
      Effect.flatMap(
        lease.read((r): FiAvailability => fiCatalog(r).availability),
        (availability): Effect.Effect<A, E | ServiceUnavailable, R> =>
          availability.available ? use(lease) : Effect.fail(fiUnavailable(availability.reason)),
      ),
  )

/** What an FI read may answer instead of its value. */
export type FiReadFailure = NotFound | BadRequest

const isFailure = (x: unknown): x is FiReadFailure => x instanceof NotFound || x instanceof BadRequest

/** One synchronous read on the pinned snapshot with FI data; a returned NotFound or BadRequest fails the request. */
export const readFi = <A>(
  f: (reader: SnapshotReader) => A,
): Effect.Effect<Exclude<A, FiReadFailure>, Extract<A, FiReadFailure> | ServiceUnavailable, PinnedSnapshot> =>
  withFiSnapshot(
    (lease): Effect.Effect<Exclude<A, FiReadFailure>, Extract<A, FiReadFailure> | ServiceUnavailable> =>
      Effect.flatMap(lease.read(f), (a) =>
        isFailure(a) ? Effect.fail(a as Extract<A, FiReadFailure>) : Effect.succeed(a as Exclude<A, FiReadFailure>),
      ),
  )
