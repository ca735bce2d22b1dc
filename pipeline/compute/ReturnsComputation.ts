/**
 * Precomputes, inside the snapshot being built, every series' returns at the batch date (eight
 * windows × accounting/clp/real_uf × price/total) and its risk snapshot, with the same pure code
 * and the same history reader the API uses for other cutoffs. Rows are written in key order.
 */
import type Database from "better-sqlite3"
import { dateToInt } from "../../schemas/Dates.ts"
import { BASES, seriesReturns, seriesRisk, VALUATIONS } from "../../snapshots/compute/Policy.ts"
import { WINDOWS } from "../../snapshots/compute/Windows.ts"
import { loadHistory, loadIndicators } from "../../snapshots/readers/ReturnsHistory.ts"
import { toReturnsRow, toRiskRow } from "../../snapshots/readers/ReturnsRows.ts"
import type { ReturnsLatestTable, RiskLatestTable } from "../../snapshots/tables/ReturnsComputed.ts"
import type { Computation } from "./Computation.ts"

/** Windows in the table's key order (text order of `period`). */
const PERIODS_IN_KEY_ORDER = [...WINDOWS].sort()

const RETURNS_COLUMNS: ReadonlyArray<keyof ReturnsLatestTable> = [
  "asset_id", "valuation", "return_basis", "period", "as_of_date", "value", "reason",
  "target_start_date", "target_end_date", "effective_start_date", "effective_end_date", "start_price", "end_price",
  "start_fx_date", "start_fx", "end_fx_date", "end_fx", "start_uf", "end_uf",
  "distribution_multiplier", "exchange_multiplier", "applied_distributions", "applied_exchanges",
]
const RISK_COLUMNS: ReadonlyArray<keyof RiskLatestTable> = [
  "asset_id", "as_of_date", "volatility_monthly_12m", "volatility_monthly_36m", "volatility_annualized_12m",
  "volatility_annualized_36m", "max_drawdown_36m", "risk_level", "risk_score", "method_version", "unavailable_reason",
]

const insertInto = (db: Database.Database, table: string, columns: ReadonlyArray<string>) =>
  db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)

export const ReturnsComputation: Computation = {
  name: "returns",
  divisible: true,
  run: (db, batchDate, context) => {
    const cutoff = dateToInt(batchDate)
    const indicators = loadIndicators(db)
    const insertReturns = insertInto(db, "returns_latest", RETURNS_COLUMNS)
    const insertRisk = insertInto(db, "risk_latest", RISK_COLUMNS)
    const all = db.prepare("SELECT asset_id, currency FROM series ORDER BY asset_id").all() as Array<{
      asset_id: number
      currency: string | null
    }>
    // a part: its range of the series (in asset-id order, so the parts' rows follow one another)
    const part = context?.part ?? { index: 0, of: 1 }
    const series = all.slice(Math.floor((all.length * part.index) / part.of), Math.floor((all.length * (part.index + 1)) / part.of))
    const counters = { series: 0, windows_available: 0, windows_unavailable: 0, risk_available: 0 }
    for (const { asset_id: assetId, currency } of series) {
      const history = loadHistory(db, assetId, cutoff)
      for (const valuation of VALUATIONS) {
        for (const basis of BASES) {
          const result = seriesReturns(history, cutoff, currency, valuation, basis, indicators)
          for (const period of PERIODS_IN_KEY_ORDER) {
            const p = result.periods[period]
            const row = toReturnsRow(assetId, valuation, basis, period, result.as_of_date, p)
            insertReturns.run(RETURNS_COLUMNS.map((c) => row[c]))
            if (p.value === null) counters.windows_unavailable++
            else counters.windows_available++
          }
        }
      }
      const risk = toRiskRow(assetId, seriesRisk(history, cutoff, currency))
      insertRisk.run(RISK_COLUMNS.map((c) => risk[c]))
      if (risk.unavailable_reason === null) counters.risk_available++
      counters.series++
    }
    return counters
  },
}
