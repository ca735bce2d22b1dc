/**
 * Unsubscribe tokens for alert mails: `<payload>.<mac>`, base64url, where the payload names the
 * user, what to stop and until when the token is valid, and the mac is HMAC-SHA256 over it with the
 * service secret (FDS_SECRET or data/secret.key). Nothing is stored: a mail can carry its link,
 * and any change to the payload or an expired token is refused. Compared in constant time.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { Redacted } from "effect"
import { type AccountsSettings, publicLink } from "./AccountsConfig.ts"

export type UnsubscribeScope = "alerts" | "monthly_summary" | "all"

export interface UnsubscribeClaim {
  readonly userId: number
  readonly scope: UnsubscribeScope
  /** Unix seconds after which the token is refused. */
  readonly expiresAt: number
}

/** How long the link in a mail keeps working. */
export const UNSUBSCRIBE_TTL_SECONDS = 90 * 24 * 3600

const SCOPES: ReadonlyArray<UnsubscribeScope> = ["alerts", "monthly_summary", "all"]

const mac = (secret: Redacted.Redacted<Uint8Array>, payload: string): Buffer =>
  createHmac("sha256", Redacted.value(secret)).update(`unsubscribe.${payload}`).digest()

export const signUnsubscribe = (secret: Redacted.Redacted<Uint8Array>, claim: UnsubscribeClaim): string => {
  const payload = Buffer.from(JSON.stringify({ u: claim.userId, s: claim.scope, e: claim.expiresAt })).toString("base64url")
  return `${payload}.${mac(secret, payload).toString("base64url")}`
}

/** The claim of a genuine, unexpired token; else null. */
export const verifyUnsubscribe = (
  secret: Redacted.Redacted<Uint8Array>,
  token: string,
  nowSeconds: number,
): UnsubscribeClaim | null => {
  const [payload, signature, ...rest] = token.split(".")
  if (payload === undefined || signature === undefined || rest.length > 0) return null
  const given = Buffer.from(signature, "base64url")
  const expected = mac(secret, payload)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  try {
    const claim = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { u: unknown; s: unknown; e: unknown }
    if (typeof claim.u !== "number" || typeof claim.e !== "number" || !SCOPES.includes(claim.s as UnsubscribeScope)) {
      return null
    }
    if (claim.e < nowSeconds) return null
    return { userId: claim.u, scope: claim.s as UnsubscribeScope, expiresAt: claim.e }
  } catch {
    return null
  }
}

/** The RFC 8058 headers an alert mail carries (one-click unsubscribe by POST). */
export const unsubscribeHeaders = (
  config: Pick<AccountsSettings, "publicUrl">,
  token: string,
): Record<string, string> => ({
  "List-Unsubscribe": `<${publicLink(config, "api/alerts/unsubscribe/one-click", { token })}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
})
