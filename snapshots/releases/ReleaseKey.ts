/**
 * The key that signs the releases (Ed25519): FDS_RELEASE_SIGNING_KEY (PEM text, read redacted),
 * else the file FDS_RELEASE_SIGNING_KEY_FILE names, else data/release-signing-key.pem, generated
 * once (0600 from its creation, written whole, hard-linked to its name so that two processes
 * starting together keep one key) and reused. The private key is never logged: it stays inside a
 * Redacted, and an error names the setting or the file, never their contents.
 */
import { generateKeyPairSync, type KeyObject, createPrivateKey } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { writeFileOnce } from "../Files.ts"
import { Config, Effect, Option, Redacted, Schema } from "effect"

export const GENERATED_KEY_FILE = "release-signing-key.pem"

/** The signing key is set but is not an Ed25519 private key, or its file cannot be read or written. */
export class ReleaseKeyUnusable extends Schema.TaggedError<ReleaseKeyUnusable>()("ReleaseKeyUnusable", {
  message: Schema.String,
}) {}

/** An Ed25519 private key from PEM text; `where` names the setting or file for the error. */
const privateKeyOf = (pem: string, where: string): Effect.Effect<KeyObject, ReleaseKeyUnusable> => {
  let key: KeyObject
  try {
    key = createPrivateKey(pem)
  } catch {
    return Effect.fail(new ReleaseKeyUnusable({ message: `${where} holds no PEM private key (make one: openssl genpkey -algorithm ed25519)` }))
  }
  return key.asymmetricKeyType === "ed25519"
    ? Effect.succeed(key)
    : Effect.fail(
        new ReleaseKeyUnusable({
          message: `${where} holds a ${key.asymmetricKeyType ?? "?"} key; releases are signed with Ed25519 (openssl genpkey -algorithm ed25519)`,
        }),
      )
}

/** Writes a new key to `path` unless a file is there; the one that ends up there wins. */
const writeOnce = (path: string): void =>
  writeFileOnce(path, generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString())

const readKeyFile = (path: string, generate: boolean): Effect.Effect<KeyObject, ReleaseKeyUnusable> =>
  Effect.try({
    try: () => {
      if (generate && !existsSync(path)) writeOnce(path)
      return readFileSync(path, "utf8")
    },
    catch: (e) => new ReleaseKeyUnusable({ message: `cannot read${generate ? " or write" : ""} ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` }),
  }).pipe(Effect.flatMap((pem) => privateKeyOf(pem, path)))

/** The release signing key (see the module's comment for where it comes from). */
export const releaseSigningKey = Effect.fn("releaseSigningKey")(function* (dataDir: string) {
  const inline = yield* Config.option(Config.Redacted("FDS_RELEASE_SIGNING_KEY"))
  const file = yield* Config.option(Config.NonEmptyString("FDS_RELEASE_SIGNING_KEY_FILE"))
  if (Option.isSome(inline) && Option.isSome(file)) {
    return yield* new ReleaseKeyUnusable({ message: "set FDS_RELEASE_SIGNING_KEY or FDS_RELEASE_SIGNING_KEY_FILE, not both" })
  }
  if (Option.isSome(inline)) {
    return Redacted.make(yield* privateKeyOf(Redacted.value(inline.value), "FDS_RELEASE_SIGNING_KEY"))
  }
  const key = Option.isSome(file) ? yield* readKeyFile(file.value, false) : yield* readKeyFile(join(dataDir, GENERATED_KEY_FILE), true)
  return Redacted.make(key)
})
