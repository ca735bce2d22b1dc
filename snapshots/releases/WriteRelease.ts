/**
 * Writes a batch's release before the batch is published: its files' sizes and SHA-256 (read
 * back from disk, in 1 MiB pieces), the previous release's SHA-256, the manifest, its signature,
 * and the public key beside them. Each file is written whole (temp file, fsync, rename); the
 * signature goes last, so a release without its signature is one a crash cut short, and is
 * written again by the next publish of the batch.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs"
import { createHash, type KeyObject } from "node:crypto"
import { join } from "node:path"
import type { ReleaseFile, ReleaseManifest } from "../../schemas/Releases.ts"
import { writeFileAtomic } from "../Files.ts"
import { manifestPath } from "../Manifest.ts"
import { parquetDir, parquetFiles, parquetReleaseName } from "../parquet/ParquetFiles.ts"
import { makeRelease, PUBLIC_KEY_FILE, publicKeyPem, releaseBytes, releasePath, sha256Hex, signaturePath, signRelease } from "./Release.ts"

const CHUNK = 1024 * 1024

/** A file's size and SHA-256, read in pieces (a snapshot may be a few GB). */
export const describeFile = (path: string, name: string): ReleaseFile => {
  const hash = createHash("sha256")
  const buffer = Buffer.allocUnsafe(CHUNK)
  const fd = openSync(path, "r")
  let size = 0
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null)
      if (n === 0) break
      hash.update(buffer.subarray(0, n))
      size += n
    }
  } finally {
    closeSync(fd)
  }
  return { name, size, sha256: hash.digest("hex") }
}

/** The files of a batch a release lists: its snapshot and, when there, its build manifest and its Parquet files. */
export const batchFiles = (snapshotsDir: string, batchId: string): ReleaseFile[] => {
  const snapshot = `${batchId}.sqlite`
  const manifest = manifestPath(snapshotsDir, snapshot)
  return [
    describeFile(join(snapshotsDir, snapshot), snapshot),
    ...(existsSync(manifest) ? [describeFile(manifest, `${batchId}.manifest.json`)] : []),
    ...parquetFiles(snapshotsDir, batchId).map((f) => describeFile(join(parquetDir(snapshotsDir, batchId), f), parquetReleaseName(batchId, f))),
  ]
}

/** Whether the batch has a whole release (its signature is written last). */
export const hasRelease = (snapshotsDir: string, batchId: string): boolean =>
  existsSync(releasePath(snapshotsDir, batchId)) && existsSync(signaturePath(snapshotsDir, batchId))

/** The link to `previousBatchId`'s release; null when it has none (published before releases were signed). */
export const linkTo = (snapshotsDir: string, previousBatchId: string | null): ReleaseManifest["previous"] =>
  previousBatchId === null || !hasRelease(snapshotsDir, previousBatchId)
    ? null
    : { batch_id: previousBatchId, release_sha256: sha256Hex(readFileSync(releasePath(snapshotsDir, previousBatchId))) }

/**
 * Signs and writes the release of `batchId` (its snapshot already in `snapshotsDir`), chained to
 * `previousBatchId`'s; a batch that has one already keeps it (a release never changes).
 */
export const writeRelease = (args: {
  readonly snapshotsDir: string
  readonly batchId: string
  readonly previousBatchId: string | null
  readonly key: KeyObject
  readonly now: Date
}): ReleaseManifest | null => {
  const { snapshotsDir, batchId } = args
  const pem = publicKeyPem(args.key)
  const keyFile = join(snapshotsDir, PUBLIC_KEY_FILE)
  if (!existsSync(keyFile) || readFileSync(keyFile, "utf8") !== pem) writeFileAtomic(keyFile, pem)
  if (hasRelease(snapshotsDir, batchId)) return null
  const manifest = makeRelease({
    batchId,
    createdAt: args.now.toISOString(),
    key: args.key,
    files: batchFiles(snapshotsDir, batchId),
    previous: linkTo(snapshotsDir, args.previousBatchId === batchId ? null : args.previousBatchId),
  })
  const bytes = releaseBytes(manifest)
  writeFileAtomic(releasePath(snapshotsDir, batchId), bytes)
  writeFileAtomic(signaturePath(snapshotsDir, batchId), signRelease(bytes, args.key))
  return manifest
}
