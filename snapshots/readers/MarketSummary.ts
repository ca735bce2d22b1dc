/**
 * /api/market-summary: AFM families as indices (per currency, weighted by opening patrimony) and
 * the top movers, daily and monthly, with outliers filtered. Computed over today's universe; for
 * a date before the batch's own it is a backtest over today's funds, and `meta` says so. With
 * universe=as_of it is computed over the series alive on the requested date instead (no
 * survivorship bias: funds closed since are in it).
 */
import type Database from "better-sqlite3"
import { dateToInt } from "../../schemas/Dates.ts"
import { type Universe, universeWord } from "../../schemas/MarketUniverse.ts"
import { toIsoDate } from "../compute/Calendar.ts"
import type { SnapshotData } from "../Reader.ts"
import { type MarketDates, marketDates } from "./MarketDates.ts"
import { prepared } from "./MarketDb.ts"
import { familySummaries } from "./MarketFamilies.ts"
import { toClp, usdOn } from "./MarketFx.ts"
import { movers, OUTLIER_RULE, TOP_N } from "./MarketMovers.ts"
import { latestDates } from "./MarketMutualFunds.ts"
import { marketRows } from "./MarketRows.ts"
import { TOLERANCE_DAYS, type UniverseSeries, universe, universeAsOf } from "./MarketUniverse.ts"

const universeRule = (graceWeekdays: number, which: Universe): string =>
  which === "as_of"
    ? "Series alive on the requested date (universe=as_of): their fund had started and had no CMF registry end date on or " +
      `before it, they had a value on or before it, and their last such value is at most ${graceWeekdays} weekdays ` +
      "(Monday to Friday; holidays not known) before it. Funds closed since are included: no survivorship bias."
    : "Series active at the batch date: their fund has no CMF registry end date on or before it, and they have gone at most " +
      `${graceWeekdays} weekdays (Monday to Friday; holidays not known) without a value. A historical date is a backtest over ` +
      "this universe: survivorship bias, funds closed since then are left out."

/** How the summary is computed; the universe's grace is the server's (FDS_SERIES_GRACE_DAYS). */
export const summaryMethodology = (graceWeekdays: number, which: Universe = "current") => ({
  version: "summary_v1",
  changes:
    "Decimal fractions. Daily: last quote on or before the date vs the last quote on or before previousDate; " +
    "monthly: vs the last quote on or before monthlyBaseDate (the date minus one calendar month). " +
    `A base or end quote more than ${TOLERANCE_DAYS} days before its target gives null; price (quota) changes, distributions not reinvested.`,
  families:
    "Per AFM family and AFM currency (PESOS, DOLAR): Σ(opening patrimony × change) / Σ(opening patrimony) over the family's " +
    "series with a change and an opening patrimony > 0; the opening patrimony is that of the change's base quote. " +
    "indexCurrency is the currency with the largest patrimony in CLP (USD × observed dollar of the date; ties: PESOS).",
  movers: OUTLIER_RULE,
  universe: universeRule(graceWeekdays, which),
})

/** The AFM classification's date (meta `afm_report_date`, YYYY-MM-DD); null in a batch without it. */
const afmReportDate = (db: Database.Database): string | null =>
  (prepared(db, "SELECT value FROM meta WHERE key = 'afm_report_date'").get() as { value: string } | undefined)?.value ?? null

export const marketSummary = (
  db: Database.Database,
  batchDate: number,
  graceWeekdays: number,
  dates: MarketDates,
  latest: MarketDates | null,
  /** The universe=as_of series (universeAsOf); today's universe when absent. */
  asOf?: ReadonlyArray<UniverseSeries>,
) => {
  const which: Universe = asOf === undefined ? "current" : "as_of"
  const rows = marketRows(db, asOf ?? universe(db, batchDate, graceWeekdays), dates)
  const usdClp = usdOn(db, dates.date)
  const classified = rows.filter((r) => r.familyRar !== null)
  const clp = (rs: typeof rows) =>
    rs.reduce((n, r) => n + (toClp(r.patrimony, r.currencyCode, usdClp) ?? 0), 0)
  const totalClp = clp(rows)
  const backtest = dates.date < (latest?.date ?? batchDate)
  return {
    meta: {
      date: toIsoDate(dates.date),
      previousDate: dates.previousDate === null ? null : toIsoDate(dates.previousDate),
      monthlyBaseDate: toIsoDate(dates.monthlyBaseDate),
      batchDate: toIsoDate(batchDate),
      methodology: summaryMethodology(graceWeekdays, which),
      universe: universeWord(which),
      backtest,
      survivorshipBias:
        backtest && which === "current"
          ? "historical date: a backtest over today's funds; funds closed since that date are not included"
          : null,
      usdClp,
      classification: {
        available: classified.length > 0,
        reportDate: afmReportDate(db),
        classifiedSeries: classified.length,
        unclassifiedSeries: rows.length - classified.length,
        coverageByPatrimonyClp: totalClp > 0 ? clp(classified) / totalClp : null,
      },
      topN: TOP_N,
    },
    families: familySummaries(rows, usdClp),
    ...movers(rows),
  }
}

/**
 * The summary at `cutoff` (YYYYMMDD, at most the latest market date; with universe=as_of, the
 * requested date) as JSON text, or null when no fund of the universe has a quote by then. Runs in
 * the API's rendering thread (api/market/RenderWorker.ts).
 */
export const marketSummaryText = (r: SnapshotData, cutoff: number, graceWeekdays: number, which: Universe = "current"): string | null => {
  const batch = dateToInt(r.batchDate)
  const latest = latestDates(r.db, batch, graceWeekdays)
  if (which === "as_of") {
    const series = universeAsOf(r.db, cutoff, graceWeekdays)
    const dates = marketDates(r.db, series, cutoff)
    return dates === null ? null : JSON.stringify(marketSummary(r.db, batch, graceWeekdays, dates, latest, series))
  }
  if (latest === null) return null
  const dates = cutoff >= latest.date ? latest : marketDates(r.db, universe(r.db, batch, graceWeekdays), cutoff)
  return dates === null ? null : JSON.stringify(marketSummary(r.db, batch, graceWeekdays, dates, latest))
}
