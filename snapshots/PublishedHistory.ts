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

/** A span of time during which CURRENT named a batch: from the event that made it current to the one that replaced it. */
export interface CurrentInterval {
  readonly from: string
  /** Null while it is current. */
  readonly to: string | null
}

/** A published batch as the ledger tells it (the batch id is the file name without `.sqlite`). */
export interface PublishedBatch {
  readonly id: string
  readonly file: string
  readonly batchDate: string
  readonly contentHash: string
  /** When the build that made the file was recorded (BatchBuilt); null without one. */
  readonly builtAt: string | null
  /** When it was first published (BatchPublished): the start of its first interval. */
  readonly publishedAt: string
  /** The end of its last interval; null while it is current. */
  readonly supersededAt: string | null
  /**
   * Every span during which it was current, oldest first: a rollback to it opens another one. The
   * intervals of all batches tile the time since the first publish: at any instant exactly one
   * batch was current.
   */
  readonly currentIntervals: ReadonlyArray<CurrentInterval>
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

type Building = { -readonly [K in keyof PublishedBatch]: PublishedBatch[K] } & { currentIntervals: CurrentInterval[] }

/**
 * Every published batch, newest first (by first publication), from the ledger's events in order.
 * Each move of CURRENT (a publish or a rollback) closes the interval of the batch it replaces and
 * opens one for the batch it names: a batch rolled back to is current again in a new interval, and
 * one rolled away from stops being current then (its earlier interval is never stretched over the
 * batches published in between). A move to the batch already current changes nothing. Builds never
 * published are not batches.
 */
export const publishedBatches = (rows: Iterable<LedgerRow>): ReadonlyArray<PublishedBatch> => {
  const builds = new Map<string, { readonly at: string; readonly version: string | null; readonly inputs: number | null }>()
  const batches = new Map<string, Building>()
  let current = null as Building | null
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
    if (current?.file === p.file) continue
    let next = batches.get(p.file)
    if (next === undefined) {
      // a rollback names a published file; one that names anything else is not a batch (nothing opens)
      if (row.type !== "BatchPublished") continue
      const built = builds.get(p.file)
      next = {
        id: p.file.replace(/\.sqlite$/, ""),
        file: p.file,
        batchDate: String(p.batch_date),
        contentHash: String(p.content_hash),
        builtAt: built?.at ?? null,
        publishedAt: row.recorded_at,
        supersededAt: null,
        currentIntervals: [],
        pipelineVersion: built?.version ?? null,
        inputCount: built?.inputs ?? null,
      }
      batches.set(p.file, next)
    }
    if (current !== null) {
      const open = current.currentIntervals.length - 1
      current.currentIntervals[open] = { from: current.currentIntervals[open]!.from, to: row.recorded_at }
      current.supersededAt = row.recorded_at
    }
    next.currentIntervals.push({ from: row.recorded_at, to: null })
    next.supersededAt = null
    current = next
  }
  return [...batches.values()].reverse()
}

/** The batch current at `instant` (ISO, as the ledger records them): its interval has from ≤ instant < to; null before the first publish. */
export const currentAt = (batches: ReadonlyArray<PublishedBatch>, instant: string): PublishedBatch | null =>
  batches.find((b) => b.currentIntervals.some((i) => i.from <= instant && (i.to === null || instant < i.to))) ?? null

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
 * changed (two stats per look): a lookup per `?batch=` request costs no query. No ledger file is
 * no batch (a data folder filled by hand or by copy), unless this reader has seen it hold
 * published batches: a ledger that vanished is unreadable, not empty. Any other failure (a
 * corrupt file, no permission, a folder that cannot be looked into) is `error`, never an empty list.
 */
export class PublishedLedger {
  private readonly path: string
  private seen: { readonly signature: string; readonly view: LedgerView } | null = null
  private hadBatches = false

  constructor(path: string) {
    this.path = path
  }

  view(): LedgerView {
    let signature: string
    try {
      signature = `${statOf(this.path)}|${statOf(`${this.path}-wal`)}`
    } catch (e) {
      this.seen = null
      return unreadable(this.path, e)
    }
    if (this.seen?.signature === signature) return this.seen.view
    const view = signature.startsWith("none|")
      ? this.hadBatches
        ? unreadable(this.path, "it is gone, though it listed published batches before")
        : { batches: [], byFile: new Map(), error: null }
      : this.read()
    if (view.batches.length > 0) this.hadBatches = true
    // a failure is not kept: the next look tries again
    this.seen = view.error === null ? { signature, view } : null
    return view
  }

  private read(): LedgerView {
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
      return unreadable(this.path, e)
    } finally {
      db?.close()
    }
  }
}

const unreadable = (path: string, cause: unknown): LedgerView => ({
  batches: [],
  byFile: new Map(),
  error: `the ledger ${path} could not be read: ${String(cause)}`,
})
