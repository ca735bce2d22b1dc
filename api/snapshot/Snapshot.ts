/** Runs a handler's reads on the snapshot pinned for the request. */
import { Effect, Predicate } from "effect"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { type Lease, SnapshotStore, snapshotDamaged } from "./SnapshotStore.ts"

const noSnapshot = new ServiceUnavailable({
  reason: "snapshot_unavailable",
  message: "no published batch is available yet; retry later",
  retryAfter: 5,
})

/**
 * Pins the current snapshot for the request; reads go through `lease.read`. A "not found" is
 * answered only from a file still as it was checked: random bytes in a file can hide a row
 * without any error, and an id that exists is never a 404 (503 instead, while it is checked again).
 */
export const withSnapshot = <A, E, R>(
  use: (lease: Lease) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E | ServiceUnavailable, R | SnapshotStore> =>
  Effect.scoped(
    Effect.flatMap(SnapshotStore, (store) =>
      Effect.flatMap(Effect.mapError(store.lease, () => noSnapshot), (lease) =>
        Effect.mapError(use(lease), (e): E | ServiceUnavailable => (Predicate.isTagged(e, "NotFound") && !lease.intact() ? snapshotDamaged : e)),
      ),
    ),
  )

/** One synchronous read on the pinned snapshot. */
export const readSnapshot = <A>(f: (reader: SnapshotReader, lease: Lease) => A) =>
  withSnapshot((lease) => lease.read((reader) => f(reader, lease)))
