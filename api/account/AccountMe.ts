/** Handlers of /api/me: profile, removal, watchlist, alert preferences. */
import { Effect } from "effect"
import { Users } from "../../accounts/Users.ts"
import { Watchlist } from "../../accounts/Watchlist.ts"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { isUuid, parseUint32 } from "../../schemas/Ids.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { read } from "../snapshot/Pinned.ts"
import { accountBody } from "./AccountAuth.ts"
import { accountsUnavailable, endSession, requireUser } from "./AccountSession.ts"

/**
 * The canonical id of a series published in the current snapshot, or null. FM series are decimal
 * CRC32 ids (leading zeros do not distinguish them); FI/ETF series are their serie UUID, in lower
 * case (an instrument UUID is not a series; a batch without FI data publishes none).
 */
const publishedSeries = (reader: SnapshotReader, serieId: string): string | null => {
  if (isUuid(serieId)) {
    const id = serieId.toLowerCase()
    return fiCatalog(reader).serie(id) === undefined ? null : id
  }
  const id = parseUint32(serieId)
  return id !== null && reader.series(id) !== undefined ? String(id) : null
}

/** The stored form of a watchlist id: decimal for FM, lower case for a UUID, else as given. */
const storedId = (serieId: string): string => {
  if (isUuid(serieId)) return serieId.toLowerCase()
  const id = parseUint32(serieId)
  return id === null ? serieId : String(id)
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
    const serieId = yield* read((reader) => publishedSeries(reader, payload.serie_id))
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
    const list = yield* Watchlist
    yield* list.remove(user.id, storedId(params.serie_id)).pipe(Effect.mapError(accountsUnavailable))
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
