/**
 * Series that appeared, were removed, renamed, ended or resumed between the two batches. Mutual
 * fund series: by id, a rename (series_aliases of the newer batch: the old id now resolves to the
 * new one) counting as one series_renamed, not a removal and an appearance; "ended" and "resumed"
 * follow the catalog's rule (compute/SeriesActivity.ts) at each batch's own date, so they say when
 * a series' `end_date` on /real_assets went from null to a date or back. FI/ETF series: by id.
 * Series lists are small (a few thousand rows at full size): read whole.
 */
import type Database from "better-sqlite3"
import type { ChangeItem, ChangeVehicle } from "../../schemas/Changes.ts"
import { dateToInt, intToDate } from "../../schemas/Dates.ts"
import { formatRun } from "../../schemas/Ids.ts"
import { seriesActive } from "../compute/SeriesActivity.ts"
import type { BatchPair, Side } from "./BatchPair.ts"

type Lifecycle = Extract<ChangeItem, { type: "series_appeared" | "series_removed" | "series_ended" | "series_resumed" }>
type Renamed = Extract<ChangeItem, { type: "series_renamed" }>

interface FmSeries {
  readonly asset_id: number
  readonly concept_id: number
  readonly run: number
  readonly serie: string
  readonly first_date: number
  readonly last_date: number
  readonly end_date: string | null
}

interface FiSeries {
  readonly serie_id: string
  readonly instrument_id: string
  readonly run: number
  readonly serie: string
  readonly is_etf: number
}

const fmSeries = (db: Database.Database, side: Side): Map<number, FmSeries> =>
  new Map(
    (
      db
        .prepare(
          `SELECT s.asset_id, s.concept_id, s.run, s.serie, s.first_date, s.last_date, f.end_date
           FROM ${side}.series s JOIN ${side}.funds f ON f.concept_id = s.concept_id`,
        )
        .all() as FmSeries[]
    ).map((s) => [s.asset_id, s]),
  )

const fiSeries = (db: Database.Database, side: Side): Map<string, FiSeries> =>
  new Map(
    (
      db
        .prepare(
          `SELECT s.serie_id, s.instrument_id, s.run, s.serie, i.is_etf
           FROM ${side}.fi_series s JOIN ${side}.fi_instruments i ON i.instrument_id = s.instrument_id`,
        )
        .all() as FiSeries[]
    ).map((s) => [s.serie_id, s]),
  )

const fmItem = (type: Lifecycle["type"], s: FmSeries): Lifecycle => ({
  id: `${type}:${s.asset_id}`,
  type,
  attributes: {
    vehicle: "mutual_fund",
    asset_id: String(s.asset_id),
    fund_id: String(s.concept_id),
    run: formatRun(s.run),
    serie: s.serie,
    first_date: intToDate(s.first_date),
    last_date: intToDate(s.last_date),
  },
})

/** The mutual fund series' changes, then the FI/ETF series', in no particular order. */
export const seriesChanges = (pair: BatchPair, graceWeekdays: number): Array<Lifecycle | Renamed> => {
  const db = pair.db
  const items: Array<Lifecycle | Renamed> = []
  const before = fmSeries(db, "prior")
  const after = fmSeries(db, "main")
  // Renames the newer batch knows of, whose old id the older batch still had as a series.
  const renamedTo = new Map<number, number>()
  const previousOf = new Map<number, number>()
  for (const a of db.prepare("SELECT alias_id, asset_id, run, previous_serie, current_serie, first_current_date FROM main.series_aliases").all() as Array<{
    alias_id: number
    asset_id: number
    run: number
    previous_serie: string
    current_serie: string
    first_current_date: number
  }>) {
    if (!before.has(a.alias_id) || after.has(a.alias_id) || !after.has(a.asset_id)) continue
    renamedTo.set(a.alias_id, a.asset_id)
    previousOf.set(a.asset_id, a.alias_id)
    items.push({
      id: `series_renamed:${a.asset_id}`,
      type: "series_renamed",
      attributes: {
        vehicle: "mutual_fund",
        asset_id: String(a.asset_id),
        previous_asset_id: String(a.alias_id),
        run: formatRun(a.run),
        previous_serie: a.previous_serie,
        current_serie: a.current_serie,
        first_current_date: intToDate(a.first_current_date),
      },
    })
  }
  const fromDate = dateToInt(pair.from.batchDate)
  const toDate = dateToInt(pair.to.batchDate)
  const active = (s: FmSeries, batchDate: number) =>
    seriesActive({ fundEndDate: s.end_date, lastDate: s.last_date, batchDate, graceWeekdays })
  for (const [id, s] of after) {
    const previous = previousOf.get(id)
    const old = before.get(id) ?? (previous === undefined ? undefined : before.get(previous))
    if (old === undefined) {
      items.push(fmItem("series_appeared", s))
      continue
    }
    const then = active(old, fromDate)
    const now = active(s, toDate)
    if (then && !now) items.push(fmItem("series_ended", s))
    if (!then && now) items.push(fmItem("series_resumed", s))
  }
  for (const [id, s] of before) if (!after.has(id) && !renamedTo.has(id)) items.push(fmItem("series_removed", s))
  items.push(...fiLifecycle(pair))
  return items
}

const fiLifecycle = (pair: BatchPair): Lifecycle[] => {
  const db = pair.db
  const before = fiSeries(db, "prior")
  const after = fiSeries(db, "main")
  const span = (side: Side) => db.prepare(`SELECT min(date) AS first, max(date) AS last FROM ${side}.fi_prices WHERE serie_id = ?`)
  const item = (type: "series_appeared" | "series_removed", side: Side, s: FiSeries): Lifecycle => {
    const dates = span(side).get(s.serie_id) as { first: number | null; last: number | null }
    const vehicle: ChangeVehicle = s.is_etf === 1 ? "etf" : "investment_fund"
    return {
      id: `${type}:${s.serie_id}`,
      type,
      attributes: {
        vehicle,
        asset_id: s.serie_id,
        fund_id: s.instrument_id,
        run: formatRun(s.run),
        serie: s.serie,
        first_date: dates.first === null ? null : intToDate(dates.first),
        last_date: dates.last === null ? null : intToDate(dates.last),
      },
    }
  }
  const items: Lifecycle[] = []
  for (const [id, s] of after) if (!before.has(id)) items.push(item("series_appeared", "main", s))
  for (const [id, s] of before) if (!after.has(id)) items.push(item("series_removed", "prior", s))
  return items
}
