/**
 * The rows of /api/market/flows: months of every level and days of administrators and families from
 * market_flows (pipeline/compute/MarketFlows.ts); days of a series or a fund from its quota rows,
 * with the same arithmetic (snapshots/compute/Flows.ts). With currency=CLP the currencies of one
 * date are summed into one CLP row.
 */
import type Database from "better-sqlite3"
import type { FlowLevel, FlowPeriod } from "../../schemas/MarketFlows.ts"
import { toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { clpPerUnit, FlowTotals, flowCurrency } from "../../snapshots/compute/Flows.ts"
import { prepared } from "../../snapshots/readers/MarketDb.ts"
import { usdOn } from "../../snapshots/readers/MarketFx.ts"
import type { MarketFlowsTable } from "../../snapshots/tables/MarketComputed.ts"

/** One row as stored: native and CLP sums of one date (YYYYMMDD) and currency. */
type Stored = Omit<MarketFlowsTable, "level" | "entity" | "period">

export interface FlowRowOut {
  readonly date: string
  readonly currency: string
  readonly subscribed: number | null
  readonly redeemed: number | null
  readonly net: number | null
  readonly series_count: number
  readonly series_days: number
  readonly unreported_days: number
  readonly unconverted_days: number
}

/** The series a series or fund entity sums, with their currencies. */
const seriesOf = (db: Database.Database, level: "series" | "fund", entity: number) =>
  prepared(db, `SELECT asset_id, currency FROM series WHERE ${level === "series" ? "asset_id" : "concept_id"} = ? ORDER BY asset_id`).all(
    entity,
  ) as Array<{ asset_id: number; currency: string | null }>

/** A series' or a fund's days from its quotas, [from, to] YYYYMMDD, summed per date and currency in asset-id order. */
const daysFromQuotas = (db: Database.Database, level: "series" | "fund", entity: number, from: number, to: number): Stored[] => {
  const quotes = prepared(
    db,
    "SELECT date, price, units_subscribed, units_redeemed FROM quotas WHERE asset_id = ? AND date >= ? AND date <= ? ORDER BY date",
  ).raw(true)
  const totals = new Map<string, FlowTotals>()
  for (const s of seriesOf(db, level, entity)) {
    const currency = flowCurrency(s.currency)
    for (const [date, price, subscribed, redeemed] of quotes.all(s.asset_id, from, to) as Array<[number, number, number | null, number | null]>) {
      const key = `${date}|${currency}`
      let t = totals.get(key)
      if (t === undefined) {
        t = new FlowTotals()
        totals.set(key, t)
      }
      t.add(s.asset_id, subscribed, redeemed, price, clpPerUnit(currency, currency === "USD" ? usdOn(db, date) : null))
    }
  }
  return [...totals.entries()]
    .map(([key, t]) => {
      const [date, currency] = key.split("|") as [string, string]
      const clp = t.clp()
      return {
        date_ymd: Number(date),
        currency,
        subscribed: t.subscribed,
        redeemed: t.redeemed,
        net: t.net,
        subscribed_clp: clp?.subscribed ?? null,
        redeemed_clp: clp?.redeemed ?? null,
        net_clp: clp?.net ?? null,
        series_count: t.series.size,
        series_days: t.seriesDays,
        unreported_days: t.unreported,
        unconverted_days: t.unconverted,
      }
    })
    .sort((a, b) => a.date_ymd - b.date_ymd || (a.currency < b.currency ? -1 : 1))
}

const stored = (db: Database.Database, level: FlowLevel, entity: string, period: FlowPeriod, from: number, to: number): Stored[] =>
  prepared(
    db,
    `SELECT date_ymd, currency, subscribed, redeemed, net, subscribed_clp, redeemed_clp, net_clp, series_count, series_days,
       unreported_days, unconverted_days
     FROM market_flows WHERE level = ? AND entity = ? AND period = ? AND date_ymd >= ? AND date_ymd <= ? ORDER BY date_ymd, currency`,
  ).all(level, entity, period, from, to) as Stored[]

/** A date's rows in CLP: the converted sums of its currencies (null when none converted), counts added up. */
const inClp = (rows: ReadonlyArray<Stored>): Stored[] => {
  const out: Stored[] = []
  for (const r of rows) {
    let t = out[out.length - 1]
    if (t === undefined || t.date_ymd !== r.date_ymd) {
      t = { ...r, currency: "CLP", subscribed_clp: null, redeemed_clp: null, net_clp: null, series_count: 0, series_days: 0, unreported_days: 0, unconverted_days: 0 }
      out.push(t)
    }
    if (r.net_clp !== null) {
      t.subscribed_clp = (t.subscribed_clp ?? 0) + r.subscribed_clp!
      t.redeemed_clp = (t.redeemed_clp ?? 0) + r.redeemed_clp!
      t.net_clp = (t.net_clp ?? 0) + r.net_clp
    }
    t.series_count += r.series_count
    t.series_days += r.series_days
    t.unreported_days += r.unreported_days
    // a currency without any rate that day is left out whole
    t.unconverted_days += r.net_clp === null ? r.series_days : r.unconverted_days
  }
  return out
}

/**
 * The flows of one entity (`entity`: the id as stored) over [from, to] (YYYYMMDD, a month's rows
 * by their first day), oldest first, in its currencies or in CLP.
 */
export const flowRows = (
  db: Database.Database,
  level: FlowLevel,
  entity: string,
  period: FlowPeriod,
  from: number,
  to: number,
  currency: "native" | "CLP",
): ReadonlyArray<FlowRowOut> => {
  const rows =
    period === "day" && (level === "series" || level === "fund")
      ? daysFromQuotas(db, level, Number(entity), from, to)
      : stored(db, level, entity, period, from, to)
  const chosen = currency === "CLP" ? inClp(rows) : rows
  return chosen.map((r) => {
    const iso = toIsoDate(r.date_ymd)
    const clp = currency === "CLP"
    return {
      date: period === "month" ? iso.slice(0, 7) : iso,
      currency: r.currency,
      subscribed: clp ? r.subscribed_clp : r.subscribed,
      redeemed: clp ? r.redeemed_clp : r.redeemed,
      net: clp ? r.net_clp : r.net,
      series_count: r.series_count,
      series_days: r.series_days,
      unreported_days: r.unreported_days,
      unconverted_days: r.unconverted_days,
    }
  })
}
