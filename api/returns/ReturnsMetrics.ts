/** The bodies of `/risk_metrics`, `/expense_ratio` and `/expense_ratio/history` for an FM series. */
import { investorClassOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { ExpenseRatioBody, ExpenseRatioHistoryBody } from "../../schemas/ReturnsCosts.ts"
import type { RiskMetricsBody } from "../../schemas/ReturnsRisk.ts"
import { daysInMonth, fromIsoDate } from "../../snapshots/compute/Calendar.ts"
import type { RiskMetrics } from "../../snapshots/compute/Risk.ts"
import { labelAt, type ResolvedSeries } from "../../snapshots/readers/ReturnsSeries.ts"
import type { TacTable } from "../../snapshots/tables/FmExtras.ts"

/** The computed risk figures, as every `/risk_metrics` body carries them (FM and FI). */
export const riskFields = (m: RiskMetrics) => ({
  as_of_date: m.as_of_date,
  volatility_monthly_12m: m.volatility_monthly_12m,
  volatility_monthly_36m: m.volatility_monthly_36m,
  volatility_annualized_12m: m.volatility_annualized_12m,
  volatility_annualized_36m: m.volatility_annualized_36m,
  max_drawdown_36m: m.max_drawdown_36m,
  risk_level: m.risk_level,
  risk_score: m.risk_score,
  method_version: m.method_version,
  unavailable_reason: m.unavailable_reason,
})

export const riskBody = (requestedId: string, s: ResolvedSeries, m: RiskMetrics): RiskMetricsBody => {
  const asOf = m.as_of_date === null ? null : fromIsoDate(m.as_of_date)
  return {
    data: {
      id: requestedId,
      type: "risk_metrics",
      attributes: {
        run: formatRun(s.series.run),
        serie: asOf === null ? s.series.serie : labelAt(s, asOf),
        ...riskFields(m),
      },
    },
  }
}

export const expenseRatioBody = (requestedId: string, s: ResolvedSeries, tac: TacTable | undefined): ExpenseRatioBody => ({
  data: {
    id: requestedId,
    type: "expense_ratio",
    attributes: {
      // Stored as a decimal fraction by the pipeline (1.32 % → 0.0132): served as it is.
      expense_ratio: tac?.tac ?? null,
      investor_class: investorClassOf(s.series.serie),
      month: tac?.month ?? null,
    },
  },
})

/** "2025-02" → "20250228": a month is reported by its last day. */
const monthEnd = (month: string): string => {
  const year = Number(month.slice(0, 4))
  const m = Number(month.slice(5, 7))
  return `${month.slice(0, 4)}${month.slice(5, 7)}${String(daysInMonth(year, m)).padStart(2, "0")}`
}

export const expenseRatioHistoryBody = (requestedId: string, rows: ReadonlyArray<TacTable>): ExpenseRatioHistoryBody => ({
  data: rows.map((r) => {
    const date = monthEnd(r.month)
    return { id: `${requestedId}_${date}`, type: "expense_ratio_month", attributes: { date, expense_ratio: r.tac } }
  }),
})

/** `from_date` YYYYMMDD → the first month whose last day is on or after it (YYYY-MM). */
export const fromMonth = (fromDate: string | undefined): string =>
  fromDate === undefined ? "0000-00" : `${fromDate.slice(0, 4)}-${fromDate.slice(4, 6)}`
