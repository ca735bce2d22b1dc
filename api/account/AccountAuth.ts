/** Handlers of the sign-in routes: magic link, social login and its callback, login callback, logout. */
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { AccountsConfig } from "../../accounts/AccountsConfig.ts"
import { Logins, publicReturnUrl } from "../../accounts/Logins.ts"
import { Oidc } from "../../accounts/Oidc.ts"
import type { User } from "../../accounts/Users.ts"
import { InvalidParameter, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { clientAddress } from "../ratelimit/Edge.ts"
import { accountsUnavailable, endSession, setSessionCookie } from "./AccountSession.ts"

export const accountBody = (user: User) => ({
  email: user.email,
  created_at: user.createdAt,
  email_opt_in_alerts: user.emailOptInAlerts,
  email_opt_in_monthly_summary: user.emailOptInMonthlySummary,
})

const checkReturnUrl = (where: "body field" | "query parameter", input: string) =>
  Effect.flatMap(AccountsConfig, (config) => {
    const url = publicReturnUrl(config, input)
    return url === null
      ? Effect.fail(
          new InvalidParameter({
            parameter: "return_url",
            message: `invalid ${where} return_url: must be a URL on ${config.publicUrl.origin}`,
          }),
        )
      : Effect.succeed(url)
  })

const mailUnavailable = () =>
  new ServiceUnavailable({ reason: "mail_unavailable", message: "mail cannot be sent now; retry later", retryAfter: 60 })

const loginUnavailable = (e: { readonly message: string }) =>
  new ServiceUnavailable({ reason: "login_unavailable", message: e.message, retryAfter: 30 })

export const magicLink = ({ payload }: { readonly payload: { readonly email: string; readonly return_url: string } }) =>
  Effect.gen(function* () {
    const returnUrl = yield* checkReturnUrl("body field", payload.return_url)
    const request = yield* HttpServerRequest.HttpServerRequest
    const logins = yield* Logins
    yield* logins.mailMagicLink(payload.email, returnUrl, clientAddress(request)).pipe(
      Effect.catchTags({
        MailUnavailable: () => Effect.fail(mailUnavailable()),
        AccountsUnavailable: () => Effect.fail(accountsUnavailable()),
      }),
    )
    return { status: "sent" as const }
  })

export const googleLogin = ({ query }: { readonly query: { readonly return_url: string } }) =>
  Effect.gen(function* () {
    const returnUrl = yield* checkReturnUrl("query parameter", query.return_url)
    const oidc = yield* Oidc
    const location = yield* oidc.start(returnUrl).pipe(
      Effect.catchTags({
        LoginUnavailable: (e) => Effect.fail(loginUnavailable(e)),
        AccountsUnavailable: () => Effect.fail(accountsUnavailable()),
      }),
    )
    return HttpServerResponse.redirect(location, { status: 302, headers: { "cache-control": "no-store" } })
  })

export const googleCallback = () =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const oidc = yield* Oidc
    const identity = yield* oidc.finish(new URL(request.url, "http://x").searchParams).pipe(
      Effect.catchTags({
        LoginUnavailable: (e) => Effect.fail(loginUnavailable(e)),
        AccountsUnavailable: () => Effect.fail(accountsUnavailable()),
      }),
    )
    if (identity === null) {
      return yield* new InvalidParameter({
        parameter: "code",
        message: "invalid query parameter code: the login could not be verified (expired, used, or no verified e-mail); start again",
      })
    }
    const logins = yield* Logins
    const location = yield* logins.codeFor(identity).pipe(Effect.mapError(accountsUnavailable))
    return HttpServerResponse.redirect(location, { status: 303, headers: { "cache-control": "no-store" } })
  })

export const loginCallback = ({
  payload,
}: {
  readonly payload: { readonly code?: string | null; readonly token?: string | null }
}) =>
  Effect.gen(function* () {
    const hasCode = typeof payload.code === "string"
    const hasToken = typeof payload.token === "string"
    if (hasCode === hasToken) {
      return yield* new InvalidParameter({ parameter: "token", message: "invalid body: send exactly one of code and token" })
    }
    const logins = yield* Logins
    const session = yield* logins.complete(payload).pipe(Effect.mapError(accountsUnavailable))
    if (session === null) {
      const parameter = hasCode ? "code" : "token"
      return yield* new InvalidParameter({
        parameter,
        message: `invalid body field ${parameter}: unknown, already used or expired; sign in again`,
      })
    }
    yield* setSessionCookie(session.cookie)
    return accountBody(session.user)
  })

export const logout = () => endSession
