/**
 * Where a follower brings batches from: the primary's API (FollowTransfer.ts) or an S3-compatible
 * bucket the primary uploads to (BucketSource.ts). Both list the published batches, give a
 * batch's manifest and bring its snapshot file into a `.part` file (resuming a cut transfer);
 * nothing they return is trusted before Follow.ts has checked it (FollowChecks.ts), whatever the source.
 */
import type { Manifest } from "../snapshots/Manifest.ts"
import type { Downloaded, DownloadPaths, PrimaryBatch } from "./FollowTransfer.ts"

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
