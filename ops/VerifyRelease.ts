/**
 * `./fds verify`: checks a server's releases from the outside, as any client would. The public
 * key (/.well-known/fds-release-key.pem, or one given), then a batch's release manifest and its
 * signature, then each file the release lists, downloaded and hashed as it streams (size and
 * SHA-256; or, with a folder of files downloaded before, those files), then the chain: each `previous` link's release fetched, its signature checked and its
 * SHA-256 compared with the one the newer release names, back to the batch asked for, N links,
 * or the start of the chain. Stops at the first check that fails, naming it.
 */
import { createHash, createPublicKey, type KeyObject } from "node:crypto"
import { createReadStream, existsSync } from "node:fs"
import { basename, join } from "node:path"
import type { ReleaseManifest } from "../schemas/Releases.ts"
import { PARQUET_FILE } from "../snapshots/parquet/ParquetFiles.ts"
import { checkFile, checkLink, checkSignedRelease } from "../snapshots/releases/ReleaseChain.ts"
import { keyFingerprint } from "../snapshots/releases/Release.ts"

export interface VerifyOptions {
  /** The server's base URL. */
  readonly from: string
  /** An API key of the server (the release routes are keyed like the other batch downloads). */
  readonly apiKey: string
  /** The batch to check; null: the one the server serves now (/health). */
  readonly batch: string | null
  /** The public key to trust (PEM); null: the server's well-known one. */
  readonly publicKeyPem: string | null
  /** How far back: the batch to reach, N links, or (both null) the start of the chain. */
  readonly to: string | null
  readonly back: number | null
  /** A folder holding the batch's files as downloaded before: checked there instead of downloaded; null: download them. */
  readonly files: string | null
  /** Progress, one line per check that held. */
  readonly say: (line: string) => void
}

/** A check that failed: what, in words naming the batch and the file. */
export class VerifyFailed extends Error {}

const RETRIES = 5

/** GET `path`, retried on 429 and 503 as Retry-After says (at most a few times). */
const get = async (options: VerifyOptions, path: string, keyed: boolean): Promise<Response> => {
  const url = new URL(path, options.from)
  for (let attempt = 0; ; attempt++) {
    let response: Response
    try {
      response = await fetch(url, { headers: keyed ? { "x-api-key": options.apiKey } : {} })
    } catch (e) {
      throw new VerifyFailed(`GET ${url}: ${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)}`)
    }
    if (response.ok) return response
    const wait = Number(response.headers.get("retry-after") ?? "")
    if ((response.status === 429 || response.status === 503) && attempt < RETRIES && Number.isFinite(wait) && wait <= 10) {
      await response.body?.cancel()
      await new Promise((r) => setTimeout(r, Math.max(wait, 0.2) * 1000))
      continue
    }
    const text = await response.text()
    let detail = text.slice(0, 300)
    try {
      detail = (JSON.parse(text) as { detail?: string }).detail ?? detail
    } catch {}
    throw new VerifyFailed(`GET ${url}: ${response.status} ${detail}`)
  }
}

const bytesOf = async (options: VerifyOptions, path: string, keyed: boolean): Promise<Uint8Array> =>
  new Uint8Array(await (await get(options, path, keyed)).arrayBuffer())

/** A file's size and SHA-256 as it streams in (a snapshot is never held whole). */
const streamDigest = async (options: VerifyOptions, path: string): Promise<{ size: number; sha256: string }> => {
  const response = await get(options, path, true)
  const hash = createHash("sha256")
  let size = 0
  if (response.body !== null) {
    for await (const chunk of response.body) {
      hash.update(chunk)
      size += chunk.length
    }
  }
  return { size, sha256: hash.digest("hex") }
}

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

const publicKeyOf = (pem: string, where: string): KeyObject => {
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
  const bytes = await bytesOf(options, `/api/batches/${batchId}/release`, true)
  const signature = await bytesOf(options, `/api/batches/${batchId}/release.sig`, true)
  const checked = checkSignedRelease(batchId, bytes, signature, key)
  if ("failed" in checked) throw new VerifyFailed(checked.failed)
  return { manifest: checked.manifest, bytes }
}

/** Checks the batch, its files and the chain back; resolves with the releases checked (newest first), rejects with VerifyFailed. */
export const verifyReleases = async (options: VerifyOptions): Promise<ReadonlyArray<string>> => {
  const keyPem = options.publicKeyPem ?? new TextDecoder().decode(await bytesOf(options, "/.well-known/fds-release-key.pem", false))
  const key = publicKeyOf(keyPem, options.publicKeyPem === null ? "/.well-known/fds-release-key.pem" : "the key given")
  options.say(`key: Ed25519, sha256 ${keyFingerprint(key)}`)
  let batchId = options.batch
  if (batchId === null) {
    const health = (await (await get(options, "/health", false)).json()) as { batch_id?: string | null }
    if (typeof health.batch_id !== "string") throw new VerifyFailed("the server serves no batch (/health's batch_id is null)")
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
      received = await streamDigest(options, path)
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
    const older = await signedRelease(options, key, previous.batch_id)
    const broken = checkLink(newer.manifest, previous.batch_id, older.bytes)
    if (broken !== null) throw new VerifyFailed(broken)
    options.say(`release ${previous.batch_id}: signature holds, and ${newer.manifest.batch_id} names its SHA-256`)
    checked.push(previous.batch_id)
    newer = older
  }
  return checked
}
