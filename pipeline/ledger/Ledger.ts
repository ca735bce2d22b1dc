/**
 * The event ledger (data/ledger.sqlite): append-only facts, each with the time it became known.
 * UPDATE and DELETE are refused by triggers. A raw file is recorded once per content hash, so
 * running the same files again appends nothing.
 */
import Database from "better-sqlite3"
import type { DataSetName } from "../../schemas/CmfRecords.ts"

export interface RawFileObserved {
  readonly data_set: DataSetName
  /** Supersession key: a later observation with the same key replaces an earlier one in the fold. */
  readonly key: string
  readonly name: string
  readonly source: string
  readonly sha256: string
  readonly bytes: number
}

export interface BatchBuilt {
  readonly batch_date: string
  readonly file: string
  readonly content_hash: string
  readonly pipeline_version: string
  readonly inputs: ReadonlyArray<string>
}
export interface BatchPublished {
  readonly batch_date: string
  readonly file: string
  readonly content_hash: string
}
export interface BatchRejected {
  readonly batch_date: string | null
  readonly reason: string
  readonly inputs: ReadonlyArray<string>
}
/** An operator re-pointed CURRENT to an earlier published snapshot (`pipeline rollback`). */
export interface BatchRolledBack {
  readonly batch_date: string
  readonly file: string
  readonly content_hash: string
  /** What CURRENT named before; null when nothing was published. */
  readonly from_file: string | null
  readonly reason: string | null
}

export type LedgerEvent =
  | { readonly type: "RawFileObserved"; readonly payload: RawFileObserved }
  | { readonly type: "BatchBuilt"; readonly payload: BatchBuilt }
  | { readonly type: "BatchPublished"; readonly payload: BatchPublished }
  | { readonly type: "BatchRejected"; readonly payload: BatchRejected }
  | { readonly type: "BatchRolledBack"; readonly payload: BatchRolledBack }

export interface StoredEvent<P> {
  readonly seq: number
  readonly recordedAt: string
  readonly payload: P
}
type PayloadOf<T extends LedgerEvent["type"]> = Extract<LedgerEvent, { type: T }>["payload"]

const DDL = `
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  sha256 TEXT,
  payload TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS raw_file_once ON events(sha256) WHERE type = 'RawFileObserved';
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
  BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END;
`

export class Ledger {
  readonly db: Database.Database
  private readonly now: () => Date
  private readonly insert: Database.Statement
  private readonly rawRecorded: Database.Statement<[string], number>

  constructor(path: string, now: () => Date = () => new Date()) {
    this.db = new Database(path)
    this.db.pragma("journal_mode = WAL")
    this.db.pragma("synchronous = FULL")
    this.db.exec(DDL)
    this.now = now
    this.insert = this.db.prepare("INSERT OR IGNORE INTO events (type, recorded_at, sha256, payload) VALUES (?, ?, ?, ?)")
    this.rawRecorded = this.db.prepare<[string], number>("SELECT 1 FROM events WHERE type = 'RawFileObserved' AND sha256 = ?").pluck()
  }

  /**
   * Appends the event; a raw file already recorded (same sha256) appends nothing and returns false.
   * That case is looked up first: an ignored INSERT still commits (an fsync, ~2 ms), and a daily
   * run observes thousands of files it has seen before.
   */
  append(event: LedgerEvent): boolean {
    const sha = event.type === "RawFileObserved" ? event.payload.sha256 : null
    if (sha !== null && this.rawRecorded.get(sha) !== undefined) return false
    const result = this.insert.run(event.type, this.now().toISOString(), sha, JSON.stringify(event.payload))
    return result.changes === 1
  }

  events<T extends LedgerEvent["type"]>(type: T): Array<StoredEvent<PayloadOf<T>>> {
    const rows = this.db
      .prepare("SELECT seq, recorded_at, payload FROM events WHERE type = ? ORDER BY seq")
      .all(type) as Array<{ seq: number; recorded_at: string; payload: string }>
    return rows.map((r) => ({ seq: r.seq, recordedAt: r.recorded_at, payload: JSON.parse(r.payload) as PayloadOf<T> }))
  }

  /** The raw files a batch folds over now: the latest observation for each supersession key. */
  currentInputs(): RawFileObserved[] {
    const latest = new Map<string, RawFileObserved>()
    for (const e of this.events("RawFileObserved")) latest.set(`${e.payload.data_set}|${e.payload.key}`, e.payload)
    return [...latest.values()].sort((a, b) => (a.data_set + a.key < b.data_set + b.key ? -1 : 1))
  }

  close(): void {
    this.db.close()
  }
}
