/**
 * The /register flow: an e-mail address asks for a key → a verification link is mailed → opening
 * it issues a `free` key, shown once. Opening it revokes the address's previous free keys (the
 * spec's only rotation), in the same transaction that uses the link (and ends the address's other
 * links) and stores the new key's hash.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { type Kysely, sql } from "kysely"
import type { RateLimited } from "../schemas/ApiErrors.ts"
import { AccountsConfig, publicLink } from "./AccountsConfig.ts"
import { type AccountsDatabase, AccountsDb } from "./AccountsDb.ts"
import { type AccountsUnavailable, attemptDb, insertKey, type KeyRecord } from "./KeyStore.ts"
import { MailLimits } from "./MailLimits.ts"
import { Mailer, type MailUnavailable } from "./Mailer.ts"
import { issueToken, redeemTokenOfAddress } from "./OneTimeTokens.ts"
import { santiagoDay } from "./SantiagoTime.ts"

const LINK_TTL_MS = 24 * 3_600_000

export class Registrations extends Context.Service<
  Registrations,
  {
    /** Mails a verification link to `email` (counted against the mail limits of the address and client). */
    readonly request: (
      email: string,
      client: string,
    ) => Effect.Effect<void, RateLimited | MailUnavailable | AccountsUnavailable>
    /** Uses a verification link: the new key, or null when the link is unknown, used or expired. */
    readonly verify: (
      token: string,
    ) => Effect.Effect<{ readonly key: string; readonly record: KeyRecord } | null, AccountsUnavailable>
  }
>()("fds/accounts/Registrations") {
  static readonly layer = Layer.effect(
    Registrations,
    Effect.gen(function* () {
      const db = yield* AccountsDb
      const config = yield* AccountsConfig
      const mailer = yield* Mailer
      const limits = yield* MailLimits

      const request = Effect.fn("Registrations.request")(function* (email: string, client: string) {
        const address = email.toLowerCase()
        yield* limits.take(address, client)
        const now = yield* Clock.currentTimeMillis
        const token = yield* attemptDb(() =>
          issueToken(db, { kind: "registration", email: address, returnUrl: null, ttlMs: LINK_TTL_MS }, now),
        )
        const link = publicLink(config, "register/verify", { token })
        yield* mailer.send({
          to: address,
          subject: "Your Fund Data Service API key",
          text: [
            "Someone (hopefully you) asked for a Fund Data Service API key for this address.",
            "",
            "Open this link to get the key. It is shown once, on that page; the link works once and for 24 hours,",
            "and opening it ends the other links mailed to this address:",
            link,
            "",
            "Getting a new key revokes the previous free key of this address.",
            "If you did not ask for it, ignore this mail.",
          ].join("\n"),
        })
      })

      const verify = Effect.fn("Registrations.verify")(function* (token: string) {
        const now = yield* Clock.currentTimeMillis
        return yield* attemptDb(() => redeemRegistration(db, token, now))
      })

      return Registrations.of({ request, verify })
    }),
  )
}

/**
 * Uses a verification link: in one transaction the link (and every other unused link of its
 * address, so that an older mail cannot later revoke the key this one issues) is marked used, the
 * address's free keys are revoked and the new key stored. The key, or null for a link unknown,
 * used, ended by another, or expired.
 */
export const redeemRegistration = (
  db: Kysely<AccountsDatabase>,
  token: string,
  now: number,
): Promise<{ readonly key: string; readonly record: KeyRecord } | null> =>
  db.transaction().execute(async (trx) => {
    const used = await redeemTokenOfAddress(trx, "registration", token, now)
    if (used === undefined) return null
    const previous = trx
      .selectFrom("api_keys")
      .select("id")
      .where(sql<string>`lower(email)`, "=", used.email)
      .where("tier", "=", "free")
      .where("revoked_at", "is", null)
    // today's requests of the keys it replaces stay counted: a new key is not a new quota
    const today = santiagoDay(new Date(now))
    const spent = await trx
      .selectFrom("usage")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("count"), eb.lit(0)).as("n"))
      .where("day", "=", today)
      .where("key_id", "in", previous)
      .executeTakeFirstOrThrow()
    await trx
      .updateTable("api_keys")
      .set({ revoked_at: new Date(now).toISOString() })
      .where("id", "in", previous)
      .execute()
    const issued = await insertKey(trx, { email: used.email, tier: "free" }, now)
    const carried = Number(spent.n)
    if (carried > 0) await trx.insertInto("usage").values({ key_id: issued.record.id, day: today, count: carried }).execute()
    return issued
  })
