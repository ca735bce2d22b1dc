/**
 * The service secret, the HMAC key of the unsubscribe tokens: FDS_SECRET, else data/secret.key
 * (32 random bytes in hex, generated once). Whoever knows the key can sign tokens, so a key under
 * 32 bytes (an empty file left by a crash, a short FDS_SECRET) is refused at start with what to do,
 * never used. The file is written whole or not at all, and never over one another process wrote
 * first (writeFileOnce, snapshots/Files.ts: the two would sign with different keys).
 */
import { writeFileOnce } from "../snapshots/Files.ts"
import { Effect, Option, Redacted, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/** Shortest key accepted: SHA-256's block-size guidance for HMAC keys, and what secret.key holds. */
export const SECRET_MIN_BYTES = 32

/** The secret is missing, short or unreadable: the service does not start. */
export class SecretUnusable extends Schema.TaggedError<SecretUnusable>()("SecretUnusable", {
  message: Schema.String,
}) {}

const HEX = /^(?:[0-9a-fA-F]{2})*$/

/** The key in a secret.key file's text; null when it is not whole hex bytes. */
const keyOfFile = (text: string): Uint8Array | null => {
  const hex = text.trim()
  return HEX.test(hex) ? new Uint8Array(Buffer.from(hex, "hex")) : null
}

const fromEnv = (value: Redacted.Redacted<string>): Effect.Effect<Redacted.Redacted<Uint8Array>, SecretUnusable> => {
  const key = Buffer.from(Redacted.value(value), "utf8")
  return key.length >= SECRET_MIN_BYTES
    ? Effect.succeed(Redacted.make(new Uint8Array(key)))
    : Effect.fail(
        new SecretUnusable({
          message:
            `FDS_SECRET is ${key.length} bytes long; the signing key needs at least ${SECRET_MIN_BYTES} bytes. ` +
            "Set a longer one (for example the output of `openssl rand -hex 32`; every replica needs the same), " +
            "or unset FDS_SECRET to have one generated into data/secret.key.",
        }),
      )
}

/** Writes a new key to `path` unless a file is there; the one that ends up there wins. */
const writeOnce = (path: string): void => writeFileOnce(path, `${randomBytes(SECRET_MIN_BYTES).toString("hex")}\n`)

const fromFile = (dataDir: string): Effect.Effect<Redacted.Redacted<Uint8Array>, SecretUnusable> => {
  const path = join(dataDir, "secret.key")
  return Effect.try({
    try: () => {
      if (!existsSync(path)) writeOnce(path)
      return keyOfFile(readFileSync(path, "utf8"))
    },
    catch: (e) =>
      new SecretUnusable({ message: `cannot read or write ${path}: ${e instanceof Error ? e.message : String(e)}` }),
  }).pipe(
    Effect.flatMap((key) =>
      key !== null && key.length >= SECRET_MIN_BYTES
        ? Effect.succeed(Redacted.make(key))
        : Effect.fail(
            new SecretUnusable({
              message:
                `${path} holds ${key === null ? "no hex key" : `a key of ${key.length} bytes`}; the signing key needs at ` +
                `least ${SECRET_MIN_BYTES} bytes. ` +
                "To fix: delete it to have a new one generated at the next start (unsubscribe links already mailed " +
                `stop working), or set FDS_SECRET to ${SECRET_MIN_BYTES} bytes or more.`,
            }),
          ),
    ),
  )
}

/** The signing key: FDS_SECRET when set, else data/secret.key (created when missing). */
export const serviceSecret = (
  env: Option.Option<Redacted.Redacted<string>>,
  dataDir: string,
): Effect.Effect<Redacted.Redacted<Uint8Array>, SecretUnusable> =>
  Option.isSome(env) ? fromEnv(env.value) : fromFile(dataDir)
