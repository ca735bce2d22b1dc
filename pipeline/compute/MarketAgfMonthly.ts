/**
 * Administrators' monthly totals for /api/agf_stats/evolution: for every FM series (current or
 * not), its last quote in each calendar month; per administrator and month, the sum of those
 * quotes' patrimony in CLP (USD × observed dollar of the quote's date; EUR, or USD without a rate,
 * counted as unconverted and left out) and of their holders, with the funds and series counted.
 *
 * Incremental: a month's rows depend on the quotas of that month, on the series' funds,
 * administrators and currencies, and on the observed dollar up to that month; an increment keeps
 * the months before its own when those are the same, and computes the months from it on.
 */
import { createHash } from "node:crypto"
import type Database from "better-sqlite3"
import { toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { toClp, usdOn } from "../../snapshots/readers/MarketFx.ts"
import type { Computation } from "./Computation.ts"

interface SeriesRow {
  asset_id: number
  concept_id: number
  provider_id: number
  currency: string | null
}
type Quote = [date: number, patrimony: number | null, holders: number | null]

interface Totals {
  patrimony: number
  shareholders: number
  funds: Set<number>
  series: number
  unconverted: number
}

/** YYYY-MM of a YYYYMMDD. */
const monthOf = (date: number): string => toIsoDate(date).slice(0, 7)

export const marketAgfMonthly: Computation = {
  name: "market_agf_monthly",
  run: (db: Database.Database, _batchDate, context) => {
    // an increment: the months before `from` are kept
    const from = context?.increment?.from ?? 0
    const series = db
      .prepare(
        `SELECT s.asset_id, s.concept_id, f.provider_id, s.currency FROM series s
         JOIN funds f ON f.concept_id = s.concept_id ORDER BY s.asset_id`,
      )
      .all() as SeriesRow[]
    const quotesOf = db.prepare("SELECT date, patrimony, holders FROM quotas WHERE asset_id = ? AND date >= ? ORDER BY date").raw(true)
    const usdCache = new Map<number, number | null>()
    const usd = (date: number) => {
      if (!usdCache.has(date)) usdCache.set(date, usdOn(db, date))
      return usdCache.get(date)!
    }
    const totals = new Map<string, Totals>()
    const add = (s: SeriesRow, q: Quote) => {
      const key = `${String(s.provider_id).padStart(10, "0")}|${monthOf(q[0])}`
      let t = totals.get(key)
      if (t === undefined) {
        t = { patrimony: 0, shareholders: 0, funds: new Set(), series: 0, unconverted: 0 }
        totals.set(key, t)
      }
      const clp = toClp(q[1], s.currency, usd(q[0]))
      if (clp !== null) t.patrimony += clp
      else if (q[1] !== null) t.unconverted++
      t.shareholders += q[2] ?? 0
      t.funds.add(s.concept_id)
      t.series++
    }
    for (const s of series) {
      const quotes = quotesOf.all(s.asset_id, from) as Quote[]
      for (let i = 0; i < quotes.length; i++) {
        const q = quotes[i]!
        const next = quotes[i + 1]
        // the last quote of its month: the next one is in another month (or there is none)
        if (next === undefined || Math.floor(next[0] / 100) !== Math.floor(q[0] / 100)) add(s, q)
      }
    }
    const insert = db.prepare("INSERT INTO market_agf_monthly VALUES (?, ?, ?, ?, ?, ?, ?)")
    for (const key of [...totals.keys()].sort()) {
      const t = totals.get(key)!
      const [provider, month] = key.split("|") as [string, string]
      insert.run(Number(provider), month, t.patrimony, t.shareholders, t.funds.size, t.series, t.unconverted)
    }
    const kept = from === 0 ? 0 : (db.prepare("SELECT count(*) FROM market_agf_monthly").pluck().get() as number)
    return { agf_months: kept + totals.size }
  },
  incremental: {
    tables: ["market_agf_monthly"],
    inputsBefore: (db, from) => {
      const hash = createHash("sha256")
      const series = db
        .prepare(
          `SELECT s.asset_id, s.concept_id, f.provider_id, s.currency FROM series s
           JOIN funds f ON f.concept_id = s.concept_id WHERE s.first_date < ? ORDER BY s.asset_id`,
        )
        .raw(true)
      for (const row of series.iterate(from)) hash.update(`${JSON.stringify(row)}\n`)
      // the dollar of a date before `from` is an observation before it
      const usd = db.prepare("SELECT date, value FROM indicators WHERE indicator = 'USD' AND date < ? ORDER BY date").raw(true)
      for (const row of usd.iterate(from)) hash.update(`${JSON.stringify(row)}\n`)
      return hash.digest("hex")
    },
    canContinue: () => true,
    deleteFrom: (db, from) => void db.prepare("DELETE FROM market_agf_monthly WHERE month >= ?").run(monthOf(from)),
  },
}
