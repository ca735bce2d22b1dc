/**
 * API key format: `fds_<lookup>_<secret><check>`
 *   lookup  8 base62 chars, stored in clear to find the key's row (and to recognise it in support)
 *   secret  43 base62 chars from 32 random bytes (256 bits of CSPRNG)
 *   check   6 base62 chars of CRC32 over the rest, so scanners recognise a leaked key offline and
 *           a mistyped key is refused without touching the database.
 * Only SHA-256 of the whole key is stored; comparison is constant-time.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"
import { crc32 } from "node:zlib"

export const KEY_PREFIX = "fds_"
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const KEY_SHAPE = /^fds_([0-9A-Za-z]{8})_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/

const base62 = (bytes: Uint8Array, length: number): string => {
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  let out = ""
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(n % 62n)] + out
    n /= 62n
  }
  return out
}

/** Six base62 digits of the CRC32 (62⁶ > 2³²), in number arithmetic: it runs on every request's key. */
const checksum = (body: string): string => {
  let n = crc32(body) >>> 0
  let out = ""
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[n % 62]! + out
    n = Math.floor(n / 62)
  }
  return out
}

export interface NewKey {
  readonly key: string
  readonly lookup: string
  readonly hash: string
}

export const hashKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

export const generateKey = (random: (n: number) => Uint8Array = randomBytes): NewKey => {
  const lookup = base62(random(6), 8)
  const secret = base62(random(32), 43)
  const body = `${KEY_PREFIX}${lookup}_${secret}`
  const key = body + checksum(body)
  return { key, lookup, hash: hashKey(key) }
}

/** The lookup token of a well-formed key with a valid checksum, else null. */
export const parseKey = (key: string): { readonly lookup: string } | null => {
  const m = KEY_SHAPE.exec(key)
  if (m === null) return null
  const body = key.slice(0, key.length - 6)
  return checksum(body) === m[3] ? { lookup: m[1]! } : null
}

/** Constant-time comparison of the key's hash with a stored hash (hex). */
export const keyMatches = (key: string, storedHash: string): boolean => {
  const a = Buffer.from(hashKey(key), "hex")
  const b = Buffer.from(storedHash, "hex")
  return a.length === b.length && timingSafeEqual(a, b)
}
