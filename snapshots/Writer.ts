/**
 * Builds one snapshot file. Rows go into a temporary file in key order; `finish` hashes its
 * content (in a worker thread for a large file) while it packs it (VACUUM INTO a second temporary
 * file) and checks the packed file (integrity_check), then fsyncs it and renames it to
 * `<batch date>-<first 16 hex of the content hash>.sqlite`. A crash at any point leaves only a
 * `.tmp` file behind, never a half snapshot under a real name; a published file is never written
 * again.
 */

import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { type Beside, besideHere, besideInWorker } from "./Beside.ts"
import { type KnownDigests, QuotaDigest, rowCounts, type SnapshotDigests } from "./ContentHash.ts"
import { fsyncPath } from "./Files.ts"
import { type HashAnswer, hashJob } from "./HashJob.ts"
import type { AdministratorsTable, FundsTable, QuotasTable, SeriesTable, SnapshotDatabase } from "./Tables.ts"
import { DDL, FORMAT_VERSION, HOLDER_INDEXES } from "./Tables.ts"

export interface FinishedSnapshot {
  readonly file: string
  readonly path: string
  readonly contentHash: string
  readonly rowCounts: Record<string, number>
  /** False when an identical file (same date and content) already existed and was kept. */
  readonly created: boolean
  /** Milliseconds per finishing step (commit, check, hash, sync), for the pipeline's logs. */
  readonly timings: Record<string, number>
  /** Each table's digest and the quotas' month digests (the manifest keeps them for the next increment). */
  readonly digests: Pick<SnapshotDigests, "tables" | "quotaMonths" | "tableMonths">
}

/** How `finish` ends an incremental build (a copy of the previous snapshot, changed in place). */
export interface IncrementFinish {
  /** The previous snapshot's quota month digests; the months from `quotasFrom` on are read again. */
  readonly quotaMonths: Readonly<Record<string, string>>
  /** YYYYMMDD, the first of a month: quota months before it are unchanged. */
  readonly quotasFrom: number
  /** Digests of the tables the increment left untouched. */
  readonly tables: Readonly<Record<string, string>>
  /** Row counts of the tables the increment left untouched. */
  readonly counts?: Readonly<Record<string, number>>
  /** The previous snapshot's quota rows (this one's: those, less the deleted, plus the inserted); null: counted. */
  readonly quotaRows?: number | null
  /** Other tables cut by month: the previous snapshot's month digests, the months from `from` on read again. */
  readonly months?: KnownDigests["months"]
}

/** How `finish` runs the content hash. */
export interface FinishOptions {
  /** Where the hash runs beside this thread's check (a worker thread unless given; `besideHere` keeps it on this thread). */
  readonly beside?: Beside
  /** Forces the hash beside (true) or here (false); unset: beside for a file of 32 MB or more. */
  readonly hashBeside?: boolean
  readonly increment?: IncrementFinish
}

/**
 * No rollback journal: a build writes a temporary file that a failure deletes, never rolls back.
 * better-sqlite3 runs SQLite in defensive mode, where `journal_mode = OFF` is silently ignored
 * (the builds ran with a rollback journal: an increment, which changes a copy of a 0.5 GB file,
 * journaled every page it changed), so it is set in unsafe mode for that one statement. Also
 * takes a file out of WAL mode (its header says rollback journal again, the WAL checkpointed).
 */
export const journalOff = (db: Database.Database): void => {
  db.unsafeMode(true)
  try {
    const mode = db.pragma("journal_mode = OFF", { simple: true })
    if (mode !== "off") throw new Error(`journal_mode OFF refused (still ${String(mode)})`)
  } finally {
    db.unsafeMode(false)
  }
}

const QUOTA_COLUMNS = 9
const BATCH = 100
/** Rows per statement for the other tables (rows × columns stays far under SQLite's 32,766 parameters). */
const ROWS_BATCH = 50

