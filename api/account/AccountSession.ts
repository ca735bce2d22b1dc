/** The pieces every account handler shares: the Origin rule, the session cookie, the 503 of an unavailable store. */
import { Duration, Effect, Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { AccountsConfig } from "../../accounts/AccountsConfig.ts"
import { SESSION_COOKIE, SESSION_TTL_MS, Sessions } from "../../accounts/Sessions.ts"
import type { User } from "../../accounts/Users.ts"
import { NotSignedIn, ServiceUnavailable, UntrustedOrigin } from "../../schemas/ApiErrors.ts"
import { isTrustedOrigin } from "../web/Origin.ts"
import { AccountOrigin } from "./AccountApi.ts"

/** Called by mail providers (RFC 8058), which are no browser page of ours. */
const ORIGIN_EXEMPT = new Set(["oneClickUnsubscribe"])

export const AccountOriginLive = Layer.effect(
  AccountOrigin,
  Effect.gen(function* () {
    const config = yield* AccountsConfig
    return AccountOrigin.of(
      Effect.fn("AccountOrigin")(function* (httpEffect, { endpoint }) {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (!ORIGIN_EXEMPT.has(endpoint.identifier) && !isTrustedOrigin(config, request)) {
          return yield* new UntrustedOrigin({ message: "requests to account routes must come from this service's own pages" })
        }
        return yield* httpEffect
      }),
    )
  }),
)

export const accountsUnavailable = () =>
  new ServiceUnavailable({
    reason: "accounts_unavailable",
    message: "the accounts store cannot answer now; retry later",
    retryAfter: 5,
  })

const sessionCookie = Effect.map(HttpServerRequest.HttpServerRequest, (request) => request.cookies[SESSION_COOKIE])

/** The signed-in user, or 401. */
export const requireUser: Effect.Effect<
  User,
  NotSignedIn | ServiceUnavailable,
  HttpServerRequest.HttpServerRequest | Sessions
> = Effect.gen(function* () {
  const cookie = yield* sessionCookie
  if (cookie === undefined || cookie === "") return yield* new NotSignedIn({ message: "sign in first" })
  const sessions = yield* Sessions
  const user = yield* sessions.user(cookie).pipe(Effect.mapError(accountsUnavailable))
  if (user === null) return yield* new NotSignedIn({ message: "the session has ended; sign in again" })
  return user
})

/** Sets (or, with null, expires) the session cookie on the response: HttpOnly, SameSite=Lax, Secure over https. */
export const setSessionCookie = (value: string | null) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig
    const options = {
      httpOnly: true,
      sameSite: "lax" as const,
      secure: config.publicUrl.protocol === "https:",
      path: "/",
      // a Duration: effect reads a bare number as milliseconds (seconds here gave Max-Age=2592, 43 minutes)
      maxAge: Duration.millis(value === null ? 0 : SESSION_TTL_MS),
    }
    yield* HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setCookieUnsafe(response, SESSION_COOKIE, value ?? "", options)),
    )
  })

/** Ends the request's session, if any. */
export const endSession = Effect.gen(function* () {
  const cookie = yield* sessionCookie
  if (cookie !== undefined && cookie !== "") {
    const sessions = yield* Sessions
    yield* sessions.close(cookie).pipe(Effect.mapError(accountsUnavailable))
  }
  yield* setSessionCookie(null)
})
