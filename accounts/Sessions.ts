/**
 * Login sessions. The cookie holds 256 random bits; the store holds only their SHA-256, so a copy
 * of the database opens no session.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { AccountsDb } from "./AccountsDb.ts"
import { type AccountsUnavailable, attemptDb } from "./KeyStore.ts"
import { newToken, sha256 } from "./OneTimeTokens.ts"
import { findOrCreateUser, toUser, type User } from "./Users.ts"

export const SESSION_COOKIE = "fds_session"
export const SESSION_TTL_MS = 30 * 24 * 3_600_000

export class Sessions extends Context.Service<
  Sessions,
  {
    /** Signs `email` in (creating its user on first sign-in); returns the cookie value. */
    readonly open: (
      email: string,
      oidcSubject: string | null,
    ) => Effect.Effect<{ readonly cookie: string; readonly user: User }, AccountsUnavailable>
    /** The signed-in user of a cookie value, or null (unknown or expired). */
    readonly user: (cookie: string) => Effect.Effect<User | null, AccountsUnavailable>
    readonly close: (cookie: string) => Effect.Effect<void, AccountsUnavailable>
  }
>()("fds/accounts/Sessions") {
  static readonly layer = Layer.effect(
    Sessions,
    Effect.gen(function* () {
      const db = yield* AccountsDb

      const open = Effect.fn("Sessions.open")(function* (email: string, oidcSubject: string | null) {
        const now = yield* Clock.currentTimeMillis
        const cookie = newToken()
        const user = yield* attemptDb(async () => {
          const u = await findOrCreateUser(db, email, oidcSubject, now)
          await db.deleteFrom("sessions").where("expires_ms", "<", now).execute()
          await db
            .insertInto("sessions")
            .values({ token_hash: sha256(cookie), user_id: u.id, created_ms: now, expires_ms: now + SESSION_TTL_MS })
            .execute()
          return u
        })
        return { cookie, user }
      })

      const user = Effect.fn("Sessions.user")(function* (cookie: string) {
        const now = yield* Clock.currentTimeMillis
        const row = yield* attemptDb(() =>
          db
            .selectFrom("sessions")
            .innerJoin("users", "users.id", "sessions.user_id")
            .selectAll("users")
            .where("sessions.token_hash", "=", sha256(cookie))
            .where("sessions.expires_ms", ">", now)
            .executeTakeFirst(),
        )
        return row === undefined ? null : toUser(row)
      })

      const close = Effect.fn("Sessions.close")(function* (cookie: string) {
        yield* attemptDb(() => db.deleteFrom("sessions").where("token_hash", "=", sha256(cookie)).execute())
      })

      return Sessions.of({ open, user, close })
    }),
  )
}
