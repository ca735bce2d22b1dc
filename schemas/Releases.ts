/**
 * A batch's release manifest (GET /api/batches/{batch_id}/release): every file of the batch with
 * its size and SHA-256, and the SHA-256 of the previous batch's release manifest, signed with
 * Ed25519 (the detached signature: GET /api/batches/{batch_id}/release.sig; the public key:
 * GET /.well-known/fds-release-key.pem). snapshots/releases/ writes and checks them.
 */
import { Schema } from "effect"

/** The format tag of a release manifest; a later format gets another. */
export const RELEASE_FORMAT = "fds-release/1"

const Sha256 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/)).annotate({ description: "SHA-256, 64 lower-case hex digits" })

export const ReleaseFile = Schema.Struct({
  name: Schema.String.annotate({
    description:
      "The file's name: `<batch id>.sqlite` (GET /api/batches/{batch_id}/snapshot), `<batch id>.manifest.json` (GET /api/batches/{batch_id}/manifest.json) or `<batch id>.parquet/<file>` (GET /api/batches/{batch_id}/parquet/{file})",
  }),
  size: Schema.Int.annotate({ description: "The file's size in bytes" }),
  sha256: Sha256.annotate({ description: "SHA-256 (hex) of the file's bytes" }),
}).annotate({ identifier: "ReleaseFile", description: "One file of the batch" })

export const ReleasePrevious = Schema.Struct({
  batch_id: Schema.String.annotate({ description: "The batch published before this one" }),
  release_sha256: Sha256.annotate({ description: "SHA-256 (hex) of that batch's release manifest, byte for byte as served" }),
}).annotate({ identifier: "ReleasePrevious", description: "The link to the previous release" })

export const ReleaseManifest = Schema.Struct({
  format: Schema.Literal(RELEASE_FORMAT),
  batch_id: Schema.String.annotate({ description: "The batch: <batch date>-<first 16 hex digits of its content hash>" }),
  batch_date: Schema.String.annotate({ description: "The date the batch is of (YYYY-MM-DD)" }),
  created_at: Schema.String.annotate({ description: "When the release was signed, ISO 8601 in UTC" }),
  key_sha256: Sha256.annotate({ description: "SHA-256 (hex) of the signing public key (its DER SubjectPublicKeyInfo)" }),
  files: Schema.Array(ReleaseFile).annotate({ description: "Every file of the batch, by name" }),
  previous: Schema.NullOr(ReleasePrevious).annotate({
    description: "The release published before this one (null for the first signed release): its batch and its manifest's SHA-256",
  }),
}).annotate({
  identifier: "ReleaseManifest",
  description:
    "A batch's release manifest, signed with Ed25519 (its detached signature: /api/batches/{batch_id}/release.sig over these exact bytes; " +
    "the key: /.well-known/fds-release-key.pem). Each release names the previous one's SHA-256: a chain back to the first",
})
export type ReleaseManifest = typeof ReleaseManifest.Type
export type ReleaseFile = typeof ReleaseFile.Type
