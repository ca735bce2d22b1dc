/**
 * `./fds verify`: checks a server's releases from the outside, as any client would. The public
 * key (/.well-known/fds-release-key.pem, or one given), then a batch's release manifest and its
 * signature, then each file the release lists, downloaded and hashed as it streams (size and
 * SHA-256; or, with a folder of files downloaded before, those files), then the chain: each `previous` link's release fetched, its signature checked and its
 * SHA-256 compared with the one the newer release names, back to the batch asked for, N links,
 * or the start of the chain. Each release must name the key it is checked with (`key_sha256`).
 * Stops at the first check that fails, naming it. The server is read as VerifyFetch.ts says: a
 * timeout on each request, a cap on each answer.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto"
import { createReadStream, existsSync } from "node:fs"
import { basename, join } from "node:path"
import type { ReleaseManifest } from "../schemas/Releases.ts"
import { CAPS, jsonAnswer, type Server, smallAnswer, streamDigest, VerifyFailed } from "./VerifyFetch.ts"
import { PARQUET_FILE } from "../snapshots/parquet/ParquetFiles.ts"
import { checkFile, checkLink, checkSignedRelease } from "../snapshots/releases/ReleaseChain.ts"
import { keyFingerprint } from "../snapshots/releases/Release.ts"
import { isBatchId } from "../schemas/Batches.ts"

export interface VerifyOptions extends Server {
  /** The batch to check; null: the one the server serves now (/health). */
  readonly batch: string | null
  /** The public key to trust (PEM), pinned; null: the server's well-known one (trust on first use). */
  readonly publicKeyPem: string | null
  /** How far back: the batch to reach, N links, or (both null) the start of the chain. */
  readonly to: string | null
  readonly back: number | null
  /** A folder holding the batch's files as downloaded before: checked there instead of downloaded; null: download them. */
  readonly files: string | null
  /** Progress, one line per check that held. */
  readonly say: (line: string) => void
  /** A warning: what was checked holds, but trusts more than it should. */
  readonly warn: (line: string) => void
}

export { VerifyFailed } from "./VerifyFetch.ts"

/** A local file's size and SHA-256, read in pieces; null when there is no such file. */
const localDigest = async (path: string): Promise<{ size: number; sha256: string } | null> => {
  if (!existsSync(path)) return null
  const hash = createHash("sha256")
  let size = 0
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer)
    size += (chunk as Buffer).length
  }
  return { size, sha256: hash.digest("hex") }
}

/** A Parquet file a release lists (`<batch id>.parquet/<file>`): its file name, or null. */
const parquetOf = (batchId: string, name: string): string | null => {
  const file = name.startsWith(`${batchId}.parquet/`) ? name.slice(batchId.length + ".parquet/".length) : null
  return file !== null && PARQUET_FILE.test(file) ? file : null
}

/** Where a file a release lists is downloaded from. */
export const filePath = (batchId: string, name: string): string | null => {
  const parquet = parquetOf(batchId, name)
  return name === `${batchId}.sqlite`
    ? `/api/batches/${batchId}/snapshot`
    : name === `${batchId}.manifest.json`
      ? `/api/batches/${batchId}/manifest.json`
      : parquet !== null
        ? `/api/batches/${batchId}/parquet/${parquet}`
        : null
}

/** Where a file a release lists is in a folder of downloaded files: by its name, a Parquet file in `<batch id>.parquet/`. */
const localPath = (files: string, batchId: string, name: string): string => {
  const parquet = parquetOf(batchId, name)
  return parquet === null ? join(files, basename(name)) : join(files, `${batchId}.parquet`, parquet)
}

/** The Ed25519 public key in `pem`; a private key is refused (a public key is what a verifier holds). */
export const publicKeyOf = (pem: string, where: string): KeyObject => {
  let isPrivate = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(pem)
  try {
    createPrivateKey(pem)
    isPrivate = true
  } catch {}
  if (isPrivate) throw new VerifyFailed(`${where} holds a private key; give the public key (openssl pkey -in FILE -pubout), and keep the private one off this machine`)
  let key: KeyObject
  try {
    key = createPublicKey(pem)
  } catch {
    throw new VerifyFailed(`${where} is not a PEM public key`)
  }
  if (key.asymmetricKeyType !== "ed25519") throw new VerifyFailed(`${where} is a ${key.asymmetricKeyType} key, not Ed25519`)
  return key
}

