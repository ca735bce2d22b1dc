/**
 * The risk figures of a mutual-fund all-funds row (the reference's `volatility_*`,
 * `max_drawdown_36m`, `risk_*` row fields). At the batch's own market date they are the series'
 * stored snapshot (risk_latest), i.e. exactly what /api/real_assets/{id}/risk_metrics publishes,
 * computed with the same call when the snapshot holds none (as that route does). At an earlier
 * `date` they are computed at that market date with the same code: a backtest row never sees
 * quotas after its own date.
 */
import type Database from "better-sqlite3"
import { shiftMonths } from "../compute/Calendar.ts"
import { seriesRisk } from "../compute/Policy.ts"
import type { RiskMetrics } from "../compute/Risk.ts"
import type { QuotaSeries } from "../compute/Series.ts"
import { prepared } from "./MarketDb.ts"
import { loadHistory } from "./ReturnsHistory.ts"
import { storedRisk } from "./ReturnsRows.ts"

/** The longest risk window (max_drawdown_36m, the 36m volatilities). */
const RISK_MONTHS = 36

const lastDate = (db: Database.Database, assetId: number, date: number): number | null =>
  prepared(db, "SELECT max(date) FROM quotas WHERE asset_id = ? AND date <= ?").pluck().get(assetId, date) as number | null

/**
 * The quotas the risk figures at `date` read: from the last quota on or before D − 36 months (or
 * the first) up to D. Every window's base row is in it, so computeRisk answers exactly as on the
 * whole history, from about 60 % of the rows loadHistory (60 months, for returns) reads: an
 * earlier-date all-funds computes this for every row of the universe.
 */
const riskHistory = (db: Database.Database, assetId: number, date: number): QuotaSeries => {
  const asOf = lastDate(db, assetId, date)
  if (asOf === null) return { dates: [], prices: [] }
  const floor = lastDate(db, assetId, shiftMonths(asOf, -RISK_MONTHS)) ?? 0
  const rows = prepared(db, "SELECT date, price FROM quotas WHERE asset_id = ? AND date >= ? AND date <= ? ORDER BY date")
    .raw(true)
    .all(assetId, floor, asOf) as Array<[number, number]>
  return { dates: Int32Array.from(rows, (r) => r[0]), prices: Float64Array.from(rows, (r) => r[1]) }
}

/** The series' risk as /risk_metrics answers it on this snapshot (batch date YYYYMMDD). */
export const publishedRisk = (db: Database.Database, assetId: number, currency: string | null, batchDate: number): RiskMetrics =>
  storedRisk(db, assetId) ?? seriesRisk(loadHistory(db, assetId, batchDate), batchDate, currency)

/** The risk of a row at market date `date` (YYYYMMDD); `latest` when that is the batch's own market date. */
export const rowRisk = (
  db: Database.Database,
  assetId: number,
  currency: string | null,
  batchDate: number,
  date: number,
  latest: boolean,
): RiskMetrics => (latest ? publishedRisk(db, assetId, currency, batchDate) : seriesRisk(riskHistory(db, assetId, date), date, currency))

/** The row fields, in the reference's order and names (`risk_as_of_date` = the snapshot's D). */
export const riskRowFields = (m: RiskMetrics) => ({
  volatility_monthly_12m: m.volatility_monthly_12m,
  volatility_monthly_36m: m.volatility_monthly_36m,
  volatility_annualized_12m: m.volatility_annualized_12m,
  volatility_annualized_36m: m.volatility_annualized_36m,
  max_drawdown_36m: m.max_drawdown_36m,
  risk_level: m.risk_level,
  risk_score: m.risk_score,
  risk_as_of_date: m.as_of_date,
  risk_method_version: m.method_version,
})
