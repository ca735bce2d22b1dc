/**
 * A batch's release: `<batch id>.release.json` (the manifest: each file of the batch with its size
 * and SHA-256, and the previous release's SHA-256) and `<batch id>.release.sig` (the raw 64-byte
 * Ed25519 signature of the manifest's bytes), beside the snapshot file, kept forever like the
 * build manifest. The manifest's bytes are what is signed and hashed: written once, never
 * re-serialised, so a reader checks the bytes it received (`openssl pkeyutl -verify -rawin`).
 */
import { createHash, createPublicKey, type KeyObject, sign, verify } from "node:crypto"
import { join } from "node:path"
import { RELEASE_FORMAT, type ReleaseFile, type ReleaseManifest } from "../../schemas/Releases.ts"

export const releasePath = (snapshotsDir: string, batchId: string): string => join(snapshotsDir, `${batchId}.release.json`)
export const signaturePath = (snapshotsDir: string, batchId: string): string => join(snapshotsDir, `${batchId}.release.sig`)
/** The public key beside the releases, PEM (SubjectPublicKeyInfo): what /.well-known/fds-release-key.pem serves. */
export const PUBLIC_KEY_FILE = "release-key.pem"

export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

/** SHA-256 of a public key's DER SubjectPublicKeyInfo: the `key_sha256` a release names. */
export const keyFingerprint = (key: KeyObject): string => sha256Hex(publicHalf(key).export({ type: "spki", format: "der" }))

/** The public key of a key pair, from either half. */
const publicHalf = (key: KeyObject): KeyObject => (key.type === "public" ? key : createPublicKey(key))

/** The public key's PEM text (SubjectPublicKeyInfo). */
export const publicKeyPem = (key: KeyObject): string => publicHalf(key).export({ type: "spki", format: "pem" }).toString()

/** A release manifest's bytes: fixed key order, two-space indent, a final newline. */
export const releaseBytes = (manifest: ReleaseManifest): Buffer =>
  Buffer.from(
    `${JSON.stringify(
      {
        format: manifest.format,
        batch_id: manifest.batch_id,
        batch_date: manifest.batch_date,
        created_at: manifest.created_at,
        key_sha256: manifest.key_sha256,
        files: manifest.files.map((f) => ({ name: f.name, size: f.size, sha256: f.sha256 })),
        previous: manifest.previous === null ? null : { batch_id: manifest.previous.batch_id, release_sha256: manifest.previous.release_sha256 },
      },
      null,
      2,
    )}\n`,
    "utf8",
  )

/** The manifest of a batch's release, its files sorted by name. */
export const makeRelease = (args: {
  readonly batchId: string
  readonly createdAt: string
  readonly key: KeyObject
  readonly files: ReadonlyArray<ReleaseFile>
  readonly previous: ReleaseManifest["previous"]
}): ReleaseManifest => ({
  format: RELEASE_FORMAT,
  batch_id: args.batchId,
  batch_date: args.batchId.slice(0, 10),
  created_at: args.createdAt,
  key_sha256: keyFingerprint(args.key),
  files: [...args.files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  previous: args.previous,
})

/** Ed25519 over the bytes (the private key). */
export const signRelease = (bytes: Uint8Array, privateKey: KeyObject): Buffer => sign(null, bytes, privateKey)

/** Whether `signature` is the Ed25519 signature of `bytes` by `publicKey`; false for a malformed one. */
export const signatureHolds = (bytes: Uint8Array, signature: Uint8Array, publicKey: KeyObject): boolean => {
  try {
    return verify(null, bytes, publicKey, signature)
  } catch {
    return false
  }
}

/**
 * The manifest in `bytes`, or why it is not one. The shape only: whether it is the one signed is
 * the signature's business.
 */
export const parseRelease = (bytes: Uint8Array): ReleaseManifest | string => {
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(bytes).toString("utf8"))
  } catch (e) {
    return `not JSON (${e instanceof Error ? e.message : String(e)})`
  }
  const m = value as Partial<ReleaseManifest> | null
  if (m === null || typeof m !== "object") return "not a JSON object"
  if (m.format !== RELEASE_FORMAT) return `format is ${JSON.stringify(m.format)}, not ${RELEASE_FORMAT}`
  if (typeof m.batch_id !== "string") return "no batch_id"
  if (!/^[0-9a-f]{64}$/.test(String(m.key_sha256))) return "no key_sha256"
  if (!Array.isArray(m.files)) return "no files"
  for (const f of m.files) {
    if (typeof f?.name !== "string" || !Number.isSafeInteger(f.size) || !/^[0-9a-f]{64}$/.test(String(f.sha256))) {
      return `a file entry is malformed: ${JSON.stringify(f)}`
    }
  }
  const p = m.previous
  if (p !== null && (typeof p?.batch_id !== "string" || !/^[0-9a-f]{64}$/.test(String(p?.release_sha256)))) return "previous is malformed"
  return m as ReleaseManifest
}
