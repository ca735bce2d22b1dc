/** Handlers of /api/me: profile, removal, watchlist, alert preferences. */
import { Effect } from "effect"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { parseUint32 } from "../../schemas/Ids.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { Users } from "../accounts/Users.ts"
import { Watchlist } from "../accounts/Watchlist.ts"
import { accountBody } from "./AccountAuth.ts"
import { accountsUnavailable, endSession, requireUser } from "./AccountSession.ts"
import { readSnapshot } from "./Snapshot.ts"

/**
 * The canonical id of a series published in the current snapshot, or null. FM series are decimal
 * CRC32 ids (leading zeros do not distinguish them); FI/ETF UUIDs name no published series until
 * snapshots carry those instruments.
 */
const publishedSeries = (reader: SnapshotReader, serieId: string): string | null => {
  const id = parseUint32(serieId)
  return id !== null && reader.series(id) !== undefined ? String(id) : null
}

const watchlistBody = (rows: ReadonlyArray<{ readonly serieId: string; readonly addedAt: string }>) => ({
  data: rows.map((r) => ({ serie_id: r.serieId, added_at: r.addedAt })),
})

export const me = () => Effect.map(requireUser, accountBody)

export const deleteMe = () =>
  Effect.gen(function* () {
    const user = yield* requireUser
    const users = yield* Users
    yield* users.remove(user.id).pipe(Effect.mapError(accountsUnavailable))
    yield* endSession
  })

export const watchlist = () =>
  Effect.gen(function* () {
    const user = yield* requireUser
    const list = yield* Watchlist
    return watchlistBody(yield* list.list(user.id).pipe(Effect.mapError(accountsUnavailable)))
  })

export const watch = ({ payload }: { readonly payload: { readonly serie_id: string } }) =>
  Effect.gen(function* () {
    const user = yield* requireUser
    const serieId = yield* readSnapshot((reader) => publishedSeries(reader, payload.serie_id))
    if (serieId === null) {
      return yield* new InvalidParameter({
        parameter: "serie_id",
        message: "invalid body field serie_id: not a series of the published batch",
      })
    }
    const list = yield* Watchlist
    yield* list.add(user.id, serieId).pipe(Effect.mapError(accountsUnavailable))
    return watchlistBody(yield* list.list(user.id).pipe(Effect.mapError(accountsUnavailable)))
  })

export const unwatch = ({ params }: { readonly params: { readonly serie_id: string } }) =>
  Effect.gen(function* () {
    const user = yield* requireUser
    const id = parseUint32(params.serie_id)
    const list = yield* Watchlist
    yield* list.remove(user.id, id === null ? params.serie_id : String(id)).pipe(Effect.mapError(accountsUnavailable))
  })

export const alerts = ({
  payload,
}: {
  readonly payload: { readonly email_opt_in_alerts?: boolean | null; readonly email_opt_in_monthly_summary?: boolean | null }
}) =>
  Effect.gen(function* () {
    const user = yield* requireUser
    const users = yield* Users
    const updated = yield* users
      .setAlerts(user.id, { alerts: payload.email_opt_in_alerts, monthlySummary: payload.email_opt_in_monthly_summary })
      .pipe(Effect.mapError(accountsUnavailable))
    const current = updated ?? user
    return {
      email_opt_in_alerts: current.emailOptInAlerts,
      email_opt_in_monthly_summary: current.emailOptInMonthlySummary,
    }
  })
