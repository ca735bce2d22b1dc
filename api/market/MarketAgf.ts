/**
 * Administrator statistics (FM only). Ranking at a date D (the last quote date on or before the
 * requested one, over every series): each series counts with its last quote on or before D when
 * it is active at D (compute/SeriesActivity.ts: its fund not ended in the registry by D, that quote
 * within the grace of weekdays), whatever the fund's status today. Patrimony is in CLP
 * (USD × the observed dollar of D; EUR left out and counted in `unconvertedSeries`); shareholders
 * add up each series' holders (one person in two series counts twice, as CMF reports them).
 */
import type Database from "better-sqlite3"
import { addDays, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { seriesActive } from "../../snapshots/compute/SeriesActivity.ts"
import { memo, memoLru, prepared } from "../../snapshots/readers/MarketDb.ts"
import { toClp, usdOn } from "../../snapshots/readers/MarketFx.ts"

export type AgfMetric = "patrimony" | "shareholders"

export interface AgfTotals {
  readonly providerId: number
  readonly administrator: string
  readonly totalPatrimony: number
  readonly totalShareholders: number
  readonly fundCount: number
}

interface SeriesRow {
  fund_end_date: string | null
  asset_id: number
  concept_id: number
  provider_id: number
  currency: string | null
  first_date: number
  last_date: number
  agf: string
}

const allSeries = (db: Database.Database): ReadonlyArray<SeriesRow> =>
  memo(db, "agf:series", () =>
    prepared(
      db,
      `SELECT f.end_date AS fund_end_date, s.asset_id, s.concept_id, f.provider_id, s.currency, s.first_date, s.last_date, a.name AS agf
       FROM series s JOIN funds f ON f.concept_id = s.concept_id JOIN administrators a ON a.provider_id = f.provider_id
       ORDER BY s.asset_id`,
    ).all() as SeriesRow[],
  )

const lastOnOrBefore = (db: Database.Database, s: SeriesRow, cutoff: number) =>
  s.last_date <= cutoff
    ? (prepared(db, "SELECT date, patrimony, holders FROM quotas WHERE asset_id = ? AND date = ?").get(s.asset_id, s.last_date) as Quote)
    : (prepared(db, "SELECT date, patrimony, holders FROM quotas WHERE asset_id = ? AND date <= ? ORDER BY date DESC LIMIT 1").get(
        s.asset_id,
        cutoff,
      ) as Quote | undefined)

interface Quote {
  date: number
  patrimony: number | null
  holders: number | null
}

export interface AgfRanking {
  /** YYYYMMDD, null when nothing is quoted on or before the cutoff. */
  readonly date: number | null
  readonly usdClp: number | null
  readonly unconvertedSeries: number
  readonly totals: ReadonlyArray<AgfTotals>
}

/** Totals per administrator at the market date on or before `cutoff` (memoised per snapshot, date and grace). */
export const agfTotals = (db: Database.Database, cutoff: number, graceWeekdays: number): AgfRanking =>
  memoLru(db, "agfTotals", `${cutoff}:${graceWeekdays}`, 64, () => {
    const series = allSeries(db).filter((s) => s.first_date <= cutoff && s.last_date >= addDays(cutoff, -366))
    const quotes = series.map((s) => [s, lastOnOrBefore(db, s, cutoff)] as const)
    let date = 0
    for (const [, q] of quotes) if (q !== undefined && q.date > date) date = q.date
    if (date === 0) return { date: null, usdClp: null, unconvertedSeries: 0, totals: [] }
    const usdClp = usdOn(db, date)
    const by = new Map<number, { administrator: string; patrimony: number; holders: number; funds: Set<number> }>()
    let unconverted = 0
    for (const [s, q] of quotes) {
      if (q === undefined || !seriesActive({ fundEndDate: s.fund_end_date, lastDate: q.date, batchDate: date, graceWeekdays })) continue
      let t = by.get(s.provider_id)
      if (t === undefined) {
        t = { administrator: s.agf, patrimony: 0, holders: 0, funds: new Set() }
        by.set(s.provider_id, t)
      }
      const clp = toClp(q.patrimony, s.currency, usdClp)
      if (clp !== null) t.patrimony += clp
      else if (q.patrimony !== null) unconverted++
      t.holders += q.holders ?? 0
      t.funds.add(s.concept_id)
    }
    const totals = [...by.entries()].map(([providerId, t]) => ({
      providerId,
      administrator: t.administrator,
      totalPatrimony: t.patrimony,
      totalShareholders: t.holders,
      fundCount: t.funds.size,
    }))
    return { date, usdClp, unconvertedSeries: unconverted, totals }
  })

/** Ranked by the metric (largest first), ties by administrator name; rank 1 is the largest. */
const byName = (a: AgfTotals, b: AgfTotals) => (a.administrator < b.administrator ? -1 : a.administrator > b.administrator ? 1 : a.providerId - b.providerId)

export const rankBy = (totals: ReadonlyArray<AgfTotals>, metric: AgfMetric) =>
  [...totals]
    .sort((a, b) =>
      metric === "patrimony"
        ? b.totalPatrimony - a.totalPatrimony || byName(a, b)
        : b.totalShareholders - a.totalShareholders || byName(a, b),
    )
    .map((t, i) => ({ ...t, rank: i + 1 }))

export const isoOrNull = (d: number | null): string | null => (d === null ? null : toIsoDate(d))
