/**
 * Where a follower brings batches from: the primary's API (FollowTransfer.ts) or an S3-compatible
 * bucket the primary uploads to (BucketSource.ts). Both list the published batches, give a
 * batch's manifest and bring its snapshot file into a `.part` file (resuming a cut transfer);
 * nothing they return is trusted before Follow.ts has checked it (FollowChecks.ts), whatever the source.
 */
import type { Manifest } from "../snapshots/Manifest.ts"

/** A batch as GET /api/batches lists it. */
export interface PrimaryBatch {
  readonly id: string
  readonly attributes: {
    readonly batch_date: string
    readonly content_hash: string
    readonly retained: boolean
    readonly current: boolean
  }
}

/** What a finished download brought. */
export interface Downloaded {
  /** The `Repr-Digest` of the whole file, as the last answer gave it. */
  readonly reprDigest: string
  readonly size: number
  /** Bytes that were already there and not asked for again. */
  readonly resumedFrom: number
}

/** Where a batch's file is brought, and the most bytes it may have (none: no cap but what is announced). */
export interface DownloadPaths {
  readonly part: string
  readonly etag: string
  readonly maxBytes?: number
}

/** A batch's signed release as a source keeps it, unchecked: the manifest's bytes, its signature, the signer's public key (PEM). */
export interface SourceRelease {
  readonly release: Uint8Array
  readonly signature: Uint8Array
  readonly publicKeyPem: string
}

export interface BatchSource {
  /** For log lines: the primary's URL or the bucket's address, never a secret. */
  readonly describe: string
  /** Every published batch, newest first (by first publication), with the current one marked. */
  readonly listBatches: () => Promise<PrimaryBatch[]>
  /** A batch's manifest as the source keeps it. */
  readonly fetchManifest: (batchId: string) => Promise<Manifest>
  /**
   * Brings the batch's snapshot file into `paths.part`, resuming from what is already there; stops
   * (TransferRefused, part removed) as soon as it would hold more than `paths.maxBytes`.
   */
  readonly downloadSnapshot: (batchId: string, paths: DownloadPaths) => Promise<Downloaded>
  /**
   * The batch's signed release, or null when the source has none for it (published before
   * releases were signed). Absent: the source keeps no releases.
   */
  readonly fetchRelease?: (batchId: string) => Promise<SourceRelease | null>
  /** The build manifest's bytes (the file a release lists), at most `maxBytes`; with fetchRelease. */
  readonly fetchManifestFile?: (batchId: string, maxBytes: number) => Promise<Uint8Array>
  /** One of the batch's Parquet files (a file a release lists), at most `maxBytes`; with fetchRelease. */
  readonly fetchParquetFile?: (batchId: string, file: string, maxBytes: number) => Promise<Uint8Array>
}
