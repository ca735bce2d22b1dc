/**
 * Fund flows (net subscriptions) for /api/market/flows: every series-day of the quotas flows
 * (units subscribed − units redeemed) × VALOR_CUOTA (snapshots/compute/Flows.ts); the series-days
 * are summed per series, fund, administrator and AFM family by month, and per administrator and
 * family by day, each in the series' accounting currency and in CLP (USD × observed dollar of the
 * date). A series' or a fund's days are not stored: the API reads them from the quotas (a fund has
 * a few series; stored, they would be as many rows as the quotas).
 *
 * Incremental: a month's rows depend on the quotas of that month, on the series' funds,
 * administrators, currencies and families, and on the observed dollar up to that month; an
 * increment keeps the months before its own when those are the same, and computes the months from
 * it on (as market_agf_monthly does).
 */
import { createHash } from "node:crypto"
import type Database from "better-sqlite3"
import { clpPerUnit, FlowTotals, flowCurrency } from "../../snapshots/compute/Flows.ts"
import { usdOn } from "../../snapshots/readers/MarketFx.ts"
import type { Computation } from "./Computation.ts"

interface SeriesRow {
  asset_id: number
  concept_id: number
  provider_id: number
  currency: string | null
  family_slug: string | null
}
type Quote = [date: number, price: number, unitsSubscribed: number | null, unitsRedeemed: number | null]

const SERIES = `SELECT s.asset_id, s.concept_id, f.provider_id, s.currency, c.family_slug FROM series s
  JOIN funds f ON f.concept_id = s.concept_id LEFT JOIN afm_categories c ON c.asset_id = s.asset_id`

/** The first day of a YYYYMMDD's month. */
const monthStart = (date: number): number => Math.floor(date / 100) * 100 + 1

// Keys sort as the table's primary key does (SQLite compares TEXT bytewise): NUL separates the parts.
const SEP = "\u0000"

export const marketFlows: Computation = {
  name: "market_flows",
  run: (db: Database.Database, _batchDate, context) => {
    // an increment: the months before `from` are kept
    const from = context?.increment?.from ?? 0
    const series = db.prepare(`${SERIES} ORDER BY s.asset_id`).all() as SeriesRow[]
    const quotesOf = db
      .prepare("SELECT date, price, units_subscribed, units_redeemed FROM quotas WHERE asset_id = ? AND date >= ? ORDER BY date")
      .raw(true)
    const usdCache = new Map<number, number | null>()
    const usd = (date: number) => {
      if (!usdCache.has(date)) usdCache.set(date, usdOn(db, date))
      return usdCache.get(date)!
    }
    const totals = new Map<string, FlowTotals>()
    const totalsOf = (level: string, entity: string, period: string, date: number, currency: string) => {
      const key = [level, entity, period, String(date).padStart(8, "0"), currency].join(SEP)
      let t = totals.get(key)
      if (t === undefined) {
        t = new FlowTotals()
        totals.set(key, t)
      }
      return t
    }
    for (const s of series) {
      const currency = flowCurrency(s.currency)
      for (const [date, price, subscribed, redeemed] of quotesOf.all(s.asset_id, from) as Quote[]) {
        const rate = clpPerUnit(currency, currency === "USD" ? usd(date) : null)
        const month = monthStart(date)
        const add = (t: FlowTotals) => t.add(s.asset_id, subscribed, redeemed, price, rate)
        add(totalsOf("series", String(s.asset_id), "month", month, currency))
        add(totalsOf("fund", String(s.concept_id), "month", month, currency))
        add(totalsOf("administrator", String(s.provider_id), "day", date, currency))
        add(totalsOf("administrator", String(s.provider_id), "month", month, currency))
        if (s.family_slug !== null) {
          add(totalsOf("family", s.family_slug, "day", date, currency))
          add(totalsOf("family", s.family_slug, "month", month, currency))
        }
      }
    }
    const insert = db.prepare("INSERT INTO market_flows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    for (const key of [...totals.keys()].sort()) {
      const t = totals.get(key)!
      const [level, entity, period, date, currency] = key.split(SEP) as [string, string, string, string, string]
      const clp = t.clp()
      insert.run(
        level, entity, period, Number(date), currency, t.subscribed, t.redeemed, t.net,
        clp?.subscribed ?? null, clp?.redeemed ?? null, clp?.net ?? null,
        t.series.size, t.seriesDays, t.unreported, t.unconverted,
      )
    }
    return { flow_rows: db.prepare("SELECT count(*) FROM market_flows").pluck().get() as number }
  },
  incremental: {
    tables: ["market_flows"],
    inputsBefore: (db, from) => {
      const hash = createHash("sha256")
      for (const row of db.prepare(`${SERIES} WHERE s.first_date < ? ORDER BY s.asset_id`).raw(true).iterate(from)) {
        hash.update(`${JSON.stringify(row)}\n`)
      }
      // the dollar of a date before `from` is an observation before it
      const usd = db.prepare("SELECT date, value FROM indicators WHERE indicator = 'USD' AND date < ? ORDER BY date").raw(true)
      for (const row of usd.iterate(from)) hash.update(`${JSON.stringify(row)}\n`)
      return hash.digest("hex")
    },
    canContinue: () => true,
    deleteFrom: (db, from) => void db.prepare("DELETE FROM market_flows WHERE date_ymd >= ?").run(monthStart(from)),
  },
}
