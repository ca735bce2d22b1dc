/**
 * A followed batch's signed release, copied beside it so that the replica serves the release
 * routes as the primary does (`fds verify --from <replica>` holds). The source is not trusted
 * with it either: the release is kept only when its signature verifies with the source's public
 * key, it names that key and this batch, and each file it lists is the one brought in (the
 * snapshot by the SHA-256 already checked against the source's Repr-Digest; the build manifest
 * fetched as bytes, checked against the release and against the manifest the batch was checked
 * with, then kept in its place, so the replica's manifest.json is the primary's byte for byte; the
 * Parquet files fetched and checked against the release, then written as the publish writes them).
 * A release that fails a check, or cannot be fetched, is not copied: the batch is followed all the
 * same (its data passed its own checks) and a warning names what failed.
 */
import { createHash, createPublicKey, type KeyObject } from "node:crypto"
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import { writeFileAtomic } from "../snapshots/Files.ts"
import type { Manifest } from "../snapshots/Manifest.ts"
import { PARQUET_FILE, parquetDir } from "../snapshots/parquet/ParquetFiles.ts"
import { keyFingerprint, PUBLIC_KEY_FILE, releasePath, signaturePath } from "../snapshots/releases/Release.ts"
import { checkSignedRelease } from "../snapshots/releases/ReleaseChain.ts"
import type { BatchSource, PrimaryBatch, SourceRelease } from "./BatchSource.ts"
import type { Log } from "../pipeline/daemon/Log.ts"

/** A release checked against the files brought in: what to write beside them. */
export interface FollowedRelease extends SourceRelease {
  /** The build manifest's bytes the release lists (null when it lists none). */
  readonly manifestBytes: Uint8Array | null
  /** The Parquet files the release lists, fetched and checked against it (none when the source cannot fetch them). */
  readonly parquet: ReadonlyArray<{ readonly file: string; readonly bytes: Uint8Array }>
}

const hexOfReprDigest = (reprDigest: string): string | null => {
  const m = /^sha-256=:([A-Za-z0-9+/=]+):$/.exec(reprDigest.trim())
  return m === null ? null : Buffer.from(m[1]!, "base64").toString("hex")
}

const publicKeyOf = (pem: string): KeyObject | string => {
  try {
    const key = createPublicKey(pem)
    return key.asymmetricKeyType === "ed25519" && key.type === "public" ? key : `the source's key is a ${key.asymmetricKeyType} ${key.type} key`
  } catch {
    return "the source's key is no PEM public key"
  }
}

/** Why the release does not describe what was brought in, or null when it does. */
const check = async (
  source: BatchSource,
  batch: PrimaryBatch,
  manifest: Manifest,
  got: { readonly reprDigest: string; readonly size: number },
  found: SourceRelease,
): Promise<FollowedRelease | string> => {
  const key = publicKeyOf(found.publicKeyPem)
  if (typeof key === "string") return key
  const checked = checkSignedRelease(batch.id, found.release, found.signature, key)
  if ("failed" in checked) return checked.failed
  let manifestBytes: Uint8Array | null = null
  const parquet: Array<{ readonly file: string; readonly bytes: Uint8Array }> = []
  const parquetPrefix = `${batch.id}.parquet/`
  for (const entry of checked.manifest.files) {
    if (entry.name.startsWith(parquetPrefix) && PARQUET_FILE.test(entry.name.slice(parquetPrefix.length))) {
      // a source that cannot bring them leaves them out: the replica answers 404 for them
      if (source.fetchParquetFile === undefined) continue
      const file = entry.name.slice(parquetPrefix.length)
      const bytes = await source.fetchParquetFile(batch.id, file, entry.size)
      const sha256 = createHash("sha256").update(bytes).digest("hex")
      if (bytes.length !== entry.size || sha256 !== entry.sha256) return `the Parquet file ${file}'s bytes are not the ones it lists (SHA-256 ${sha256})`
      parquet.push({ file, bytes })
    } else if (entry.name === `${batch.id}.sqlite`) {
      if (entry.size !== got.size || entry.sha256 !== hexOfReprDigest(got.reprDigest)) {
        return `it lists ${entry.name} with ${entry.size} bytes and SHA-256 ${entry.sha256}; the file brought in is not that one`
      }
    } else if (entry.name === `${batch.id}.manifest.json` && source.fetchManifestFile !== undefined) {
      const bytes = await source.fetchManifestFile(batch.id, entry.size)
      const sha256 = createHash("sha256").update(bytes).digest("hex")
      if (bytes.length !== entry.size || sha256 !== entry.sha256) return `the build manifest's bytes are not the ones it lists (SHA-256 ${sha256})`
      let parsed: Partial<Manifest>
      try {
        parsed = JSON.parse(Buffer.from(bytes).toString("utf8")) as Partial<Manifest>
      } catch {
        return "the build manifest it lists is not JSON"
      }
      for (const field of ["file", "batch_date", "content_hash", "row_counts"] as const) {
        if (JSON.stringify(parsed[field]) !== JSON.stringify(manifest[field])) return `the build manifest it lists differs from the batch's in ${field}`
      }
      manifestBytes = bytes
    } else {
      return `it lists ${entry.name}, which the follower cannot check`
    }
  }
  return { ...found, manifestBytes, parquet }
}

/**
 * The source's release of `batch`, checked against what was brought in; null (a warning logged
 * unless the source has none) when there is none to keep.
 */
export const followedRelease = async (
  source: BatchSource,
  batch: PrimaryBatch,
  manifest: Manifest,
  got: { readonly reprDigest: string; readonly size: number },
  log: Log,
): Promise<FollowedRelease | null> => {
  if (source.fetchRelease === undefined) return null
  let result: FollowedRelease | string
  try {
    const found = await source.fetchRelease(batch.id)
    if (found === null) return null
    result = await check(source, batch, manifest, got, found)
  } catch (e) {
    result = `it could not be fetched (${e instanceof Error ? e.message : String(e)})`
  }
  if (typeof result === "string") {
    log("warn", "the batch's release is not copied; the batch is followed without it", { batch: batch.id, error: `release ${batch.id}: ${result}` })
    return null
  }
  return result
}

/** Writes a checked release beside its batch: the public key, the manifest, the signature last (a release without it is one cut short). */
export const writeFollowedRelease = (snapshotsDir: string, batchId: string, release: FollowedRelease): string => {
  // the Parquet files first, whole folder at once (as the publish writes it), kept when there already
  const folder = parquetDir(snapshotsDir, batchId)
  if (release.parquet.length > 0 && !existsSync(folder)) {
    const temporary = `${folder}.${process.pid}.tmp`
    rmSync(temporary, { recursive: true, force: true })
    mkdirSync(temporary, { recursive: true })
    for (const { file, bytes } of release.parquet) writeFileAtomic(join(temporary, file), bytes)
    renameSync(temporary, folder)
  }
  const pem = release.publicKeyPem
  writeFileAtomic(join(snapshotsDir, PUBLIC_KEY_FILE), pem)
  writeFileAtomic(releasePath(snapshotsDir, batchId), release.release)
  writeFileAtomic(signaturePath(snapshotsDir, batchId), release.signature)
  return keyFingerprint(createPublicKey(pem))
}
