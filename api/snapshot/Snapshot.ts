/**
 * Reads on the snapshot pinned for the request (api/snapshot/Pinned.ts): the middleware PinSnapshot
 * takes the lease; these only use it.
 */
import { Effect } from "effect"
import type { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { PinnedSnapshot } from "./Pinned.ts"
import type { Lease } from "./SnapshotStore.ts"

/** Runs `use` with the request's lease. */
export const withSnapshot = <A, E, R>(use: (lease: Lease) => Effect.Effect<A, E, R>): Effect.Effect<A, E, R | PinnedSnapshot> =>
  Effect.flatMap(PinnedSnapshot, use)

/** One synchronous read on the request's snapshot. */
export const readSnapshot = <A>(f: (reader: SnapshotReader, lease: Lease) => A): Effect.Effect<A, ServiceUnavailable, PinnedSnapshot> =>
  withSnapshot((lease) => lease.read((reader) => f(reader, lease)))
