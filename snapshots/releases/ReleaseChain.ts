/**
 * The checks of a release chain, over bytes received: a manifest's signature, a file against its
 * entry, and the link from a release to the one before it. Each answers null when it holds, else
 * what failed, in words that name the batch and the file.
 */
import type { KeyObject } from "node:crypto"
import type { ReleaseFile, ReleaseManifest } from "../../schemas/Releases.ts"
import { keyFingerprint, parseRelease, sha256Hex, signatureHolds } from "./Release.ts"

/**
 * The manifest in `bytes` when `signature` is its signature by `publicKey`, it is of `batchId` and
 * its `key_sha256` names `publicKey`; else what failed.
 */
export const checkSignedRelease = (
  batchId: string,
  bytes: Uint8Array,
  signature: Uint8Array,
  publicKey: KeyObject,
): { readonly manifest: ReleaseManifest } | { readonly failed: string } => {
  if (!signatureHolds(bytes, signature, publicKey)) {
    return { failed: `release ${batchId}: the signature does not verify with the public key (key sha256 ${keyFingerprint(publicKey)})` }
  }
  const manifest = parseRelease(bytes)
  if (typeof manifest === "string") return { failed: `release ${batchId}: the manifest is malformed: ${manifest}` }
  if (manifest.batch_id !== batchId) return { failed: `release ${batchId}: the manifest is of batch ${manifest.batch_id}` }
  // the signature holds, so this key signed it: a release naming another says it was meant for another key
  const fingerprint = keyFingerprint(publicKey)
  if (manifest.key_sha256 !== fingerprint) {
    return { failed: `release ${batchId}: names key_sha256 ${manifest.key_sha256}, not the key it is checked with (sha256 ${fingerprint})` }
  }
  return { manifest }
}

/** Null when a file received (its size and SHA-256, hex) is the one `entry` describes. */
export const checkFile = (batchId: string, entry: ReleaseFile, received: { readonly size: number; readonly sha256: string }): string | null => {
  if (received.size !== entry.size) return `batch ${batchId}: file ${entry.name} is ${received.size} bytes, the release says ${entry.size}`
  return received.sha256 === entry.sha256
    ? null
    : `batch ${batchId}: file ${entry.name} has SHA-256 ${received.sha256}, the release says ${entry.sha256}`
}

/** Null when `newer.previous` names the release in `olderBytes` (of batch `olderId`) by its SHA-256. */
export const checkLink = (newer: ReleaseManifest, olderId: string, olderBytes: Uint8Array): string | null => {
  const previous = newer.previous
  if (previous === null) return `release ${newer.batch_id}: names no previous release (the chain starts there), not ${olderId}`
  if (previous.batch_id !== olderId) return `release ${newer.batch_id}: its previous release is ${previous.batch_id}, not ${olderId}`
  const sha256 = sha256Hex(olderBytes)
  return sha256 === previous.release_sha256
    ? null
    : `chain broken between ${olderId} and ${newer.batch_id}: release ${olderId} has SHA-256 ${sha256}, release ${newer.batch_id} names ${previous.release_sha256}`
}
