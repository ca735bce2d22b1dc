/**
 * The key that signs the releases (Ed25519): FDS_RELEASE_SIGNING_KEY (PEM text, read redacted),
 * else the file FDS_RELEASE_SIGNING_KEY_FILE names, else data/release-signing-key.pem, generated
 * once (0600 from its creation, written whole, hard-linked to its name so that two processes
 * starting together keep one key) and reused. The private key is never logged: it stays inside a
 * Redacted, and an error names the setting or the file, never their contents.
 *
 * A key is never replaced silently: when releases were signed before (the public key beside them,
 * snapshots/release-key.pem) with another key, or the generated key file is gone while releases
 * exist, the key is refused: the chain would go on under a key no verifier pinned, and the lost
 * key file would be generated again. FDS_RELEASE_NEW_KEY=true starts a new key on purpose (the
 * releases before it then verify only with the old public key).
 */
import { generateKeyPairSync, type KeyObject, createPrivateKey, createPublicKey } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { writeFileOnce } from "../Files.ts"
import { Config, Effect, Option, Redacted, Schema } from "effect"
import { keyFingerprint, PUBLIC_KEY_FILE } from "./Release.ts"

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

/**
 * The key the releases in `snapshotsDir` were signed with so far: the SHA-256 of the public key
 * written beside them, "unknown" when releases are there without it, null when there are none.
 */
const earlierKey = (snapshotsDir: string): string | null => {
  const keyFile = join(snapshotsDir, PUBLIC_KEY_FILE)
  if (existsSync(keyFile)) {
    try {
      return keyFingerprint(createPublicKey(readFileSync(keyFile, "utf8")))
    } catch {
      return "unknown"
    }
  }
  return existsSync(snapshotsDir) && readdirSync(snapshotsDir).some((f) => f.endsWith(".release.json")) ? "unknown" : null
}

const NEW_KEY_HINT = "set FDS_RELEASE_NEW_KEY=true to start a new signing key on purpose (the releases before it then verify only with the old public key)"

/**
 * The release signing key (see the module's comment for where it comes from), refused when it is
 * not the one the releases in `snapshotsDir` were signed with, unless FDS_RELEASE_NEW_KEY says to
 * start a new one. `generate` false: null instead of generating the data folder's key.
 */
const findKey = Effect.fn("findKey")(function* (dataDir: string, snapshotsDir: string, generate: boolean) {
  const inline = yield* Config.option(Config.Redacted("FDS_RELEASE_SIGNING_KEY"))
  const file = yield* Config.option(Config.NonEmptyString("FDS_RELEASE_SIGNING_KEY_FILE"))
  const newKey = yield* Config.Boolean("FDS_RELEASE_NEW_KEY").pipe(Config.withDefault(false))
  if (Option.isSome(inline) && Option.isSome(file)) {
    return yield* new ReleaseKeyUnusable({ message: "set FDS_RELEASE_SIGNING_KEY or FDS_RELEASE_SIGNING_KEY_FILE, not both" })
  }
  const earlier = newKey ? null : earlierKey(snapshotsDir)
  const generated = join(dataDir, GENERATED_KEY_FILE)
  if (Option.isNone(inline) && Option.isNone(file) && !existsSync(generated)) {
    if (earlier !== null) {
      // a lost key file: generating another would break the chain without a word
      return yield* new ReleaseKeyUnusable({
        message:
          `${generated} is missing, but releases were signed before (key sha256 ${earlier}): restore that key file (it is not regenerated), ` +
          `or give the key with FDS_RELEASE_SIGNING_KEY(_FILE), or ${NEW_KEY_HINT}`,
      })
    }
    if (!generate) return null
  }
  const key = Option.isSome(inline)
    ? yield* privateKeyOf(Redacted.value(inline.value), "FDS_RELEASE_SIGNING_KEY")
    : Option.isSome(file)
      ? yield* readKeyFile(file.value, false)
      : yield* readKeyFile(generated, true)
  const where = Option.isSome(inline) ? "FDS_RELEASE_SIGNING_KEY" : Option.isSome(file) ? file.value : generated
  if (earlier !== null && earlier !== "unknown" && earlier !== keyFingerprint(key)) {
    return yield* new ReleaseKeyUnusable({
      message: `the key in ${where} (sha256 ${keyFingerprint(key)}) is not the one the releases so far were signed with (sha256 ${earlier}): give that key, or ${NEW_KEY_HINT}`,
    })
  }
  return { key, where }
})

/** The release signing key (see findKey), generated into the data folder when none is given nor there. */
export const releaseSigningKey = Effect.fn("releaseSigningKey")(function* (dataDir: string, snapshotsDir: string = join(dataDir, "snapshots")) {
  const found = yield* findKey(dataDir, snapshotsDir, true)
  if (found === null) return yield* new ReleaseKeyUnusable({ message: `no release signing key in ${join(dataDir, GENERATED_KEY_FILE)}` })
  return Redacted.make(found.key)
})

/**
 * The release signing key checked as the next publish would check it, nothing generated
 * (`config check`): where it comes from and its public key's SHA-256, in words.
 */
export const releaseKeyCheck = Effect.fn("releaseKeyCheck")(function* (dataDir: string, snapshotsDir: string = join(dataDir, "snapshots")) {
  const found = yield* findKey(dataDir, snapshotsDir, false)
  return found === null
    ? `none yet: generated into ${join(dataDir, GENERATED_KEY_FILE)} at the first publish`
    : `Ed25519 from ${found.where}, public key sha256 ${keyFingerprint(found.key)}`
})
