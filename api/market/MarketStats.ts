/**
 * /api/agf_stats/ranking, /api/agf_stats/evolution and /api/reports/tac-changes on the pinned
 * snapshot. Closed month: its last day is on or before the batch date's last complete month end.
 */
import { Effect } from "effect"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { endOfMonth, lastClosedMonthEnd, shiftMonths, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { agfTotals, isoOrNull, rankBy } from "./MarketAgf.ts"
import { administratorsByName, evolution } from "./MarketAgfEvolution.ts"
import { afterBatch } from "./MarketResponses.ts"
import type { AgfEvolutionQuery, AgfRankingQuery, TacChangesQuery } from "./MarketStatsApi.ts"
import { lastTacMonth, tacChanges } from "./MarketTacChanges.ts"

const rankingMethodology = (graceWeekdays: number) =>
  "Each FM series active at the date counts with its last quote on or before it: its fund had no CMF registry end date on or " +
  `before the date, and the quote is at most ${graceWeekdays} weekdays old (Monday to Friday; holidays not known), whatever its fund's status today. ` +
  "total_patrimony in CLP: CLP series as reported, USD series × the observed dollar of the date; EUR series have no rate in " +
  "the data and are left out of total_patrimony (counted in unconvertedSeries) but their holders count. Shareholders add up " +
  "each series' holders. Ties by administrator name."

const fail = <A>(e: InvalidParameter | A): Effect.Effect<A, InvalidParameter> =>
  e instanceof InvalidParameter ? Effect.fail(e) : Effect.succeed(e)

export const agfRankingAnswer = (lease: Lease, query: AgfRankingQuery, graceWeekdays: number) =>
  Effect.flatMap(
    lease.read((r) => {
      if (query.date !== undefined && query.date > r.batchDate) return afterBatch("date", query.date, r.batchDate)
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
          date: isoOrNull(ranking.date),
          metric,
          currency: "CLP" as const,
          usdClp: ranking.usdClp,
          unconvertedSeries: ranking.unconvertedSeries,
          methodology: rankingMethodology(graceWeekdays),
        },
      }
    }),
    fail,
  )

const unknownAdministrator = (name: string) =>
  new InvalidParameter({
    parameter: "administrator",
    message: `invalid query parameter administrator: no administrator named ${JSON.stringify(name)} (use the names /api/agf_stats/ranking shows)`,
  })

export const agfEvolutionAnswer = (
  lease: Lease,
  query: AgfEvolutionQuery,
) =>
  Effect.flatMap(
    lease.read((r) => {
      const byName = administratorsByName(r.db)
      const chosen = []
      for (const name of query.administrator) {
        const found = byName.get(name.trim().toLowerCase())
        if (found === undefined) return unknownAdministrator(name)
        chosen.push(...found)
      }
      const metric = query.metric
      return {
        data: evolution(r.db, chosen, metric, query.from_month ?? "0000-00", query.to_month ?? "9999-99"),
        meta: {
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
    }),
    fail,
  )

const monthKey = (end: number) => toIsoDate(end).slice(0, 7)

export const tacChangesAnswer = (
  lease: Lease,
  query: TacChangesQuery,
) =>
  Effect.flatMap(
    lease.read((r) => {
      const closedEnd = lastClosedMonthEnd(dateToInt(r.batchDate))
      let monthEnd: number
      if (query.date !== undefined) {
        monthEnd = endOfMonth(dateToInt(query.date))
        if (monthEnd > closedEnd) {
          return new InvalidParameter({
            parameter: "date",
            message: `invalid query parameter date: ${query.date.slice(0, 7)} is not a closed month (last closed: ${monthKey(closedEnd)})`,
          })
        }
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
    }),
    fail,
  )
