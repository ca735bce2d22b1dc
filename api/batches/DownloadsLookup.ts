/**
 * Which published batch a batch id names, and where its file is. The published batches are the
 * ledger's (snapshots/PublishedHistory.ts, through the snapshot store); the batch served now is
 * known even without a ledger (a folder filled by hand or by rsync). A known batch's file may have
 * been removed by retention: the download then answers 410 with its content hash and the command
 * that rebuilds it.
 */
import { join } from "node:path"
import type { PublishedBatch } from "../../snapshots/PublishedHistory.ts"

export interface KnownBatch {
  readonly batchId: string
  readonly batchDate: string
  readonly file: string
  readonly contentHash: string
  readonly path: string
}

/** The batch `batchId` names among the published ones (or the one served now), or null. */
export const lookupBatch = (
  dir: string,
  published: ReadonlyArray<PublishedBatch>,
  served: { readonly file: string; readonly contentHash: string } | null,
  batchId: string,
): KnownBatch | null => {
  const file = `${batchId}.sqlite`
  const batch = published.find((b) => b.file === file)
  const contentHash = batch?.contentHash ?? (served?.file === file ? served.contentHash : null)
  if (contentHash === null) return null
  return { batchId, batchDate: batchId.slice(0, 10), file, contentHash, path: join(dir, file) }
}

/** How to get a removed batch back. */
export const rebuildCommand = (batch: KnownBatch): string =>
  `./fds pipeline reproduce --date ${batch.batchDate} --file ${batch.file} --restore`
