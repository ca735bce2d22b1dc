/** A signed-in user's watchlist of series ids (up to 36 characters, so that a UUID fits). */
import { Clock, Context, Effect, Layer } from "effect"
import { AccountsDb } from "./AccountsDb.ts"
import { type AccountsUnavailable, attemptDb } from "./KeyStore.ts"

export interface WatchedSeries {
  readonly serieId: string
  readonly addedAt: string
}

export class Watchlist extends Context.Service<
  Watchlist,
  {
    readonly list: (userId: number) => Effect.Effect<ReadonlyArray<WatchedSeries>, AccountsUnavailable>
    /** Adds a series (adding it again changes nothing). */
    readonly add: (userId: number, serieId: string) => Effect.Effect<void, AccountsUnavailable>
    /** Removes a series (removing an absent one changes nothing). */
    readonly remove: (userId: number, serieId: string) => Effect.Effect<void, AccountsUnavailable>
  }
>()("fds/accounts/Watchlist") {
  static readonly layer = Layer.effect(
    Watchlist,
    Effect.gen(function* () {
      const db = yield* AccountsDb
      const list = Effect.fn("Watchlist.list")(function* (userId: number) {
        const rows = yield* attemptDb(() =>
          db
            .selectFrom("watchlist")
            .select(["serie_id", "added_at"])
            .where("user_id", "=", userId)
            .orderBy("added_at")
            .orderBy("serie_id")
            .execute(),
        )
        return rows.map((r) => ({ serieId: r.serie_id, addedAt: r.added_at }))
      })
      const add = Effect.fn("Watchlist.add")(function* (userId: number, serieId: string) {
        const now = yield* Clock.currentTimeMillis
        yield* attemptDb(() =>
          db
            .insertInto("watchlist")
            .values({ user_id: userId, serie_id: serieId, added_at: new Date(now).toISOString() })
            .onConflict((oc) => oc.columns(["user_id", "serie_id"]).doNothing())
            .execute(),
        )
      })
      const remove = Effect.fn("Watchlist.remove")(function* (userId: number, serieId: string) {
        yield* attemptDb(() =>
          db.deleteFrom("watchlist").where("user_id", "=", userId).where("serie_id", "=", serieId).execute(),
        )
      })
      return Watchlist.of({ list, add, remove })
    }),
  )
}
