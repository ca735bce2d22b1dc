/**
 * Social login with any OpenID Connect issuer (Google by default) through openid-client:
 * authorization code flow with PKCE, state and nonce. The login in progress is kept server-side
 * (by the SHA-256 of its state, single use, 10 minutes). The issuer's metadata is fetched on the
 * first login, not at start-up, so the API serves even when the issuer cannot be reached.
 */
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import * as client from "openid-client"
import { AccountsConfig, publicLink } from "./AccountsConfig.ts"
import { AccountsDb } from "./AccountsDb.ts"
import { type AccountsUnavailable, attemptDb } from "./KeyStore.ts"
import { sha256 } from "./OneTimeTokens.ts"

const STATE_TTL_MS = 10 * 60_000

/** Social login is not configured, or the issuer could not be reached. */
export class LoginUnavailable extends Schema.TaggedError<LoginUnavailable>()("LoginUnavailable", {
  message: Schema.String,
}) {}

export interface OidcIdentity {
  readonly email: string
  readonly subject: string
  readonly returnUrl: string
}

export class Oidc extends Context.Service<
  Oidc,
  {
    /** Where to send the browser to sign in; `returnUrl` is where it comes back to afterwards. */
    readonly start: (returnUrl: string) => Effect.Effect<string, LoginUnavailable | AccountsUnavailable>
    /**
     * Finishes a login from the callback's query: the verified e-mail, or null when the state is
     * unknown or used, the code is refused, or the issuer vouches for no verified e-mail.
     */
    readonly finish: (
      query: URLSearchParams,
    ) => Effect.Effect<OidcIdentity | null, LoginUnavailable | AccountsUnavailable>
  }
>()("fds/accounts/Oidc") {
  static readonly layer = Layer.effect(
    Oidc,
    Effect.gen(function* () {
      const config = yield* AccountsConfig
      const db = yield* AccountsDb
      const callback = publicLink(config, "api/auth/google/callback")
      let discovered: Promise<client.Configuration> | undefined

      const configuration = Effect.suspend(() => {
        if (Option.isNone(config.oidc)) {
          return Effect.fail(new LoginUnavailable({ message: "social login is not configured on this server" }))
        }
        const oidc = config.oidc.value
        discovered ??= client.discovery(oidc.issuer, oidc.clientId, Redacted.value(oidc.clientSecret), undefined, {
          // Plain http only for an issuer on loopback (tests); anything else must be https.
          execute: oidc.issuer.protocol === "http:" && isLoopback(oidc.issuer) ? [client.allowInsecureRequests] : [],
          timeout: 10,
        })
        const pending = discovered
        return Effect.tryPromise({
          try: () => pending,
          catch: () => {
            discovered = undefined // try again on the next login
            return new LoginUnavailable({ message: "the login provider cannot be reached; retry later" })
          },
        })
      })

      const start = Effect.fn("Oidc.start")(function* (returnUrl: string) {
        const oidcConfig = yield* configuration
        const now = yield* Clock.currentTimeMillis
        const state = client.randomState()
        const nonce = client.randomNonce()
        const verifier = client.randomPKCECodeVerifier()
        const challenge = yield* Effect.promise(() => client.calculatePKCECodeChallenge(verifier))
        yield* attemptDb(async () => {
          await db.deleteFrom("oidc_states").where("expires_ms", "<", now).execute()
          await db
            .insertInto("oidc_states")
            .values({ state_hash: sha256(state), code_verifier: verifier, nonce, return_url: returnUrl, expires_ms: now + STATE_TTL_MS })
            .execute()
        })
        return client.buildAuthorizationUrl(oidcConfig, {
          redirect_uri: callback,
          scope: "openid email",
          response_type: "code",
          state,
          nonce,
          code_challenge: challenge,
          code_challenge_method: "S256",
        }).href
      })

      const finish = Effect.fn("Oidc.finish")(function* (query: URLSearchParams) {
        const oidcConfig = yield* configuration
        const now = yield* Clock.currentTimeMillis
        const state = query.get("state") ?? ""
        const pending = yield* attemptDb(() =>
          db
            .deleteFrom("oidc_states")
            .where("state_hash", "=", sha256(state))
            .where("expires_ms", ">", now)
            .returning(["code_verifier", "nonce", "return_url"])
            .executeTakeFirst(),
        )
        if (pending === undefined) return null
        const current = new URL(callback)
        for (const [k, v] of query) current.searchParams.append(k, v)
        const tokens = yield* Effect.tryPromise({
          try: () =>
            client.authorizationCodeGrant(oidcConfig, current, {
              pkceCodeVerifier: pending.code_verifier,
              expectedState: state,
              expectedNonce: pending.nonce,
              idTokenExpected: true,
            }),
          catch: (e) => e,
        }).pipe(
          Effect.catch((e) =>
            e instanceof client.ResponseBodyError || e instanceof client.AuthorizationResponseError || e instanceof client.ClientError
              ? Effect.succeed(null)
              : Effect.fail(new LoginUnavailable({ message: "the login provider cannot be reached; retry later" })),
          ),
        )
        const claims = tokens?.claims()
        if (tokens === null || claims === undefined) return null
        // Google puts the e-mail in the ID token; other issuers may keep it for the userinfo endpoint.
        const profile =
          typeof claims.email === "string"
            ? claims
            : yield* Effect.tryPromise({
                try: () => client.fetchUserInfo(oidcConfig, tokens.access_token, claims.sub),
                catch: () => new LoginUnavailable({ message: "the login provider cannot be reached; retry later" }),
              })
        if (typeof profile.email !== "string" || profile.email_verified !== true) return null
        return { email: profile.email, subject: `${claims.iss} ${claims.sub}`, returnUrl: pending.return_url }
      })

      return Oidc.of({ start, finish })
    }),
  )
}

const isLoopback = (url: URL): boolean => ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname)
