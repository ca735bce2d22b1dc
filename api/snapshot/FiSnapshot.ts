/**
 * FI data on the pinned snapshot: a batch whose FI part was missing or failed its checks answers
 * 503 (`fi_unavailable`, with Retry-After) on every FI route, while the FM routes keep answering
 * from the same snapshot.
 */
import { Effect } from "effect"
import { ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { type FiAvailability, fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { type PinnedSnapshot, read } from "./Pinned.ts"

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