export class SnapshotWriter {
  readonly dir: string
  readonly tmpPath: string
  readonly db: Database.Database
  private readonly quotaInsertBatch: Database.Statement
  private readonly quotaInsertOne: Database.Statement
  /** The quotas table's digest, taken from the rows as they go in (see ContentHash.ts). */
  private readonly quotaDigest = new QuotaDigest()
  /** Quota rows deleted (an increment's region). */
  private quotasDeleted = 0
  private finished = false

  /**
   * A new empty snapshot, or with `base` a copy of that snapshot file to change in place (the
   * daily increment: pipeline/increment/Increment.ts); either way under a temporary name.
   */
  constructor(dir: string, base?: string) {
    mkdirSync(dir, { recursive: true })
    this.dir = dir
    this.tmpPath = join(dir, `.build-${process.pid}-${Date.now()}.sqlite.tmp`)
    if (base !== undefined) {
      try {
        copyFileSync(base, this.tmpPath)
      } catch (e) {
        // a copy cut short (the disk full) leaves nothing behind
        rmSync(this.tmpPath, { force: true })
        throw e
      }
    }
    this.db = new Database(this.tmpPath)
    journalOff(this.db)
    this.db.pragma("synchronous = OFF")
    this.db.pragma("temp_store = MEMORY")
    // an increment's copy of the previous file has its tables; what the indexes add since is made on it
    this.db.exec(base === undefined ? DDL : HOLDER_INDEXES)
    this.db.exec("BEGIN")
    const row = `(${Array(QUOTA_COLUMNS).fill("?").join(",")})`
    this.quotaInsertBatch = this.db.prepare(`INSERT INTO quotas VALUES ${Array(BATCH).fill(row).join(",")}`)
    this.quotaInsertOne = this.db.prepare(`INSERT INTO quotas VALUES ${row}`)
    this.insertMeta({ format_version: String(FORMAT_VERSION) })
  }

  /** Deletes every row of `table` (an increment restaging it). */
  clearTable(table: keyof SnapshotDatabase): void {
    this.db.prepare(`DELETE FROM ${table}`).run()
  }

  /** Deletes the quota rows of `assetIds` dated `from` (YYYYMMDD) or later: one index seek per series. */
  deleteQuotasFrom(assetIds: Iterable<number>, from: number): void {
    const stmt = this.db.prepare("DELETE FROM quotas WHERE asset_id = ? AND date >= ?")
    for (const id of assetIds) this.quotasDeleted += stmt.run(id, from).changes
  }

  insertMeta(entries: Record<string, string>): void {
    const stmt = this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
    for (const [k, v] of Object.entries(entries)) stmt.run(k, v)
  }

  insertAdministrators(rows: Iterable<AdministratorsTable>): void {
    const stmt = this.db.prepare("INSERT INTO administrators (provider_id, rut, name) VALUES (@provider_id, @rut, @name)")
    for (const r of rows) stmt.run(r)
  }

  insertFunds(rows: Iterable<FundsTable>): void {
    const stmt = this.db.prepare(
      `INSERT INTO funds (concept_id, run, provider_id, name, short_name, fund_type, currency, start_date, end_date, is_current)
       VALUES (@concept_id, @run, @provider_id, @name, @short_name, @fund_type, @currency, @start_date, @end_date, @is_current)`,
    )
    for (const r of rows) stmt.run(r)
  }

  insertSeries(rows: Iterable<SeriesTable>): void {
    const stmt = this.db.prepare(
      `INSERT INTO series (asset_id, concept_id, run, serie, currency, first_date, last_date)
       VALUES (@asset_id, @concept_id, @run, @serie, @currency, @first_date, @last_date)`,
    )
    for (const r of rows) stmt.run(r)
  }

