/**
 * The Origin rule of account routes and the /register form: a browser request whose Origin header
 * is not the public origin (or one of FDS_TRUSTED_ORIGINS) is refused with 403. Requests without
 * Origin (non-browser clients; browsers always send it on POST) pass; the session cookie's
 * SameSite=Lax keeps cross-site browser requests from carrying a session anyway.
 */
import type { AccountsSettings } from "../accounts/AccountsConfig.ts"

export const isTrustedOrigin = (config: Pick<AccountsSettings, "trustedOrigins">, origin: string | undefined): boolean =>
  origin === undefined || config.trustedOrigins.has(origin)
