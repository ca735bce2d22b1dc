/** Runs a handler's reads on the snapshot pinned for the request. */
import { Effect } from "effect"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { type Lease, SnapshotStore } from "../SnapshotStore.ts"

const noSnapshot = new ServiceUnavailable({
  reason: "snapshot_unavailable",
  message: "no published batch is available yet; retry later",
  retryAfter: 5,
})

/** Pins the current snapshot for the request; reads go through `lease.read`. */
export const withSnapshot = <A, E, R>(
  use: (lease: Lease) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E | ServiceUnavailable, R | SnapshotStore> =>
  Effect.scoped(
    Effect.flatMap(SnapshotStore, (store) =>
      Effect.flatMap(Effect.mapError(store.lease, () => noSnapshot), use),
    ),
  )

/** One synchronous read on the pinned snapshot. */
export const readSnapshot = <A>(f: (reader: SnapshotReader, lease: Lease) => A) =>
  withSnapshot((lease) => lease.read((reader) => f(reader, lease)))
