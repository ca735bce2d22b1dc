/** Models of the account routes (outside the keyed data API): requests as the peer contract names them, and answers. */
import { Schema } from "effect"

/**
 * Characters no address here may hold: spaces, the specials, and control or format characters
 * (NUL, ESC, zero-width spaces), which mail software drops, so that `a@x.cl` followed by a NUL
 * would reach the same mailbox as another address (its own mail limit, user and key).
 */
const NOT = String.raw`\s@<>()[\]\\,;:"\p{Cc}\p{Cf}`
/** local@domain: the domain has a dot, no empty label (`..`, a leading or trailing dot). */
const EMAIL = new RegExp(String.raw`^[^${NOT}]+@(?!.*\.\.)[^${NOT}.][^${NOT}]*\.[^${NOT}.]+$`, "u")

/** A plausible mailbox address (the mail itself proves it). */
export const isEmailAddress = (text: string): boolean => text.length <= 254 && EMAIL.test(text)

export const EmailAddress = Schema.String.check(Schema.isMaxLength(254), Schema.isPattern(EMAIL)).annotate({
  description: "E-mail address",
  format: "email",
})

export const MagicLinkRequest = Schema.Struct({
  email: EmailAddress,
  return_url: Schema.String.check(Schema.isMaxLength(2048)).annotate({
    description: "Where the mailed link leads (with a `token` parameter); must be on the service's public origin",
  }),
}).annotate({ identifier: "MagicLinkRequest" })

export const LoginCallbackRequest = Schema.Struct({
  code: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(256)))).annotate({
    description: "The `code` the social-login callback put on the return URL",
  }),
  token: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(256)))).annotate({
    description: "The `token` of the mailed sign-in link",
  }),
}).annotate({ identifier: "LoginCallbackRequest", description: "Exactly one of `code` and `token`" })

export const UnsubscribeRequest = Schema.Struct({
  token: Schema.String.check(Schema.isMaxLength(2048)).annotate({ description: "The token of the mail's unsubscribe link" }),
}).annotate({ identifier: "UnsubscribeRequest" })

export const SerieId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(36)).annotate({
  description: "A published series id: decimal CRC32 (FM) or UUID (FI/ETF), up to 36 characters",
})

export const WatchlistRequest = Schema.Struct({ serie_id: SerieId }).annotate({ identifier: "WatchlistRequest" })

export const AlertPreferenceRequest = Schema.Struct({
  email_opt_in_alerts: Schema.optionalKey(Schema.NullOr(Schema.Boolean)).annotate({
    description: "Absent or null: unchanged",
  }),
  email_opt_in_monthly_summary: Schema.optionalKey(Schema.NullOr(Schema.Boolean)).annotate({
    description: "Absent or null: unchanged",
  }),
}).annotate({ identifier: "AlertPreferenceRequest" })

export const AlertPreferences = Schema.Struct({
  email_opt_in_alerts: Schema.Boolean,
  email_opt_in_monthly_summary: Schema.Boolean,
}).annotate({ identifier: "AlertPreferences" })

export const Account = Schema.Struct({
  email: Schema.String,
  created_at: Schema.String,
  email_opt_in_alerts: Schema.Boolean,
  email_opt_in_monthly_summary: Schema.Boolean,
}).annotate({ identifier: "Account", description: "The signed-in user" })

export const WatchlistResponse = Schema.Struct({
  data: Schema.Array(Schema.Struct({ serie_id: Schema.String, added_at: Schema.String })),
}).annotate({ identifier: "WatchlistResponse" })

export const MagicLinkSent = Schema.Struct({
  status: Schema.Literal("sent"),
}).annotate({ identifier: "MagicLinkSent", description: "Sent when the address may receive it (the answer does not say whether it has an account)" })
