/**
 * Two published snapshots side by side on one read-only connection of their own: the newer batch
 * (`to`) is the main database and the older (`from`) is attached as `prior`, so that a comparison
 * is SQL over both files and never loads either history into memory. Both files are opened
 * read-only (an attached database shares its connection's read-only flag) and never written; the
 * connection is the caller's to close. Neither the served snapshot's connection nor any other is
 * touched.
 */
import { existsSync } from "node:fs"
import Database from "better-sqlite3"
import { FORMAT_VERSION } from "../Tables.ts"

/** One side of the pair: its file and batch date. */
export interface PairSide {
  readonly path: string
  readonly batchDate: string
}

/** The schema name of each side in the pair's SQL. */
export type Side = "prior" | "main"

export class BatchPair {
  readonly db: Database.Database
  readonly from: PairSide
  readonly to: PairSide

  constructor(fromPath: string, toPath: string) {
    // ATTACH would create a missing file on a writable connection; this one is read-only, and the check says which side is missing
    if (!existsSync(fromPath)) throw new Error(`snapshot file missing: ${fromPath}`)
    this.db = new Database(toPath, { readonly: true, fileMustExist: true })
    try {
      this.db.pragma("mmap_size = 268435456")
      this.db.prepare("ATTACH DATABASE ? AS prior").run(fromPath)
      this.db.pragma("prior.mmap_size = 268435456")
      this.from = { path: fromPath, batchDate: this.checkedBatchDate("prior", fromPath) }
      this.to = { path: toPath, batchDate: this.checkedBatchDate("main", toPath) }
    } catch (e) {
      this.db.close()
      throw e
    }
  }

  /** The side's batch date, once its format version is the one this code reads. */
  private checkedBatchDate(side: Side, path: string): string {
    const meta = new Map(
      (this.db.prepare(`SELECT key, value FROM ${side}.meta WHERE key IN ('format_version', 'batch_date')`).all() as Array<{
        key: string
        value: string
      }>).map((r) => [r.key, r.value]),
    )
    if (Number(meta.get("format_version")) !== FORMAT_VERSION) {
      throw new Error(`snapshot format ${meta.get("format_version")} is not ${FORMAT_VERSION}: ${path}`)
    }
    const batchDate = meta.get("batch_date")
    if (batchDate === undefined) throw new Error(`snapshot without batch_date: ${path}`)
    return batchDate
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}
