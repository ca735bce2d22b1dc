/**
 * What in a request may be a secret, so that it is neither logged nor kept: values under secret
 * query names, and anything shaped like an API key (accounts/ApiKey.ts), with or without its
 * `fds_` prefix, plainly or percent-encoded (once or more).
 */
import { KEY_PREFIX, parseKey } from "../../accounts/ApiKey.ts"

/**
 * Query names that carry secrets here: keys (refused, but sent), sign-in codes and states,
 * one-time tokens. The access log redacts their values; targets holding them are never kept.
 */
export const SECRET_QUERY_NAMES: ReadonlyArray<string> = ["api_key", "apikey", "key", "x-api-key", "token", "access_token", "code", "state"]
// `;` too: the router reads what follows a `;` in the path as the query
const SECRET_QUERY = new RegExp(`[?&;](?:${SECRET_QUERY_NAMES.join("|")})=`, "i")

/** The key sent as `Authorization: Bearer <key>`; undefined without one. */
export const bearerToken = (authorization: string | undefined): string | undefined => {
  const m = /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")
  return m?.[1]
}

/** `text` percent-decoded, as the router and URLSearchParams read it (an escape that does not decode stays as it is). */
export const decodedLoosely = (text: string): string => {
  if (!text.includes("%")) return text
  try {
    return decodeURIComponent(text)
  } catch {
    return text.replace(/%[0-9a-f]{2}/giu, (sequence) => {
      try {
        return decodeURIComponent(sequence)
      } catch {
        return sequence
      }
    })
  }
}

/** Decoded up to three times: a key encoded twice (`%2566ds_`) is still recognised. */
const decodings = (text: string): ReadonlyArray<string> => {
  const forms = [text]
  for (let i = 0; i < 3; i++) {
    const next = decodedLoosely(forms[forms.length - 1]!)
    if (next === forms[forms.length - 1]) break
    forms.push(next)
  }
  return forms
}

/** A key after its prefix: the lookup, `_`, the secret and the check characters. */
const KEY_BODY = /[0-9A-Za-z]{8}_[0-9A-Za-z]{49}/g
/**
 * A run as long as a key's secret (43 base62 characters from 32 random bytes) in both cases of
 * letters: the secret part of a key whatever was cut off it. Hex digests and words in one case do
 * not count (a random secret is in one case with odds ~1e-10).
 */
const SECRET_RUN = /[0-9A-Za-z]{43,}/g
const mixedCase = (run: string): boolean => /[A-Z]/.test(run) && /[a-z]/.test(run)

/** True when a (decoded) text holds the prefix, a key body whose check characters are right, or a secret-like run. */
const keyShaped = (text: string): boolean => {
  if (text.toLowerCase().includes(KEY_PREFIX)) return true
  for (const [body] of text.matchAll(KEY_BODY)) if (parseKey(`${KEY_PREFIX}${body}`) !== null) return true
  for (const [run] of text.matchAll(SECRET_RUN)) if (mixedCase(run)) return true
  return false
}

/**
 * True when `text` (a path segment, a query name or value, a header) holds an API key or the
 * secret part of one, with or without its prefix, plainly or percent-encoded.
 */
export const holdsKey = (text: string): boolean => decodings(text).some(keyShaped)

/** `text` (an error's message and stack) with anything shaped like a key replaced by "[redacted]". */
export const redactKeys = (text: string): string =>
  text
    .replace(/fds_[0-9A-Za-z_]*/giu, "[redacted]")
    .replace(KEY_BODY, (body) => (parseKey(`${KEY_PREFIX}${body}`) === null ? body : "[redacted]"))
    .replace(SECRET_RUN, (run) => (mixedCase(run) ? "[redacted]" : run))

/** True when a request target (or a text holding one) may carry a secret, spelled plainly or percent-encoded. */
export const mayHoldSecret = (text: string): boolean => SECRET_QUERY.test(decodedLoosely(text)) || holdsKey(text)
