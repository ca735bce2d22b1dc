/**
 * The checks a snapshot passes before it serves: its manifest names it and its hash, the batch
 * dates agree, the row counts are the manifest's, and PRAGMA quick_check passes. The counts and
 * quick_check read the whole file (about 2 ms per MB), so this runs in a worker thread
 * (VerifyWorker.ts), never on the API's event loop.
 */
import { join } from "node:path"
import { rowCounts } from "../../snapshots/ContentHash.ts"
import { readManifest } from "../../snapshots/Manifest.ts"
import { SnapshotReader } from "../../snapshots/Reader.ts"
import { TABLES } from "../../snapshots/Tables.ts"

/** What the checks found in a snapshot that passed them. */
export interface VerifiedSnapshot {
  readonly contentHash: string
  readonly batchDate: string
  readonly rowCounts: Readonly<Record<string, number>>
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

/** Runs every check on `dir/file` over a connection of its own; throws the first that fails. */
export const verifySnapshot = (dir: string, file: string): VerifiedSnapshot => {
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
    return { contentHash: manifest.content_hash, batchDate: reader.batchDate, rowCounts: counts }
  } finally {
    reader.close()
  }
}

/** Rows in the data tables (all but meta): what /health calls total_records. */
export const totalRecords = (counts: Readonly<Record<string, number>>): number =>
  TABLES.reduce((total, { name }) => (name === "meta" ? total : total + (counts[name] ?? 0)), 0)
