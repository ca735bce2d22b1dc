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
}
