/**
 * The all-funds row of a mutual-fund series (vehicle `mutual_fund`), and the keys its filters
 * use. Field names follow the reference contract; every change is a decimal fraction. The risk
 * fields come from MarketRisk.ts (the /risk_metrics figures at the batch's own date).
 */
import { currencyOf, FUND_TYPE_CATEGORY, investorClassOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import { toIsoDate } from "../compute/Calendar.ts"
import type { RiskMetrics } from "../compute/Risk.ts"
import { riskRowFields } from "./MarketRisk.ts"
import type { MarketRow } from "./MarketRows.ts"
import type { Continuity } from "./MarketUniverse.ts"

export const categoryOf = (fundType: number | null): string | null =>
  fundType === null ? null : (FUND_TYPE_CATEGORY[fundType] ?? null)

/** The SeriesContinuity model: ids as decimal strings, the current id first. */
export const seriesContinuity = (c: Continuity | null) =>
  c === null
    ? null
    : {
        type: "rename" as const,
        previousSerie: c.previousSerie,
        currentSerie: c.currentSerie,
        firstCurrentDate: toIsoDate(c.firstCurrentDate),
        aliasIds: c.aliasIds.map(String),
      }

/** A fund without a declaration in the batch is `unknown` (nothing says otherwise). */
export const article107StatusOf = (r: MarketRow): string => r.article107Status ?? "unknown"

export const mutualFundRow = (r: MarketRow, risk: RiskMetrics) => ({
  vehicle: "mutual_fund" as const,
  agf: r.agf,
  fundName: r.fundName,
  fundId: String(r.conceptId),
  run: formatRun(r.run),
  category: categoryOf(r.fundType),
  fundFamily: r.familyRar,
  serie: r.serie,
  serieId: String(r.assetId),
  currency: currencyOf(r.currencyCode),
  tac: r.tac,
  investorClass: investorClassOf(r.serie),
  price: r.price,
  price_as_of_date: toIsoDate(r.priceDate),
  dailyChange: r.dailyChange,
  monthlyChange: r.monthlyChange,
  patrimony: r.patrimony,
  previousPatrimony: r.previousPatrimony,
  monthlyPatrimony: r.monthlyPatrimony,
  shareholders: r.holders,
  ...riskRowFields(risk),
  article107RegulationStatus: article107StatusOf(r),
  seriesContinuity: seriesContinuity(r.continuity),
})

/** A row ready to serve: its JSON text and the values the all-funds filters compare. */
export interface RenderedRow {
  readonly json: string
  readonly serieId: string
  readonly category: string | null
  readonly familySlug: string | null
  readonly article107Status: string | null
  readonly providerId: number
}

export const renderMutualFundRow = (r: MarketRow, risk: RiskMetrics): RenderedRow => ({
  json: JSON.stringify(mutualFundRow(r, risk)),
  serieId: String(r.assetId),
  category: categoryOf(r.fundType),
  familySlug: r.familySlug,
  article107Status: article107StatusOf(r),
  providerId: r.providerId,
})
