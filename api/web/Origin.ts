/**
 * The Origin rule of account routes and the /register form: a browser request whose Origin header
 * is not the public origin (or one of FDS_TRUSTED_ORIGINS) is refused with 403. A request that
 * changes something (not GET or HEAD) without Origin is judged by its Referer instead, as OWASP
 * advises for browsers that leave Origin out; one with neither (a non-browser client) passes.
 * GET and HEAD are judged by Origin alone: a sign-in callback or a mailed link arrives from
 * another site's page (the identity provider, a webmail) with its Referer. The session cookie's
 * SameSite=Lax keeps cross-site browser requests from carrying a session anyway.
 */
import type { AccountsSettings } from "../../accounts/AccountsConfig.ts"

const refererOrigin = (referer: string): string | null => {
  try {
    return new URL(referer).origin
  } catch {
    return null
  }
}

export const isTrustedOrigin = (
  config: Pick<AccountsSettings, "trustedOrigins">,
  request: { readonly method: string; readonly headers: Readonly<Record<string, string | undefined>> },
): boolean => {
  const { origin, referer } = request.headers
  if (origin !== undefined) return config.trustedOrigins.has(origin)
  if (request.method === "GET" || request.method === "HEAD" || referer === undefined) return true
  const from = refererOrigin(referer)
  return from !== null && config.trustedOrigins.has(from)
}
