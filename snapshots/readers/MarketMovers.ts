/**
 * Top gainers and losers with outliers filtered. A move is left out when it is not a market move
 * or looks like a data error:
 *  - a distribution or adjustment factor (FACTOR DE REPARTO / DE AJUSTE) falls inside its window;
 *  - daily: |change| > DAILY_OUTLIER; monthly: |change| > MONTHLY_OUTLIER, or any day-to-day move
 *    inside the month above DAILY_OUTLIER;
 *  - the series has no patrimony (null or 0) on the date: an empty series' quota is not traded.
 * Gainers are positive changes, largest first; losers negative, most negative first; ties by
 * ascending numeric series id.
 */
import { currencyOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import { categoryOf } from "./MarketFundRow.ts"
import type { MarketRow } from "./MarketRows.ts"

export const DAILY_OUTLIER = 0.15
export const MONTHLY_OUTLIER = 0.5
export const TOP_N = 10

export const OUTLIER_RULE =
  `A series is left out of the movers when a distribution or adjustment factor falls inside the window, ` +
  `when |daily change| > ${DAILY_OUTLIER}, when |monthly change| > ${MONTHLY_OUTLIER} or any day-to-day move inside ` +
  `the month exceeds ${DAILY_OUTLIER} in absolute value, or when its patrimony on the date is null or 0. ` +
  `Gainers: positive changes, largest first; losers: negative changes, most negative first; ties by ascending numeric series id; top ${TOP_N}.`

const dailyEligible = (r: MarketRow): r is MarketRow & { dailyChange: number } =>
  r.dailyChange !== null && !r.dailyEvent && Math.abs(r.dailyChange) <= DAILY_OUTLIER && (r.patrimony ?? 0) > 0

const monthlyEligible = (r: MarketRow): r is MarketRow & { monthlyChange: number } =>
  r.monthlyChange !== null &&
  !r.monthlyEvent &&
  r.monthlyMaxStep <= DAILY_OUTLIER &&
  Math.abs(r.monthlyChange) <= MONTHLY_OUTLIER &&
  (r.patrimony ?? 0) > 0

export const moverRow = (r: MarketRow) => ({
  run: formatRun(r.run),
  serie: r.serie,
  serieId: String(r.assetId),
  fundId: String(r.conceptId),
  fundName: r.fundName,
  agf: r.agf,
  category: categoryOf(r.fundType),
  family: r.familyRar,
  currency: currencyOf(r.currencyCode),
  price: r.price,
  dailyChange: r.dailyChange,
  monthlyChange: r.monthlyChange,
  patrimony: r.patrimony,
})

const top = (rows: ReadonlyArray<MarketRow>, change: (r: MarketRow) => number, sign: 1 | -1) =>
  rows
    .filter((r) => sign * change(r) > 0)
    .sort((a, b) => sign * (change(b) - change(a)) || a.assetId - b.assetId)
    .slice(0, TOP_N)
    .map(moverRow)

export const movers = (rows: ReadonlyArray<MarketRow>) => {
  const daily = rows.filter(dailyEligible)
  const monthly = rows.filter(monthlyEligible)
  const d = (r: MarketRow) => r.dailyChange ?? 0
  const m = (r: MarketRow) => r.monthlyChange ?? 0
  return {
    topGainersDaily: top(daily, d, 1),
    topLosersDaily: top(daily, d, -1),
    topGainersMonthly: top(monthly, m, 1),
    topLosersMonthly: top(monthly, m, -1),
  }
}
