/**
 * Quarterly portfolios of FI/ETF funds (`fi_holdings`, keyed by RUN): the periods with positions
 * and the positions of one period. Statements are prepared once per snapshot (its memo).
 */
import type Database from "better-sqlite3"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import type { FiHoldingsTable } from "../../snapshots/tables/Fi.ts"

interface Statements {
  readonly latest: Database.Statement
  readonly period: Database.Statement
}

const stmts = (reader: SnapshotReader): Statements =>
  reader.memo.memo("fi-holdings:statements", () => ({
    latest: reader.db.prepare("SELECT max(period) AS period FROM fi_holdings WHERE run = ?"),
    period: reader.db.prepare("SELECT * FROM fi_holdings WHERE run = ? AND period = ? ORDER BY market, position"),
  }))

/** The latest period (YYYY-MM) in which the fund has any position, national or foreign; null when none. */
export const latestHoldingsPeriod = (reader: SnapshotReader, run: number): string | null =>
  (stmts(reader).latest.get(run) as { period: string | null }).period

/** Every position of the fund in `period` (YYYY-MM), both markets, ordered by market then CMF row. */
export const holdingsOf = (reader: SnapshotReader, run: number, period: string): FiHoldingsTable[] =>
  stmts(reader).period.all(run, period) as FiHoldingsTable[]
