/** Tables of data/accounts.sqlite (kysely types). Times are Unix milliseconds unless named `_at` ISO text. */

export interface ApiKeysTable {
  id: number | null
  lookup: string
  hash: string
  email: string
  name: string
  tier: "free" | "institutional" | "internal"
  daily_quota: number | null
  created_at: string
  revoked_at: string | null
}

export interface UsageTable {
  key_id: number
  day: string
  count: number
}

/** People who signed in (magic link or OIDC); alert preferences live here. */
export interface UsersTable {
  id: number | null
  email: string
  created_at: string
  /** `<issuer> <sub>` of the OIDC account last used to sign in. */
  oidc_subject: string | null
  email_opt_in_alerts: number
  email_opt_in_monthly_summary: number
}

/** Server-side sessions: only the SHA-256 of the cookie value is stored. */
export interface SessionsTable {
  token_hash: string
  user_id: number
  created_ms: number
  expires_ms: number
}

/**
 * One-time tokens sent or handed to a person, stored as SHA-256: `registration` (the /register
 * verification link), `magic_link` (sign-in by e-mail), `login_code` (after an OIDC callback).
 */
export interface LoginTokensTable {
  token_hash: string
  kind: "registration" | "magic_link" | "login_code"
  email: string
  return_url: string | null
  /** `<issuer> <sub>` for a login code after OIDC. */
  subject: string | null
  created_ms: number
  expires_ms: number
  used_ms: number | null
}

/** An OIDC login in progress, keyed by the SHA-256 of its `state`. */
export interface OidcStatesTable {
  state_hash: string
  code_verifier: string
  nonce: string
  return_url: string
  expires_ms: number
}

export interface WatchlistTable {
  user_id: number
  serie_id: string
  added_at: string
}

/** The kinds of alert mail (see Alerts.ts). */
export type AlertKind = "tac_changes" | "monthly_summary"

/**
 * Which batch sends a kind of alert mail for a period: for TAC changes the period is the batch's
 * content hash, for the monthly summary the month (YYYY-MM) of the first batch that claimed it.
 */
export interface AlertRoundsTable {
  kind: AlertKind
  period: string
  /** Content hash of the batch that claimed the round. */
  batch: string
  batch_date: string
  claimed_at: string
}

/** One alert mail per user and round, claimed before it is sent: never sent twice. */
export interface AlertMailsTable {
  kind: AlertKind
  period: string
  user_id: number
  claimed_at: string
}

/** A key holder's webhook endpoint (Webhooks.ts); its signing secret sealed with the service secret (WebhookSecret.ts). */
export interface WebhookEndpointsTable {
  /** `whk_` and 16 hex digits. */
  id: string
  key_id: number
  url: string
  /** The event types it receives, comma-separated. */
  events: string
  secret_sealed: string
  created_ms: number
  /** When it was disabled (it answered 410 Gone, or its key was revoked: nothing more is sent to it); null: enabled. */
  disabled_ms: number | null
}

/** One event, once: its id is stable (the same batch published twice is one event), its body the JSON every endpoint gets. */
export interface WebhookEventsTable {
  /** `evt_…` (WebhookEvents.ts): the `webhook-id` of its deliveries. */
  id: string
  type: string
  created_ms: number
  /** The JSON body sent. */
  body: string
  /** A test event's one endpoint; null: every endpoint that subscribed to the type. */
  endpoint_id: string | null
}

/** One event to one endpoint: written before it is sent, claimed for each attempt, never delivered twice. */
export interface WebhookDeliveriesTable {
  event_id: string
  endpoint_id: string
  state: "pending" | "delivered" | "failed"
  attempts: number
  /** When the next attempt is due (pending only). */
  next_attempt_ms: number
  /** An attempt in progress holds the delivery until then (another sender skips it). */
  claimed_until_ms: number | null
  last_status: number | null
  last_error: string | null
  created_ms: number
  /** When an attempt last ended. */
  last_attempt_ms: number | null
}

export interface AccountsDatabase {
  api_keys: ApiKeysTable
  usage: UsageTable
  users: UsersTable
  sessions: SessionsTable
  login_tokens: LoginTokensTable
  oidc_states: OidcStatesTable
  watchlist: WatchlistTable
  alert_rounds: AlertRoundsTable
  alert_mails: AlertMailsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_events: WebhookEventsTable
  webhook_deliveries: WebhookDeliveriesTable
}
