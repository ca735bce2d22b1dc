/** People who signed in: their profile, alert preferences, and the removal of all their data. */
import { Clock, Context, Effect, Layer } from "effect"
import type { Kysely } from "kysely"
import { sql } from "kysely"
import { AccountsDb } from "./AccountsDb.ts"
import type { AccountsDatabase, UsersTable } from "./AccountsTables.ts"
import { type AccountsUnavailable, attemptDb } from "./KeyStore.ts"

export interface User {
  readonly id: number
  readonly email: string
  readonly createdAt: string
  readonly emailOptInAlerts: boolean
  readonly emailOptInMonthlySummary: boolean
}

/** A change of alert preferences: undefined or null leaves a flag as it is. */
export interface AlertChange {
  readonly alerts?: boolean | null | undefined
  readonly monthlySummary?: boolean | null | undefined
}

export const toUser = (row: UsersTable): User => ({
  id: row.id ?? 0,
  email: row.email,
  createdAt: row.created_at,
  emailOptInAlerts: row.email_opt_in_alerts === 1,
  emailOptInMonthlySummary: row.email_opt_in_monthly_summary === 1,
})

/** The user of `email` (lower-cased), created on first sign-in. */
export const findOrCreateUser = async (
  db: Kysely<AccountsDatabase>,
  email: string,
  oidcSubject: string | null,
  nowMs: number,
): Promise<User> => {
  const address = email.toLowerCase()
  await db
    .insertInto("users")
    .values({
      email: address,
      created_at: new Date(nowMs).toISOString(),
      oidc_subject: oidcSubject,
      email_opt_in_alerts: 0,
      email_opt_in_monthly_summary: 0,
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute()
  if (oidcSubject !== null) {
    await db.updateTable("users").set({ oidc_subject: oidcSubject }).where("email", "=", address).execute()
  }
  return toUser(await db.selectFrom("users").selectAll().where("email", "=", address).executeTakeFirstOrThrow())
}

export class Users extends Context.Service<
  Users,
  {
    readonly get: (userId: number) => Effect.Effect<User | null, AccountsUnavailable>
    readonly setAlerts: (userId: number, change: AlertChange) => Effect.Effect<User | null, AccountsUnavailable>
    /**
     * Removes the user's data: profile, sessions, watchlist and pending links; the API keys
     * registered with the address are revoked and no longer carry it.
     */
    readonly remove: (userId: number) => Effect.Effect<void, AccountsUnavailable>
  }
>()("fds/accounts/Users") {
  static readonly layer = Layer.effect(
    Users,
    Effect.gen(function* () {
      const db = yield* AccountsDb
      const read = (userId: number) =>
        db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst()

      const get = Effect.fn("Users.get")(function* (userId: number) {
        const row = yield* attemptDb(() => read(userId))
        return row === undefined ? null : toUser(row)
      })

      const setAlerts = Effect.fn("Users.setAlerts")(function* (userId: number, change: AlertChange) {
        const set: { email_opt_in_alerts?: number; email_opt_in_monthly_summary?: number } = {}
        if (change.alerts !== undefined && change.alerts !== null) set.email_opt_in_alerts = change.alerts ? 1 : 0
        if (change.monthlySummary !== undefined && change.monthlySummary !== null) {
          set.email_opt_in_monthly_summary = change.monthlySummary ? 1 : 0
        }
        if (Object.keys(set).length > 0) {
          yield* attemptDb(() => db.updateTable("users").set(set).where("id", "=", userId).execute())
        }
        return yield* get(userId)
      })

      const remove = Effect.fn("Users.remove")(function* (userId: number) {
        const now = yield* Clock.currentTimeMillis
        yield* attemptDb(() =>
          db.transaction().execute(async (trx) => {
            const user = await trx.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst()
            if (user === undefined) return
            await trx.deleteFrom("sessions").where("user_id", "=", userId).execute()
            await trx.deleteFrom("watchlist").where("user_id", "=", userId).execute()
            await trx.deleteFrom("alert_mails").where("user_id", "=", userId).execute()
            await trx.deleteFrom("login_tokens").where("email", "=", user.email).execute()
            // The address's self-service keys (free, from /register) go with it. Keys the operator
            // issued under an agreement (institutional, internal) are the organisation's: one
            // person removing a personal account must not stop them; `./fds keys revoke` does.
            await trx
              .updateTable("api_keys")
              .set({
                email: `deleted-user-${userId}`,
                name: "deleted",
                revoked_at: sql<string>`coalesce(revoked_at, ${new Date(now).toISOString()})`,
              })
              .where(sql<string>`lower(email)`, "=", user.email)
              .where("tier", "=", "free")
              .execute()
            await trx.deleteFrom("users").where("id", "=", userId).execute()
          }),
        )
      })

      return Users.of({ get, setAlerts, remove })
    }),
  )
}
