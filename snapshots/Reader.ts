/**
 * Reads one published snapshot. Opened read-only with locking_mode=EXCLUSIVE (a read-only
 * connection then keeps its SHARED lock: ~2 µs point reads) and mmap, which is safe only because
 * a published file never changes. Every statement is prepared once, at open; what the readers
 * compute once per snapshot is kept on its memo (SnapshotMemo.ts) and dropped when it closes.
 */
import Database from "better-sqlite3"
import { dateToInt } from "../schemas/Dates.ts"
import { fundCurrent } from "./compute/SeriesActivity.ts"
import { bindMemo, SnapshotMemo } from "./SnapshotMemo.ts"
import type { AdministratorsTable, FundsTable, QuotasTable, SeriesTable } from "./Tables.ts"
import { FORMAT_VERSION, TABLES } from "./Tables.ts"

export interface LastQuota {
  readonly date: number
  readonly price: number
  readonly patrimony: number | null
  readonly holders: number | null
  /** 1 when this value is the daily BPR report's (provisional: the cartola has not replaced it yet). */
  readonly provisional: number
}

export type DayRow = Pick<QuotasTable, "date" | "price">

/** SQLite found the file damaged (SQLITE_CORRUPT and its extended codes, SQLITE_NOTADB): the bytes, not the query. */
export const isDamagedFileError = (e: unknown): boolean => {
  const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined
  return typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code)
}

/**
 * What the readers that only query tables need of a snapshot: its connection and batch date. A
 * published snapshot's reader is one; so is the file being built, which lets the pipeline render
 * answers with the API's own readers (pipeline/compute/MarketReady.ts).
 */
export type SnapshotData = Pick<SnapshotReader, "db" | "batchDate">

export class SnapshotReader {
  readonly path: string
  readonly db: Database.Database
  readonly batchDate: string
  readonly formatVersion: number
  /** The meta table, read once when the snapshot opens (a snapshot never changes). */
  readonly meta: ReadonlyMap<string, string>
  /** What is computed once for this snapshot (SnapshotMemo.ts); closed with it. */
  readonly memo = new SnapshotMemo()
  private readonly stmts

  constructor(path: string) {
    this.path = path
    this.db = new Database(path, { readonly: true, fileMustExist: true })
    bindMemo(this.db, this.memo)
    try {
      this.db.pragma("locking_mode = EXCLUSIVE")
      this.db.pragma("mmap_size = 268435456")
      const meta: ReadonlyMap<string, string> = new Map(
        (this.db.prepare("SELECT key, value FROM meta").all() as Array<{ key: string; value: string }>).map((r) => [
          r.key,
          r.value,
        ]),
      )
      this.meta = meta
      this.formatVersion = Number(meta.get("format_version"))
      if (this.formatVersion !== FORMAT_VERSION) {
        throw new Error(`snapshot format ${meta.get("format_version")} is not ${FORMAT_VERSION}: ${path}`)
      }
      const batchDate = meta.get("batch_date")
      if (batchDate === undefined) throw new Error(`snapshot without batch_date: ${path}`)
      this.batchDate = batchDate
      const db = this.db
      this.stmts = {
        providers: db.prepare("SELECT provider_id, rut, name FROM administrators ORDER BY name, provider_id"),
        provider: db.prepare("SELECT provider_id, rut, name FROM administrators WHERE provider_id = ?"),
        fundsWithLatestOf: db.prepare(
          `SELECT f.*, (SELECT max(s.last_date) FROM series s WHERE s.concept_id = f.concept_id) AS latest_date
           FROM funds f WHERE f.provider_id = ? ORDER BY f.name, f.concept_id`,
        ),
        fund: db.prepare("SELECT * FROM funds WHERE concept_id = ?"),
        seriesOf: db.prepare("SELECT * FROM series WHERE concept_id = ? ORDER BY serie"),
        series: db.prepare("SELECT * FROM series WHERE asset_id = ?"),
        lastQuota: db.prepare(
          `SELECT q.date, q.price, q.patrimony, q.holders,
             coalesce((SELECT s.latest_from_source FROM quota_sources s WHERE s.asset_id = q.asset_id), 0) AS provisional
           FROM quotas q WHERE q.asset_id = ? ORDER BY q.date DESC LIMIT 1`,
        ),
        daysFrom: db.prepare("SELECT date, price FROM quotas WHERE asset_id = ? AND date >= ? ORDER BY date").raw(true),
      }
    } catch (e) {
      this.db.close()
      throw e
    }
  }

  /** A fast structural check before a snapshot goes live. */
  quickCheck(): boolean {
    return this.db.pragma("quick_check", { simple: true }) === "ok"
  }

  totalRecords(): number {
    let total = 0
    for (const t of TABLES) {
      if (t.name === "meta") continue
      total += (this.db.prepare(`SELECT count(*) AS n FROM ${t.name}`).get() as { n: number }).n
    }
    return total
  }

  providers(): AdministratorsTable[] {
    return this.stmts.providers.all() as AdministratorsTable[]
  }
  provider(providerId: number): AdministratorsTable | undefined {
    return this.stmts.provider.get(providerId) as AdministratorsTable | undefined
  }
  /** The administrator's current funds at the batch date (compute/SeriesActivity.ts), by name. */
  currentFundsOf(providerId: number, graceWeekdays: number): FundsTable[] {
    const batchDate = dateToInt(this.batchDate)
    return (this.stmts.fundsWithLatestOf.all(providerId) as Array<FundsTable & { latest_date: number | null }>)
      .filter((f) => fundCurrent({ fundEndDate: f.end_date, latestDate: f.latest_date, batchDate, graceWeekdays }))
      .map(({ latest_date: _, ...fund }) => fund)
  }
  fund(conceptId: number): FundsTable | undefined {
    return this.stmts.fund.get(conceptId) as FundsTable | undefined
  }
  seriesOf(conceptId: number): SeriesTable[] {
    return this.stmts.seriesOf.all(conceptId) as SeriesTable[]
  }
  series(assetId: number): SeriesTable | undefined {
    return this.stmts.series.get(assetId) as SeriesTable | undefined
  }
  lastQuota(assetId: number): LastQuota | undefined {
    return this.stmts.lastQuota.get(assetId) as LastQuota | undefined
  }
  /** [date YYYYMMDD, price] pairs from `fromDate` (inclusive), ascending. */
  daysFrom(assetId: number, fromDate: number): Array<[number, number]> {
    return this.stmts.daysFrom.all(assetId, fromDate) as Array<[number, number]>
  }

  close(): void {
    if (this.db.open) this.db.close()
    this.memo.close()
  }

  get isOpen(): boolean {
    return this.db.open
  }
}
