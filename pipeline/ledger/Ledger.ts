/**
 * The event ledger (data/ledger.sqlite): append-only facts, each with the time it became known.
 * UPDATE and DELETE are refused by triggers. A raw file is recorded once per content hash, so
 * running the same files again appends nothing; an earlier content delivered again after another
 * one of its key is reinstated (`observe`).
 */
import Database from "better-sqlite3"
import { Context, Effect, Layer } from "effect"
import type { DataSetName } from "../datasets/DataSetName.ts"

export interface RawFileObserved {
  readonly data_set: DataSetName
  /** Supersession key: a later observation with the same key replaces an earlier one in the fold. */
  readonly key: string
  readonly name: string
  readonly source: string
  readonly sha256: string
  readonly bytes: number
}

export interface RawFileWithdrawn {
  readonly data_set: DataSetName
  readonly key: string
  readonly name: string
  readonly sha256: string
  readonly reason: string | null
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
  /**
   * A raw file recorded before was delivered again while another content was the current one of its
   * key (e.g. the good file dropped again after a bad one was rejected): it is the current one again.
   */
  | { readonly type: "RawFileReinstated"; readonly payload: RawFileObserved }
  /** An operator took a raw file out of the inputs (`pipeline withdraw`); delivering it again reinstates it. */
  | { readonly type: "RawFileWithdrawn"; readonly payload: RawFileWithdrawn }
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

const inputKey = (o: { readonly data_set: string; readonly key: string }): string => `${o.data_set}|${o.key}`

/** One event into the current inputs (by supersession key): observed or reinstated files in, a withdrawn one out. */
const fold = (current: Map<string, RawFileObserved>, type: LedgerEvent["type"], payload: unknown): void => {
  if (type === "RawFileObserved" || type === "RawFileReinstated") {
    const observed = payload as RawFileObserved
    current.set(inputKey(observed), observed)
  } else if (type === "RawFileWithdrawn") {
    const withdrawn = payload as RawFileWithdrawn
    if (current.get(inputKey(withdrawn))?.sha256 === withdrawn.sha256) current.delete(inputKey(withdrawn))
  }
}

/** The ledger on a SQLite file (`:memory:` for one that lives as long as it is open). */
export class SqliteLedger {
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
    const appended = result.changes === 1
    if (appended && this.current !== undefined) fold(this.current, event.type, event.payload)
    return appended
  }

  /**
   * Records a raw file delivered now: a new content is observed; a content recorded before that is
   * not the current one of its key any more is reinstated (without this, a rejected file stayed the
   * current input of its key, and delivering the good file again changed nothing). True when an
   * event was appended.
   */
  observe(observed: RawFileObserved): boolean {
    if (this.append({ type: "RawFileObserved", payload: observed })) return true
    if (this.currentMap().get(inputKey(observed))?.sha256 === observed.sha256) return false
    return this.append({ type: "RawFileReinstated", payload: observed })
  }

  /** The latest observation or reinstatement for each supersession key, kept up to date by `append`. */
  private current: Map<string, RawFileObserved> | undefined
  private currentMap(): Map<string, RawFileObserved> {
    if (this.current === undefined) {
      const rows = this.db
        .prepare("SELECT type, payload FROM events WHERE type IN ('RawFileObserved', 'RawFileReinstated', 'RawFileWithdrawn') ORDER BY seq")
        .all() as Array<{ type: LedgerEvent["type"]; payload: string }>
      const latest = new Map<string, RawFileObserved>()
      for (const row of rows) fold(latest, row.type, JSON.parse(row.payload))
      this.current = latest
    }
    return this.current
  }

  /** The events of `type` in ledger order; those after `afterSeq` only (a range of the primary key), all at 0. */
  events<T extends LedgerEvent["type"]>(type: T, afterSeq = 0): Array<StoredEvent<PayloadOf<T>>> {
    const rows = this.db
      .prepare("SELECT seq, recorded_at, payload FROM events WHERE type = ? AND seq > ? ORDER BY seq")
      .all(type, afterSeq) as Array<{ seq: number; recorded_at: string; payload: string }>
    return rows.map((r) => ({ seq: r.seq, recordedAt: r.recorded_at, payload: JSON.parse(r.payload) as PayloadOf<T> }))
  }

  /** The raw files a batch folds over now: the latest observation (or reinstatement) for each supersession key. */
  currentInputs(): RawFileObserved[] {
    return [...this.currentMap().values()].sort((a, b) => (a.data_set + a.key < b.data_set + b.key ? -1 : 1))
  }

  close(): void {
    this.db.close()
  }
}

const open = (path: string) =>
  Effect.acquireRelease(
    Effect.sync(() => new SqliteLedger(path)),
    (ledger) => Effect.sync(() => ledger.close()),
  )

/** The event ledger a run appends to and folds its inputs from: data/ledger.sqlite, or one in memory for tests. */
export class Ledger extends Context.Service<
  Ledger,
  {
    readonly append: (event: LedgerEvent) => boolean
    readonly observe: (observed: RawFileObserved) => boolean
    readonly events: <T extends LedgerEvent["type"]>(type: T) => Array<StoredEvent<PayloadOf<T>>>
    readonly currentInputs: () => RawFileObserved[]
  }
>()("fds/pipeline/Ledger") {
  /** The ledger file at `path` (created when missing), closed with the layer. */
  static readonly layer = (path: string) => Layer.effect(Ledger, open(path))

  /** An empty ledger in memory (the same SQLite schema and triggers), gone with the layer. */
  static readonly layerMemory = Layer.effect(Ledger, open(":memory:"))
}
