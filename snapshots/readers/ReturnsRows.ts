/**
 * The precomputed rows of returns_latest and risk_latest, both ways: from the pure computations'
 * answers to rows (the pipeline) and back (the API), so a stored answer is served exactly as the
 * computation gave it. Statements are prepared once per snapshot, on its memo (../SnapshotMemo.ts).
 */
import type Database from "better-sqlite3"
import { fromIsoDate, toIsoDate } from "../compute/Calendar.ts"
import { TOLERANCE_DAYS } from "../compute/Policy.ts"
import { methodVersion, type ReturnBasis, type ReturnPeriod, type ReturnReason, type ReturnsResult } from "../compute/Returns.ts"
import type { RiskLevel, RiskMetrics } from "../compute/Risk.ts"
import type { AppliedFactor } from "../compute/TotalReturn.ts"
import { conversionFor, type Valuation } from "../compute/Valuation.ts"
import { annualizationYears, WINDOWS, type WindowKey } from "../compute/Windows.ts"
import { memoOf } from "../SnapshotMemo.ts"
import type { ReturnsLatestTable, RiskLatestTable } from "../tables/ReturnsComputed.ts"

const int = (iso: string | null): number | null => (iso === null ? null : fromIsoDate(iso))
const iso = (date: number | null): string | null => (date === null ? null : toIsoDate(date))

const packFactors = (fs: ReadonlyArray<AppliedFactor>): string | null =>
  fs.length === 0 ? null : JSON.stringify(fs.map((f) => [fromIsoDate(f.date), f.factor]))
const unpackFactors = (json: string | null): AppliedFactor[] =>
  json === null ? [] : (JSON.parse(json) as Array<[number, number]>).map(([d, factor]) => ({ date: toIsoDate(d), factor }))

/** One window's answer as a returns_latest row. */
export const toReturnsRow = (
  assetId: number,
  valuation: Valuation,
  basis: ReturnBasis,
  period: WindowKey,
  asOf: string | null,
  p: ReturnPeriod,
): ReturnsLatestTable => ({
  asset_id: assetId,
  valuation,
  return_basis: basis,
  period,
  as_of_date: int(asOf),
  value: p.value,
  reason: p.reason,
  target_start_date: int(p.target_start_date),
  target_end_date: int(p.target_end_date),
  effective_start_date: int(p.effective_start_date),
  effective_end_date: int(p.effective_end_date),
  start_price: p.start_price,
  end_price: p.end_price,
  start_fx_date: int(p.start_fx?.date ?? null),
  start_fx: p.start_fx?.value ?? null,
  end_fx_date: int(p.end_fx?.date ?? null),
  end_fx: p.end_fx?.value ?? null,
  start_uf: p.start_uf?.value ?? null,
  end_uf: p.end_uf?.value ?? null,
  distribution_multiplier: p.distribution_multiplier,
  exchange_multiplier: p.exchange_multiplier,
  applied_distributions: packFactors(p.applied_distributions),
  applied_exchanges: packFactors(p.applied_exchanges),
})

const fromReturnsRow = (r: ReturnsLatestTable, currency: ReturnPeriod["currency"]): ReturnPeriod => ({
  value: r.value,
  currency,
  status: r.value === null ? "unavailable" : "available",
  reason: r.reason as ReturnReason | null,
  annualized: annualizationYears(r.period as WindowKey) !== null,
  target_start_date: iso(r.target_start_date),
  target_end_date: iso(r.target_end_date),
  effective_start_date: iso(r.effective_start_date),
  effective_end_date: iso(r.effective_end_date),
  start_price: r.start_price,
  end_price: r.end_price,
  start_fx: r.start_fx === null || r.start_fx_date === null ? null : { date: toIsoDate(r.start_fx_date), value: r.start_fx },
  end_fx: r.end_fx === null || r.end_fx_date === null ? null : { date: toIsoDate(r.end_fx_date), value: r.end_fx },
  // The UF is read on the quota date itself, so its date is the effective date.
  start_uf: r.start_uf === null || r.effective_start_date === null ? null : { date: toIsoDate(r.effective_start_date), value: r.start_uf },
  end_uf: r.end_uf === null || r.effective_end_date === null ? null : { date: toIsoDate(r.effective_end_date), value: r.end_uf },
  applied_distributions: unpackFactors(r.applied_distributions),
  applied_exchanges: unpackFactors(r.applied_exchanges),
  distribution_multiplier: r.distribution_multiplier,
  exchange_multiplier: r.exchange_multiplier,
})

/** A risk answer as a risk_latest row. */
export const toRiskRow = (assetId: number, m: RiskMetrics): RiskLatestTable => ({
  asset_id: assetId,
  as_of_date: int(m.as_of_date),
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

interface Statements {
  readonly returns: Database.Statement
  readonly risk: Database.Statement
}
const statements = (db: Database.Database): Statements =>
  memoOf(db).memo("returns-rows:statements", () => ({
    returns: db.prepare("SELECT * FROM returns_latest WHERE asset_id = ? AND valuation = ? AND return_basis = ?"),
    risk: db.prepare("SELECT * FROM risk_latest WHERE asset_id = ?"),
  }))

/**
 * The stored answer at the batch date, as computeReturns gave it; null when the series has no
 * stored rows (not computed in this snapshot).
 */
export const storedReturns = (
  db: Database.Database,
  assetId: number,
  currency: string | null,
  valuation: Valuation,
  basis: ReturnBasis,
  batchDate: number,
): ReturnsResult | null => {
  const rows = statements(db).returns.all(assetId, valuation, basis) as ReturnsLatestTable[]
  if (rows.length !== WINDOWS.length) return null
  const label = conversionFor(currency, valuation)?.currency ?? null
  const byPeriod = new Map(rows.map((r) => [r.period, r]))
  const periods = {} as Record<WindowKey, ReturnPeriod>
  for (const key of WINDOWS) {
    const row = byPeriod.get(key)
    if (row === undefined) return null
    periods[key] = fromReturnsRow(row, label)
  }
  return {
    requested_as_of_date: toIsoDate(batchDate),
    as_of_date: iso((rows[0] as ReturnsLatestTable).as_of_date),
    currency: label,
    return_basis: basis,
    valuation,
    method_version: methodVersion(basis, valuation),
    tolerance_days: TOLERANCE_DAYS,
    periods,
  }
}

/** The stored risk snapshot, or null when the series has none. */
export const storedRisk = (db: Database.Database, assetId: number): RiskMetrics | null => {
  const r = statements(db).risk.get(assetId) as RiskLatestTable | undefined
  if (r === undefined) return null
  return {
    as_of_date: iso(r.as_of_date),
    volatility_monthly_12m: r.volatility_monthly_12m,
    volatility_monthly_36m: r.volatility_monthly_36m,
    volatility_annualized_12m: r.volatility_annualized_12m,
    volatility_annualized_36m: r.volatility_annualized_36m,
    max_drawdown_36m: r.max_drawdown_36m,
    risk_level: r.risk_level as RiskLevel | null,
    risk_score: r.risk_score,
    method_version: r.method_version,
    unavailable_reason: r.unavailable_reason as RiskMetrics["unavailable_reason"],
  }
}
