/**
 * The snapshot files the pipeline made current, newest first, read from its ledger
 * (data/ledger.sqlite, written by pipeline/ledger/Ledger.ts): BatchPublished events and the
 * BatchRolledBack events of `pipeline rollback`, so that a rollback away from a bad batch is
 * honoured. The API reads it when CURRENT gives it nothing to serve, and for the batches it lists
 * (/api/batches, `?batch=`), on read-only connections of its own that it closes at once; it never
 * writes the ledger.
 */
import { statSync } from "node:fs"
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

/** A published batch as the ledger tells it (the batch id is the file name without `.sqlite`). */
export interface PublishedBatch {
  readonly id: string
  readonly file: string
  readonly batchDate: string
  readonly contentHash: string
  /** When the build that made the file was recorded (BatchBuilt); null without one. */
  readonly builtAt: string | null
  /** When it was first published (BatchPublished). */
  readonly publishedAt: string
  /** When CURRENT last moved from it to another file (a publish or a rollback); null while the ledger's last move names it. */
  readonly supersededAt: string | null
  readonly pipelineVersion: string | null
  readonly inputCount: number | null
}

/** A ledger event as publishedBatches reads it (the fleet's history is given in the same form). */
export interface LedgerRow {
  readonly type: "BatchBuilt" | "BatchPublished" | "BatchRolledBack"
  readonly recorded_at: string
  readonly payload: string
}

interface Payload {
  readonly file?: unknown
  readonly batch_date?: unknown
  readonly content_hash?: unknown
  readonly pipeline_version?: unknown
  readonly inputs?: unknown
}

/**
 * Every published batch, newest first (by first publication). A file rolled back to is current
 * again: the one it replaced is superseded then. Builds never published are not batches.
 */
export const publishedBatches = (rows: Iterable<LedgerRow>): ReadonlyArray<PublishedBatch> => {
  const builds = new Map<string, { readonly at: string; readonly version: string | null; readonly inputs: number | null }>()
  const batches = new Map<string, { -readonly [K in keyof PublishedBatch]: PublishedBatch[K] }>()
  let current: string | null = null
  for (const row of rows) {
    const p = JSON.parse(row.payload) as Payload
    if (typeof p.file !== "string") continue
    if (row.type === "BatchBuilt") {
      builds.set(p.file, {
        at: row.recorded_at,
        version: typeof p.pipeline_version === "string" ? p.pipeline_version : null,
        inputs: Array.isArray(p.inputs) ? p.inputs.length : null,
      })
      continue
    }
    if (current !== null && current !== p.file) {
      const left = batches.get(current)
      if (left !== undefined) left.supersededAt = row.recorded_at
    }
    current = p.file
    const known = batches.get(p.file)
    if (known !== undefined) known.supersededAt = null
    else if (row.type === "BatchPublished") {
      const built = builds.get(p.file)
      batches.set(p.file, {
        id: p.file.replace(/\.sqlite$/, ""),
        file: p.file,
        batchDate: String(p.batch_date),
        contentHash: String(p.content_hash),
        builtAt: built?.at ?? null,
        publishedAt: row.recorded_at,
        supersededAt: null,
        pipelineVersion: built?.version ?? null,
        inputCount: built?.inputs ?? null,
      })
    }
  }
  return [...batches.values()].reverse()
}

/** What the ledger holds now: its published batches, or why it could not be read (no ledger: none, no error). */
export interface LedgerView {
  readonly batches: ReadonlyArray<PublishedBatch>
  readonly byFile: ReadonlyMap<string, PublishedBatch>
  readonly error: string | null
}

const statOf = (path: string): string => {
  const s = statSync(path, { throwIfNoEntry: false, bigint: true })
  return s === undefined ? "none" : `${s.ino}:${s.size}:${s.mtimeNs}`
}

/**
 * The ledger's published batches, read again only when the ledger file or its write-ahead log
 * changed (two stats per look): a lookup per `?batch=` request costs no query.
 */
export class PublishedLedger {
  private readonly path: string
  private seen: { readonly signature: string; readonly view: LedgerView } | null = null

  constructor(path: string) {
    this.path = path
  }

  view(): LedgerView {
    const signature = `${statOf(this.path)}|${statOf(`${this.path}-wal`)}`
    if (this.seen?.signature === signature) return this.seen.view
    const view = this.read(signature.startsWith("none|"))
    // a failure is not kept: the next look tries again
    this.seen = view.error === null ? { signature, view } : null
    return view
  }

  private read(missing: boolean): LedgerView {
    if (missing) return { batches: [], byFile: new Map(), error: null }
    let db: Database.Database | null = null
    try {
      db = new Database(this.path, { readonly: true, fileMustExist: true })
      const rows = db
        .prepare(
          "SELECT type, recorded_at, payload FROM events WHERE type IN ('BatchBuilt', 'BatchPublished', 'BatchRolledBack') ORDER BY seq",
        )
        .all() as LedgerRow[]
      const batches = publishedBatches(rows)
      return { batches, byFile: new Map(batches.map((b) => [b.file, b])), error: null }
    } catch (e) {
      return { batches: [], byFile: new Map(), error: `the ledger ${this.path} could not be read: ${String(e)}` }
    } finally {
      db?.close()
    }
  }
}
