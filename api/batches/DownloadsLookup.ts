/**
 * Which published batch a batch id names, and whether its file is still kept. The pipeline's
 * ledger (data/ledger.sqlite, read-only through snapshots/PublishedHistory.ts) lists every batch
 * that was published or rolled back to; a folder without a ledger (a replica kept by
 * `./fds follow`, a folder copied by hand) knows its batches by their manifests, which are kept
 * forever. The snapshot file of a known batch may have been removed by retention: then the batch
 * is not retained (410), and its content hash says what a rebuild must match.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { manifestPath } from "../../snapshots/Manifest.ts"
import { publishedNewestFirst } from "../../snapshots/PublishedHistory.ts"

/** `<batch date>-<first 16 hex of the content hash>`: a snapshot file's name without `.sqlite`. */
export const BATCH_ID = /^\d{4}-\d{2}-\d{2}-[0-9a-f]{16}$/

export type BatchLookup =
  | { readonly _tag: "Known"; readonly batchId: string; readonly batchDate: string; readonly contentHash: string; readonly path: string }
  | { readonly _tag: "Unknown" }

const UNKNOWN: BatchLookup = { _tag: "Unknown" }

/** The published batch `batchId` names in the snapshots folder `dir`, kept or not (its file may be gone). */
export const lookupBatch = (dir: string, batchId: string): BatchLookup => {
  if (!BATCH_ID.test(batchId)) return UNKNOWN
  const file = `${batchId}.sqlite`
  const known = (contentHash: string): BatchLookup => ({
    _tag: "Known",
    batchId,
    batchDate: batchId.slice(0, 10),
    contentHash,
    path: join(dir, file),
  })
  const ledger = join(dir, "..", "ledger.sqlite")
  if (existsSync(ledger)) {
    const entry = publishedNewestFirst(ledger).find((p) => p.file === file)
    return entry === undefined ? UNKNOWN : known(entry.contentHash)
  }
  let manifest: { file?: unknown; content_hash?: unknown }
  try {
    manifest = JSON.parse(readFileSync(manifestPath(dir, file), "utf8")) as typeof manifest
  } catch {
    return UNKNOWN
  }
  return manifest.file === file && typeof manifest.content_hash === "string" ? known(manifest.content_hash) : UNKNOWN
}

/** How to get a removed batch back, for the 410's message. */
export const rebuildCommand = (batchId: string): string =>
  `./fds pipeline reproduce --date ${batchId.slice(0, 10)} --file ${batchId}.sqlite --restore`