  /** Quota rows, ideally in (asset_id, date) order: key-ordered multi-row inserts are ~5× faster. */
  insertQuotas(rows: ReadonlyArray<QuotasTable>): void {
    for (const r of rows) {
      this.quotaDigest.add(r.asset_id, r.date, r.price, r.patrimony, r.holders, r.factor_ajuste, r.factor_reparto, r.units_subscribed ?? null, r.units_redeemed ?? null)
    }
    const args: Array<number | null> = []
    let i = 0
    for (; i + BATCH <= rows.length; i += BATCH) {
      args.length = 0
      for (let j = i; j < i + BATCH; j++) pushQuota(args, rows[j]!)
      this.quotaInsertBatch.run(args)
    }
    for (; i < rows.length; i++) {
      args.length = 0
      pushQuota(args, rows[i]!)
      this.quotaInsertOne.run(args)
    }
  }

  /** Rows of any other table, column names taken from the row objects (all rows alike). */
  insertRows<T extends keyof SnapshotDatabase>(table: T, rows: ReadonlyArray<SnapshotDatabase[T]>): void {
    const first = rows[0]
    if (first === undefined) return
    const columns = Object.keys(first)
    // Positional parameters, ROWS_BATCH rows a statement: ~2× faster than one named row at a time.
    const values = (n: number) => Array(n).fill(`(${columns.map(() => "?").join(",")})`).join(",")
    const sql = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `
    const batch = this.db.prepare(sql + values(ROWS_BATCH))
    const args: unknown[] = []
    const push = (row: SnapshotDatabase[T]) => {
      const r = row as unknown as Record<string, unknown>
      for (const c of columns) {
        const v = r[c]
        // the parsers refuse such cells with their file and line; this is the last guard: no JSON answer can carry them
        if (typeof v === "number" && !Number.isFinite(v)) throw new Error(`${table}.${c}: ${v} is not a finite number (row ${JSON.stringify(r)})`)
        args.push(v)
      }
    }
    let i = 0
    for (; i + ROWS_BATCH <= rows.length; i += ROWS_BATCH) {
      args.length = 0
      for (let j = i; j < i + ROWS_BATCH; j++) push(rows[j]!)
      batch.run(args)
    }
    if (i === rows.length) return
    args.length = 0
    for (let j = i; j < rows.length; j++) push(rows[j]!)
    this.db.prepare(sql + values(rows.length - i)).run(args)
  }

  /**
   * Quota rows from columns (NaN = null), rows [start, end) of one series, dates ascending: the
   * pipeline's merged history, inserted in key order without one object per row.
   */
  insertQuotaColumns(
    assetId: number,
    cols: {
      readonly date: Int32Array
      readonly price: Float64Array
      readonly patrimony: Float64Array
      readonly holders: Float64Array
      readonly factorAjuste: Float64Array
      readonly factorReparto: Float64Array
      readonly unitsSubscribed: Float64Array
      readonly unitsRedeemed: Float64Array
    },
    start: number,
    end: number,
  ): void {
    const digest = this.quotaDigest
    for (let i = start; i < end; i++) {
      digest.add(assetId, cols.date[i]!, cols.price[i]!, cols.patrimony[i]!, cols.holders[i]!, cols.factorAjuste[i]!, cols.factorReparto[i]!, cols.unitsSubscribed[i]!, cols.unitsRedeemed[i]!)
    }
    const args: Array<number | null> = []
    const push = (i: number) => {
      args.push(
        assetId,
        cols.date[i]!,
        cols.price[i]!,
        nullIfNaN(cols.patrimony[i]!),
        nullIfNaN(cols.holders[i]!),
        nullIfNaN(cols.factorAjuste[i]!),
        nullIfNaN(cols.factorReparto[i]!),
        nullIfNaN(cols.unitsSubscribed[i]!),
        nullIfNaN(cols.unitsRedeemed[i]!),
      )
    }
    let i = start
    for (; i + BATCH <= end; i += BATCH) {
      args.length = 0
      for (let j = i; j < i + BATCH; j++) push(j)
      this.quotaInsertBatch.run(args)
    }
    for (; i < end; i++) {
      args.length = 0
      push(i)
      this.quotaInsertOne.run(args)
    }
  }

  /**
   * Packs, checks, hashes and names the file; returns where it now lives. The hash runs through
   * `beside` (Beside.ts; a worker thread unless given) while this thread checks, when the file is
   * large (`hashBeside` forces either way); a small one is hashed here, quicker than a worker's start.
   */
  finish(batchDate: string, options: FinishOptions = {}): FinishedSnapshot {
    if (this.finished) throw new Error("snapshot already finished")
    this.finished = true
    const timings: Record<string, number> = {}
    let t = performance.now()
    const lap = (name: string) => {
      const now = performance.now()
      timings[name] = Math.round(now - t)
      t = now
    }
    this.insertMeta({ batch_date: batchDate })
    this.db.exec("COMMIT")
    lap("commit_ms")
    if (options.increment !== undefined) return this.finishIncrement(batchDate, options.increment, timings, lap, options)
    // The content hash (with the row counts) only reads the data, which packing does not change:
    // for a large file it runs beside this thread (a worker thread) on the unpacked file while this thread packs and
    // checks; this thread then waits for it (finish stays synchronous). The quotas digest from the
    // inserts stands for the table only when every row went in through insertQuota* in key order
    // and the table holds exactly those rows; otherwise it is read back.
    const digest = this.quotaDigest
    const known: KnownDigests = { quotas: digest.ordered ? { months: digest.monthDigests(), rows: digest.rows } : null }
    const hashing = this.startHash(known, options)
    // Packed: key-ordered inserts leave pages ~88 % full (≈43 B per quota row); packing gives ≈38.
    // VACUUM INTO writes the packed copy once, straight to disk; a plain VACUUM builds it in the
    // temp store (memory here: +0.5 GB at full scale) and copies it back.
    const packedPath = this.packedPath
    let hash: string
    let counts: Record<string, number>
    let digests: FinishedSnapshot["digests"]
    try {
      this.db.prepare("VACUUM INTO ?").run(packedPath)
      this.db.close()
      lap("vacuum_ms")
      const packed = new Database(packedPath, { readonly: true })
      let check: unknown
      let packedCounts: Record<string, number>
      try {
        check = packed.pragma("integrity_check", { simple: true })
        // The hash was taken on the unpacked file: the packed one must hold as many rows.
        packedCounts = rowCounts(packed)
      } finally {
        packed.close()
      }
      lap("integrity_check_ms")
      const answer = hashing.wait()
      lap("content_hash_ms")
      if (check !== "ok") throw new Error(`snapshot integrity check failed: ${String(check)}`)
      if (answer._tag === "Failed") throw new Error(`snapshot content hash failed: ${answer.reason}`)
      if (JSON.stringify(answer.counts) !== JSON.stringify(packedCounts)) {
        throw new Error(`snapshot packing changed row counts: ${JSON.stringify(answer.counts)} → ${JSON.stringify(packedCounts)}`)
      }
      hash = answer.hash
      counts = answer.counts
      digests = { tables: answer.tables, quotaMonths: answer.quotaMonths, tableMonths: answer.tableMonths }
    } catch (e) {
      hashing.wait()
      this.abort()
      throw e
    }
    removeDatabase(this.tmpPath)
    return this.publish(packedPath, batchDate, { hash, counts, ...digests }, timings, lap)
  }

  /**
   * An increment's end: the copy keeps the previous snapshot's packing (no VACUUM: the day's rows
   * fill the room the pages have), is hashed from the digests it did not change (beside this
   * thread for a large file) while this thread checks it. The check is `quick_check` (every page,
   * record and constraint, not each index against its table: the file is a checked snapshot that
   * SQLite itself changed, and the indexes are those of the small tables staged again), ~3× faster
   * than `integrity_check` at market scale.
   */
  /** Starts the content hash of the temporary file: beside this thread for a large file, else here at `wait()`. */
  private startHash(known: KnownDigests, options: FinishOptions) {
    const beside = options.hashBeside ?? statSync(this.tmpPath).size >= BESIDE_HASH_MIN_BYTES
    return (beside ? (options.beside ?? besideInWorker) : besideHere)(hashJob, { path: this.tmpPath, known })
  }

  private finishIncrement(
    batchDate: string,
    increment: IncrementFinish,
    timings: Record<string, number>,
    lap: (name: string) => void,
    options: FinishOptions,
  ): FinishedSnapshot {
    // Every quota row went in through insertQuota*: an insert that met an existing key would have failed.
    const quotas = increment.quotaRows == null ? {} : { quotas: increment.quotaRows - this.quotasDeleted + this.quotaDigest.rows }
    const known: KnownDigests = {
      quotas: { months: increment.quotaMonths, rows: -1 },
      quotasFrom: increment.quotasFrom,
      tables: increment.tables,
      counts: { ...increment.counts, ...quotas },
      ...(increment.months === undefined ? {} : { months: increment.months }),
    }
    const hashing = this.startHash(known, options)
    let answer: HashAnswer
    try {
      const check = this.db.pragma("quick_check", { simple: true })
      this.db.close()
      lap("quick_check_ms")
      answer = hashing.wait()
      lap("content_hash_ms")
      if (check !== "ok") throw new Error(`snapshot quick check failed: ${String(check)}`)
      if (answer._tag === "Failed") throw new Error(`snapshot content hash failed: ${answer.reason}`)
    } catch (e) {
      hashing.wait()
      this.abort()
      throw e
    }
    return this.publish(this.tmpPath, batchDate, answer, timings, lap)
  }

  /** fsyncs the finished temporary file and renames it to its name (date and content hash). */
  private publish(
    from: string,
    batchDate: string,
    answer: Omit<SnapshotDigests, keyof FinishedSnapshot["digests"]> & FinishedSnapshot["digests"],
    timings: Record<string, number>,
    lap: (name: string) => void,
  ): FinishedSnapshot {
    const { hash, counts } = answer
    const digests = { tables: answer.tables, quotaMonths: answer.quotaMonths, tableMonths: answer.tableMonths }
    fsyncPath(from)
    lap("sync_ms")
    const file = `${batchDate}-${hash.slice(0, 16)}.sqlite`
    const path = join(this.dir, file)
    if (existsSync(path)) {
      // Same date, same content: the published file stays untouched.
      removeDatabase(from)
      return { file, path, contentHash: hash, rowCounts: counts, created: false, timings, digests }
    }
    renameSync(from, path)
    fsyncPath(this.dir)
    return { file, path, contentHash: hash, rowCounts: counts, created: true, timings, digests }
  }

  /** Drops the temporary files (a rejected or failed build). */
  abort(): void {
    if (this.db.open) this.db.close()
    removeDatabase(this.tmpPath)
    removeDatabase(this.packedPath)
  }

  private get packedPath(): string {
    return this.tmpPath.replace(/\.sqlite\.tmp$/, ".packed.sqlite.tmp")
  }
}

/**
 * A temporary database file and the files SQLite keeps beside it: a reader that opened it (the
 * hash) leaves `-wal` and `-shm` under its name, which would otherwise stay in the snapshots folder.
 */
const removeDatabase = (path: string): void => {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${path}${suffix}`, { force: true })
}

/** Below this size the hash is quicker in this thread than a worker's start (~0.1 s). */
const BESIDE_HASH_MIN_BYTES = 32 << 20

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x)

const pushQuota = (args: Array<number | null>, r: QuotasTable): void => {
  args.push(r.asset_id, r.date, r.price, r.patrimony, r.holders, r.factor_ajuste, r.factor_reparto, r.units_subscribed ?? null, r.units_redeemed ?? null)
}
