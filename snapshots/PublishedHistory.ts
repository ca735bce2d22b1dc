/**
 * The snapshot files the pipeline made current, newest first, read from its ledger
 * (data/ledger.sqlite, written by pipeline/ledger/Ledger.ts): BatchPublished events and the
 * BatchRolledBack events of `pipeline rollback`, so that a rollback away from a bad batch is
 * honoured. The API reads it when CURRENT gives it nothing to serve, on a read-only connection
 * of its own that it closes at once; it never writes the ledger.
 */
import Database from "better-sqlite3"

/** One file CURRENT was made to name, with what the ledger recorded of it. */
export interface PublishedFile {
  readonly file: string
  readonly batchDate: string
  readonly contentHash: string
  readonly event: "BatchPublished" | "BatchRolledBack"
}

/** Each file once, at its latest event, newest first; throws when the ledger cannot be read (no ledger: an error too). */
export const publishedNewestFirst = (ledgerPath: string): ReadonlyArray<PublishedFile> => {
  const db = new Database(ledgerPath, { readonly: true, fileMustExist: true })
  try {
    const rows = db
      .prepare("SELECT type, payload FROM events WHERE type IN ('BatchPublished', 'BatchRolledBack') ORDER BY seq DESC")
      .all() as Array<{ type: PublishedFile["event"]; payload: string }>
    const seen = new Set<string>()
    const files: PublishedFile[] = []
    for (const row of rows) {
      const p = JSON.parse(row.payload) as { file?: unknown; batch_date?: unknown; content_hash?: unknown }
      if (typeof p.file !== "string" || seen.has(p.file)) continue
      seen.add(p.file)
      files.push({ file: p.file, batchDate: String(p.batch_date), contentHash: String(p.content_hash), event: row.type })
    }
    return files
  } finally {
    db.close()
  }
}
