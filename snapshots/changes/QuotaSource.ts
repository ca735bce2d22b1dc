/**
 * Which source a mutual fund daily value of a batch came from. The snapshot records it per series
 * (quota_sources: the rows valued from the daily BPR report alone, their count and first and last
 * dates); every other value is the cartola's. When the BPR rows are all the rows between their
 * first and last dates (the usual case: the days after the cartola's last), a value in that range
 * is the BPR's; when cartola rows lie between them the snapshot does not say which is which: null.
 */
import type Database from "better-sqlite3"
import type { ValueSource } from "../../schemas/Changes.ts"
import type { Side } from "./BatchPair.ts"

export type SourceOf = (date: number) => ValueSource | null

export class QuotaSources {
  private readonly provisional: Record<Side, Database.Statement>
  private readonly rowsBetween: Record<Side, Database.Statement>

  constructor(db: Database.Database) {
    const statements = (side: Side) => ({
      provisional: db.prepare(`SELECT rows, first_date, last_date FROM ${side}.quota_sources WHERE asset_id = ?`),
      rowsBetween: db.prepare(`SELECT count(*) FROM ${side}.quotas WHERE asset_id = ? AND date BETWEEN ? AND ?`).pluck(),
    })
    const prior = statements("prior")
    const main = statements("main")
    this.provisional = { prior: prior.provisional, main: main.provisional }
    this.rowsBetween = { prior: prior.rowsBetween, main: main.rowsBetween }
  }

  /** The source of each value of the series in that side's batch. */
  of(side: Side, assetId: number): SourceOf {
    const bpr = this.provisional[side].get(assetId) as { rows: number; first_date: number; last_date: number } | undefined
    if (bpr === undefined) return () => "cartola"
    const contiguous = this.rowsBetween[side].get(assetId, bpr.first_date, bpr.last_date) === bpr.rows
    return (date) => (date < bpr.first_date || date > bpr.last_date ? "cartola" : contiguous ? "bpr" : null)
  }
}
