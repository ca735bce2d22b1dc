/**
 * The checks a snapshot passes before it serves: its manifest names it and its hash, the batch
 * dates agree, the row counts are the manifest's, PRAGMA quick_check passes, and its content hash
 * (snapshots/ContentHash.ts, every row read again) is the manifest's: a value changed by hand
 * keeps the counts and passes quick_check, only the hash sees it. The counts and quick_check read
 * the whole file (about 2 ms per MB), the hash every row, so this runs in a worker thread
 * (VerifyWorker.ts), never on the API's event loop.
 */
import { join } from "node:path"
import { contentHashFor, rowCounts } from "../../snapshots/ContentHash.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { SnapshotReader } from "../../snapshots/Reader.ts"
import { TABLES } from "../../snapshots/Tables.ts"

/** What the checks found in a snapshot that passed them. */
export interface VerifiedSnapshot {
  readonly contentHash: string
  readonly batchDate: string
  readonly rowCounts: Readonly<Record<string, number>>
  /** How long the content hash took (for the swap's log line). */
  readonly hashMillis: number
}

/** The answer of a check: passed, failed (why, for the log), or cancelled before it answered. */
export type Verdict =
  | { readonly _tag: "Passed"; readonly snapshot: VerifiedSnapshot }
  | { readonly _tag: "Failed"; readonly reason: string }
  | { readonly _tag: "Cancelled" }

/** Which file to check: the worker's `workerData`. */
export interface VerifyRequest {
  readonly dir: string
  readonly file: string
}

/**
 * Runs every check on `dir/file` over a connection of its own; throws the first that fails.
 * `contentHashChecked`: the caller has just hashed these very bytes against this manifest (the
 * follower's download check), so the content hash, the one check that reads every row, is not
 * computed a second time.
 */
export const verifySnapshot = (dir: string, file: string, options: { readonly contentHashChecked?: boolean } = {}): VerifiedSnapshot => {
  const reader = new SnapshotReader(join(dir, file))
  try {
    const manifest = readManifest(dir, file)
    if (manifest.file !== file) throw new Error(`manifest names ${manifest.file}, not ${file}`)
    if (!file.includes(manifest.content_hash.slice(0, 16))) throw new Error("manifest hash does not match the file name")
    if (manifest.batch_date !== reader.batchDate) throw new Error("manifest batch date differs from the snapshot's")
    const counts = rowCounts(reader.db)
    for (const { name } of TABLES) {
      const n = manifest.row_counts[name]
      if (counts[name] !== n) throw new Error(`row count of ${name} is ${counts[name]}, manifest says ${n}`)
    }
    if (!reader.quickCheck()) throw new Error("PRAGMA quick_check failed")
    const began = performance.now()
    // a batch built before pipeline 0.5 hashed its quotas whole: it keeps the hash it was published with
    const hash = options.contentHashChecked === true ? manifest.content_hash : contentHashFor(reader.db, manifest)
    if (hash !== manifest.content_hash) {
      throw new Error(`content hash ${hash} differs from the manifest's ${manifest.content_hash} (the file was altered after it was built)`)
    }
    const hashMillis = Math.round(performance.now() - began)
    return { contentHash: manifest.content_hash, batchDate: reader.batchDate, rowCounts: counts, hashMillis }
  } finally {
    reader.close()
  }
}

/** Rows in the data tables (all but meta): what /health calls total_records. */
export const totalRecords = (counts: Readonly<Record<string, number>>): number =>
  TABLES.reduce((total, { name }) => (name === "meta" ? total : total + (counts[name] ?? 0)), 0)
