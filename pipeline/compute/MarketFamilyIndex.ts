/**
 * Family indices (base 100 per family and AFM currency) over every series AFM classifies, whole
 * history, and each family's size in CLP on its last date (the index route's default currency).
 */
import type Database from "better-sqlite3"
import { usdOn, toClp } from "../../snapshots/readers/MarketFx.ts"
import { IndexAccumulator } from "../../snapshots/readers/MarketIndexMath.ts"
import { round10 } from "../../snapshots/readers/MarketRows.ts"
import type { Computation } from "./Computation.ts"

interface Classified {
  asset_id: number
  family_slug: string
  afm_currency: string
  currency: string | null
}

type Quote = [date: number, price: number, patrimony: number | null]

export const marketFamilyIndex: Computation = {
  name: "market_family_index",
  run: (db: Database.Database) => {
    const classified = db
      .prepare(
        `SELECT c.asset_id, c.family_slug, c.currency AS afm_currency, s.currency FROM afm_categories c
         JOIN series s ON s.asset_id = c.asset_id ORDER BY c.family_slug, c.currency, c.asset_id`,
      )
      .all() as Classified[]
    const quotesOf = db.prepare("SELECT date, price, patrimony FROM quotas WHERE asset_id = ? ORDER BY date").raw(true)
    const insertPoint = db.prepare("INSERT INTO market_family_index VALUES (?, ?, ?, ?, ?, ?)")
    const insertCurrency = db.prepare("INSERT INTO market_family_currencies VALUES (?, ?, ?, ?, ?)")
    let points = 0
    let families = 0
    for (let i = 0; i < classified.length; ) {
      const { family_slug: slug, afm_currency: currency } = classified[i]!
      const index = new IndexAccumulator()
      // patrimony on each series' last date, to size the family on the index's last date
      const lastOf: Array<{ date: number; patrimony: number | null; currency: string | null }> = []
      for (; i < classified.length && classified[i]!.family_slug === slug && classified[i]!.afm_currency === currency; i++) {
        const c = classified[i]!
        const quotes = quotesOf.all(c.asset_id) as Quote[]
        if (quotes.length === 0) continue
        index.add(
          quotes.map((q) => q[0]),
          quotes.map((q) => q[1]),
          quotes.map((q) => q[2]),
        )
        const last = quotes.at(-1)!
        lastOf.push({ date: last[0], patrimony: last[2], currency: c.currency })
      }
      const series = index.points()
      if (series.length === 0) continue
      // stored rounded to ten decimals (binary noise such as 107.10000000000001); chained unrounded
      for (const p of series) {
        insertPoint.run(slug, currency, p.date, round10(p.value), p.change === null ? null : round10(p.change), p.seriesCount)
      }
      const lastDate = series.at(-1)!.date
      const usd = usdOn(db, lastDate)
      let clp: number | null = null
      for (const l of lastOf) {
        if (l.date !== lastDate) continue
        const x = toClp(l.patrimony, l.currency, usd)
        if (x !== null) clp = (clp ?? 0) + x
      }
      insertCurrency.run(slug, currency, series[0]!.date, lastDate, clp)
      points += series.length
      families++
    }
    return { family_currencies: families, index_points: points }
  },
}