/** A batch's release, its signature checked. */
const signedRelease = async (options: VerifyOptions, key: KeyObject, batchId: string): Promise<{ manifest: ReleaseManifest; bytes: Uint8Array }> => {
  const bytes = await smallAnswer(options, `/api/batches/${batchId}/release`, true, CAPS.release, "a release manifest")
  const signature = await smallAnswer(options, `/api/batches/${batchId}/release.sig`, true, CAPS.signature, "a signature")
  const checked = checkSignedRelease(batchId, bytes, signature, key)
  if ("failed" in checked) throw new VerifyFailed(checked.failed)
  return { manifest: checked.manifest, bytes }
}

/** Checks the batch, its files and the chain back; resolves with the releases checked (newest first), rejects with VerifyFailed. */
export const verifyReleases = async (options: VerifyOptions): Promise<ReadonlyArray<string>> => {
  const wellKnown = new URL("/.well-known/fds-release-key.pem", options.from).href
  const keyPem = options.publicKeyPem ?? new TextDecoder().decode(await smallAnswer(options, wellKnown, false, CAPS.key, "a public key"))
  const key = publicKeyOf(keyPem, options.publicKeyPem === null ? `GET ${wellKnown}: the answer` : "the key given (--pubkey)")
  options.say(`key: Ed25519, sha256 ${keyFingerprint(key)}`)
  if (options.publicKeyPem === null) {
    options.warn(
      `warning: the public key came from ${wellKnown}, the server being checked (trust on first use): ` +
        `a server that altered its releases could sign them with a key of its own. Pin the key you trust with --pubkey FILE`,
    )
  }
  let batchId = options.batch
  if (batchId === null) {
    const health = await jsonAnswer(options, "/health", CAPS.health, "/health's answer")
    if (typeof health.batch_id !== "string" || !isBatchId(health.batch_id)) {
      throw new VerifyFailed(`GET ${new URL("/health", options.from)}: names no batch served (batch_id ${JSON.stringify(health.batch_id ?? null).slice(0, 80)})`)
    }
    batchId = health.batch_id
  }
  let newer = await signedRelease(options, key, batchId)
  options.say(`release ${batchId}: signature holds`)
  for (const entry of newer.manifest.files) {
    let received: { size: number; sha256: string }
    if (options.files !== null) {
      const local = await localDigest(localPath(options.files, batchId, entry.name))
      if (local === null) throw new VerifyFailed(`batch ${batchId}: file ${entry.name} is not in ${options.files}`)
      received = local
    } else {
      const path = filePath(batchId, entry.name)
      if (path === null) throw new VerifyFailed(`release ${batchId}: lists ${entry.name}, which no route serves`)
      received = await streamDigest(options, path, entry.name, entry.size)
    }
    const failed = checkFile(batchId, entry, received)
    if (failed !== null) throw new VerifyFailed(failed)
    options.say(`file ${entry.name}: ${entry.size} bytes, SHA-256 ${entry.sha256}`)
  }
  const checked = [batchId]
  for (let links = 0; ; links++) {
    if (options.to !== null && newer.manifest.batch_id === options.to) break
    if (options.back !== null && links >= options.back) break
    const previous = newer.manifest.previous
    if (previous === null) {
      if (options.to !== null) throw new VerifyFailed(`the chain starts at ${newer.manifest.batch_id}; it never reaches ${options.to}`)
      if (options.back !== null) throw new VerifyFailed(`the chain starts at ${newer.manifest.batch_id}, ${links} link(s) back, not ${options.back}`)
      break
    }
    if (!isBatchId(previous.batch_id)) throw new VerifyFailed(`release ${newer.manifest.batch_id}: its previous release names ${JSON.stringify(previous.batch_id).slice(0, 80)}, not a batch id`)
    const older = await signedRelease(options, key, previous.batch_id)
    const broken = checkLink(newer.manifest, previous.batch_id, older.bytes)
    if (broken !== null) throw new VerifyFailed(broken)
    options.say(`release ${previous.batch_id}: signature holds, and ${newer.manifest.batch_id} names its SHA-256`)
    checked.push(previous.batch_id)
    newer = older
  }
  return checked
}
