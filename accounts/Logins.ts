/**
 * Signing in, by mail or by OIDC. Both end the same way: the browser comes back to a return URL on
 * the public origin carrying a one-time secret (`token` from the mailed magic link, `code` after
 * the OIDC callback), and the page there POSTs it to /api/auth/callback, which opens the session.
 * Return URLs off the public origin are refused, so no link can redirect elsewhere.
 */
import { Clock, Context, Effect, Layer } from "effect"
import type { RateLimited } from "../schemas/ApiErrors.ts"
import type { AccountsSettings } from "./AccountsConfig.ts"
import { AccountsDb } from "./AccountsDb.ts"
import { type AccountsUnavailable, attemptDb } from "./KeyStore.ts"
import { MailLimits } from "./MailLimits.ts"
import { Mailer, type MailUnavailable } from "./Mailer.ts"
import { issueToken, redeemToken } from "./OneTimeTokens.ts"
import type { OidcIdentity } from "./Oidc.ts"
import { Sessions } from "./Sessions.ts"
import type { User } from "./Users.ts"

const MAGIC_LINK_TTL_MS = 15 * 60_000
const LOGIN_CODE_TTL_MS = 2 * 60_000

/** `input` resolved against the public URL when it stays on the public origin; else null. */
export const publicReturnUrl = (config: Pick<AccountsSettings, "publicUrl">, input: string): string | null => {
  try {
    const url = new URL(input, config.publicUrl)
    if (url.origin !== config.publicUrl.origin || url.username !== "" || url.password !== "") return null
    return url.href
  } catch {
    return null
  }
}

const withParam = (url: string, name: string, value: string): string => {
  const u = new URL(url)
  u.searchParams.set(name, value)
  return u.href
}

export class Logins extends Context.Service<
  Logins,
  {
    /** Mails a sign-in link (to `returnUrl` with a `token`) to `email`. */
    readonly mailMagicLink: (
      email: string,
      returnUrl: string,
      client: string,
    ) => Effect.Effect<void, RateLimited | MailUnavailable | AccountsUnavailable>
    /** After an OIDC callback: the return URL with a one-time `code`. */
    readonly codeFor: (identity: OidcIdentity) => Effect.Effect<string, AccountsUnavailable>
    /** Uses a `token` or `code`: a new session, or null when it is unknown, used or expired. */
    readonly complete: (secret: {
      readonly token?: string | null | undefined
      readonly code?: string | null | undefined
    }) => Effect.Effect<{ readonly cookie: string; readonly user: User } | null, AccountsUnavailable>
  }
>()("fds/accounts/Logins") {
  static readonly layer = Layer.effect(
    Logins,
    Effect.gen(function* () {
      const db = yield* AccountsDb
      const mailer = yield* Mailer
      const limits = yield* MailLimits
      const sessions = yield* Sessions

      const mailMagicLink = Effect.fn("Logins.mailMagicLink")(function* (email: string, returnUrl: string, client: string) {
        const address = email.toLowerCase()
        yield* limits.take(address, client)
        const now = yield* Clock.currentTimeMillis
        const token = yield* attemptDb(() =>
          issueToken(db, { kind: "magic_link", email: address, returnUrl, ttlMs: MAGIC_LINK_TTL_MS }, now),
        )
        yield* mailer.send({
          to: address,
          subject: "Sign in to Fund Data Service",
          text: [
            "Open this link to sign in. It works once and for 15 minutes:",
            withParam(returnUrl, "token", token),
            "",
            "If you did not ask to sign in, ignore this mail.",
          ].join("\n"),
        })
      })

      const codeFor = Effect.fn("Logins.codeFor")(function* (identity: OidcIdentity) {
        const now = yield* Clock.currentTimeMillis
        const code = yield* attemptDb(() =>
          issueToken(
            db,
            { kind: "login_code", email: identity.email.toLowerCase(), returnUrl: null, subject: identity.subject, ttlMs: LOGIN_CODE_TTL_MS },
            now,
          ),
        )
        return withParam(identity.returnUrl, "code", code)
      })

      const complete = Effect.fn("Logins.complete")(function* (secret: {
        readonly token?: string | null | undefined
        readonly code?: string | null | undefined
      }) {
        const now = yield* Clock.currentTimeMillis
        const used = yield* attemptDb(async () => {
          if (typeof secret.token === "string") {
            const row = await redeemToken(db, "magic_link", secret.token, now)
            return row === undefined ? undefined : { email: row.email, subject: null }
          }
          if (typeof secret.code === "string") {
            const row = await redeemToken(db, "login_code", secret.code, now)
            return row === undefined ? undefined : { email: row.email, subject: row.subject }
          }
          return undefined
        })
        if (used === undefined) return null
        return yield* sessions.open(used.email, used.subject)
      })

      return Logins.of({ mailMagicLink, codeFor, complete })
    }),
  )
}
