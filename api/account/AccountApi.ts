/**
 * Account routes: sign-in (magic link, social login), the signed-in user's profile, watchlist and
 * alert preferences, and unsubscribing. Outside the keyed data API: no X-Api-Key; /api/me routes
 * need the session cookie set by /api/auth/callback. A browser request from an untrusted Origin
 * gets 403 (AccountOrigin), except the RFC 8058 one-click unsubscribe, which mail providers POST.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  Account,
  AlertPreferenceRequest,
  AlertPreferences,
  LoginCallbackRequest,
  MagicLinkRequest,
  MagicLinkSent,
  SerieId,
  UnsubscribeRequest,
  WatchlistRequest,
  WatchlistResponse,
} from "../../schemas/Account.ts"
import {
  dataErrors,
  NotSignedInResponse,
  RateLimitedResponse,
  UntrustedOriginResponse,
} from "../../schemas/ApiErrors.ts"
import { PinCurrentSnapshot } from "../snapshot/Pinned.ts"

/** 403 when a request's Origin is not the public origin (or a configured trusted one). */
export class AccountOrigin extends HttpApiMiddleware.Service<AccountOrigin>()("fds/api/AccountOrigin", {
  error: UntrustedOriginResponse,
}) {}

/**
 * Every account route may meet the per-IP limit (answered before routing, like the data routes'
 * 429 without quota headers), and the 503 of a server still starting or of an unavailable store.
 */
const errors = dataErrors(RateLimitedResponse)
const signedIn = dataErrors(NotSignedInResponse, RateLimitedResponse)

export class AccountApi extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.post("magicLink", "/api/auth/magic-link", {
      payload: MagicLinkRequest,
      success: MagicLinkSent.pipe(HttpApiSchema.status(202)),
      error: errors,
    }).annotate(OpenApi.Summary, "Mail a sign-in link (limited per e-mail and per client address)"),
    HttpApiEndpoint.get("googleLogin", "/api/auth/google", {
      query: { return_url: Schema.String.annotate({ description: "Where to come back to; on the public origin" }) },
      success: HttpApiSchema.Empty(302),
      error: errors,
    }).annotate(OpenApi.Summary, "Start social login (Google or the configured OIDC issuer): redirects to it"),
    HttpApiEndpoint.get("googleCallback", "/api/auth/google/callback", {
      query: { code: Schema.String, state: Schema.String },
      success: HttpApiSchema.Empty(303),
      error: errors,
    }).annotate(OpenApi.Summary, "Social login comes back here; redirects to the return URL with a one-time `code`"),
    HttpApiEndpoint.post("loginCallback", "/api/auth/callback", {
      payload: LoginCallbackRequest,
      success: Account,
      error: errors,
    }).annotate(OpenApi.Summary, "Exchange a `code` or mailed `token` for the session cookie"),
    HttpApiEndpoint.post("logout", "/api/auth/logout", {
      success: HttpApiSchema.NoContent,
      error: errors,
    }).annotate(OpenApi.Summary, "End the session"),
    HttpApiEndpoint.get("me", "/api/me", { success: Account, error: signedIn }).annotate(
      OpenApi.Summary,
      "The signed-in user",
    ),
    HttpApiEndpoint.delete("deleteMe", "/api/me", { success: HttpApiSchema.NoContent, error: signedIn }).annotate(
      OpenApi.Summary,
      "Remove the account and its data (profile, sessions, watchlist; the address's keys are revoked)",
    ),
    HttpApiEndpoint.get("watchlist", "/api/me/watchlist", { success: WatchlistResponse, error: signedIn }).annotate(
      OpenApi.Summary,
      "The watchlist",
    ),
    HttpApiEndpoint.post("watch", "/api/me/watchlist", {
      payload: WatchlistRequest,
      success: WatchlistResponse,
      error: signedIn,
    })
      // the series is checked against the published batch, pinned for the request
      .middleware(PinCurrentSnapshot)
      .annotate(OpenApi.Summary, "Add a published series to the watchlist"),
    HttpApiEndpoint.delete("unwatch", "/api/me/watchlist/:serie_id", {
      params: { serie_id: SerieId },
      success: HttpApiSchema.NoContent,
      error: signedIn,
    }).annotate(OpenApi.Summary, "Remove a series from the watchlist"),
    HttpApiEndpoint.patch("alerts", "/api/me/alerts", {
      payload: AlertPreferenceRequest,
      success: AlertPreferences,
      error: signedIn,
    }).annotate(OpenApi.Summary, "Change alert e-mail preferences (an absent or null field is left unchanged)"),
    HttpApiEndpoint.post("unsubscribe", "/api/alerts/unsubscribe", {
      payload: UnsubscribeRequest,
      success: AlertPreferences,
      error: errors,
    }).annotate(OpenApi.Summary, "Unsubscribe with the signed token of an alert mail"),
    HttpApiEndpoint.post("oneClickUnsubscribe", "/api/alerts/unsubscribe/one-click", {
      query: { token: Schema.String.check(Schema.isMaxLength(2048)) },
      success: HttpApiSchema.NoContent,
      error: errors,
    }).annotate(OpenApi.Summary, "RFC 8058 one-click unsubscribe (List-Unsubscribe-Post)"),
  )
  .middleware(AccountOrigin)
  .annotateMerge(
    OpenApi.annotations({
      title: "Account",
      description: "Sign-in, profile, watchlist and alert preferences (session cookie, no API key)",
    }),
  ) {}
