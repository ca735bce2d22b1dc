/**
 * /api/agf_stats/ranking, /api/agf_stats/evolution and /api/reports/tac-changes on the pinned
 * snapshot. Closed month: its last day is on or before the batch date's last complete month end.
 */
import { Effect } from "effect"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { endOfMonth, lastClosedMonthEnd, shiftMonths, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { read } from "../snapshot/Pinned.ts"
import { agfTotals, isoOrNull, rankBy } from "./MarketAgf.ts"
import { type Administrator, administratorsByName, evolution } from "./MarketAgfEvolution.ts"
import { notAfterBatch } from "./MarketResponses.ts"
import type { AgfEvolutionQuery, AgfRankingQuery, TacChangesQuery } from "./MarketStatsApi.ts"
import { lastTacMonth, tacChanges } from "./MarketTacChanges.ts"

const rankingMethodology = (graceWeekdays: number) =>
  "Each FM series active at the date counts with its last quote on or before it: its fund had no CMF registry end date on or " +
  `before the date, and the quote is at most ${graceWeekdays} weekdays old (Monday to Friday; holidays not known), whatever its fund's status today. ` +
  "total_patrimony in CLP: CLP series as reported, USD series × the observed dollar of the date; EUR series have no rate in " +
  "the data and are left out of total_patrimony (counted in unconvertedSeries) but their holders count. Shareholders add up " +
  "each series' holders. Ties by administrator name."

export const agfRankingAnswer = Effect.fn(function* (query: AgfRankingQuery, graceWeekdays: number) {
  yield* notAfterBatch("date", query.date)
  return yield* read((r) => {
    const metric = query.metric
    const ranking = agfTotals(r.db, dateToInt(query.date ?? r.batchDate), graceWeekdays)
    return {
      data: rankBy(ranking.totals, metric).map((t) => ({
        id: String(t.providerId),
        type: "agf_ranking" as const,
        attributes: {
          administrator: t.administrator,
          total_patrimony: t.totalPatrimony,
          total_shareholders: t.totalShareholders,
          fund_count: t.fundCount,
          rank: t.rank,
        },
      })),
      meta: {
        batch_id: batchIdOfFile(r.path),
        date: isoOrNull(ranking.date),
        metric,
        currency: "CLP" as const,
        usdClp: ranking.usdClp,
        unconvertedSeries: ranking.unconvertedSeries,
        methodology: rankingMethodology(graceWeekdays),
      },
    }
  })
})

const unknownAdministrator = (name: string) =>
  new InvalidParameter({
    parameter: "administrator",
    message: `invalid query parameter administrator: no administrator named ${JSON.stringify(name)} (use the names /api/agf_stats/ranking shows)`,
  })

export const agfEvolutionAnswer = Effect.fn(function* (query: AgfEvolutionQuery) {
  const byName = yield* read((r) => administratorsByName(r.db))
  const chosen: Administrator[] = []
  for (const name of query.administrator) {
    const found = byName.get(name.trim().toLowerCase())
    if (found === undefined) return yield* unknownAdministrator(name)
    chosen.push(...found)
  }
  return yield* read((r) => {
    const metric = query.metric
    return {
      data: evolution(r.db, chosen, metric, query.from_month ?? "0000-00", query.to_month ?? "9999-99"),
      meta: {
        batch_id: batchIdOfFile(r.path),
        metric,
        administrators: [...new Set(chosen.map((a) => a.name))],
        from_month: query.from_month ?? null,
        to_month: query.to_month ?? null,
        currency: metric === "patrimony" ? "CLP" : null,
        through_date: r.batchDate,
        methodology:
          "Each series' last quote of the month; the batch's own month is partial (its last quotes up to through_date). " +
          "Otherwise as /api/agf_stats/ranking.",
      },
    }
  })
})

const monthKey = (end: number) => toIsoDate(end).slice(0, 7)

export const tacChangesAnswer = Effect.fn(function* (query: TacChangesQuery) {
  const closedEnd = lastClosedMonthEnd(dateToInt(yield* read((r) => r.batchDate)))
  if (query.date !== undefined && endOfMonth(dateToInt(query.date)) > closedEnd) {
    return yield* new InvalidParameter({
      parameter: "date",
      message: `invalid query parameter date: ${query.date.slice(0, 7)} is not a closed month (last closed: ${monthKey(closedEnd)})`,
    })
  }
  return yield* read((r) => {
    let monthEnd: number
    if (query.date !== undefined) {
      monthEnd = endOfMonth(dateToInt(query.date))
    } else {
      const last = lastTacMonth(r.db, monthKey(closedEnd))
      monthEnd = last === null ? closedEnd : endOfMonth(dateToInt(`${last}-01`))
    }
    const previousEnd = endOfMonth(shiftMonths(monthEnd - (monthEnd % 100) + 1, -1))
    const direction = query.direction
    const limit = query.limit
    const category = query.category
    const result = tacChanges(r.db, { month: monthKey(monthEnd), previousMonth: monthKey(previousEnd), monthEnd, direction, limit, category })
    return {
      data: result.data,
      meta: {
        batch_id: batchIdOfFile(r.path),
        date: toIsoDate(monthEnd),
        previousDate: toIsoDate(previousEnd),
        currentMonthKey: monthKey(monthEnd).replace("-", ""),
        previousMonthKey: monthKey(previousEnd).replace("-", ""),
        direction,
        limit,
        category: category ?? null,
        total: result.total,
      },
    }
  })
})
