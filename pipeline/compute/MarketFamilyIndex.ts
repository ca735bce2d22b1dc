/**
 * Family indices (base 100 per family and AFM currency) over every series AFM classifies, whole
 * history, and each family's size in CLP on its last date (the index route's default currency).
 *
 * Incremental: an index point depends on the quotas up to its date, and on the points before it
 * through the chained value. An increment keeps the points before its month when the classified
 * series are the same, and chains on from the last kept point's value as the previous build
 * computed it (unrounded: the table holds values rounded to ten decimals, so the build keeps each
 * family's value at the end of each recent month in the manifest's `compute_state`).
 */
import { createHash } from "node:crypto"
import type Database from "better-sqlite3"
import { dateToInt } from "../../schemas/Dates.ts"
import { toClp, usdOn } from "../../snapshots/readers/MarketFx.ts"
import { BASE_VALUE, type IndexPoint } from "../../snapshots/readers/MarketIndexMath.ts"
import { round10 } from "../../snapshots/readers/MarketRows.ts"
import type { Computation } from "./Computation.ts"

interface Classified {
  asset_id: number
  family_slug: string
  afm_currency: string
  currency: string | null
}

type Quote = [date: number, price: number, patrimony: number | null]

/**
 * By `<slug>|<currency>`: the unrounded value of the family's last point of each of the last
 * STATE_MONTHS months it has points in, and of its last point, as [date, value], dates ascending.
 */
type FamilyState = Record<string, Array<[number, number]>>

/** Months of month-end values kept: an increment goes back at most MAX_REGION_MONTHS (24), plus room. */
const STATE_MONTHS = 27

const CLASSIFIED = `SELECT c.asset_id, c.family_slug, c.currency AS afm_currency, s.currency FROM afm_categories c
  JOIN series s ON s.asset_id = c.asset_id ORDER BY c.family_slug, c.currency, c.asset_id`

interface Bucket {
  weight: number
  weighted: number
  count: number
}

/**
 * The index arithmetic of snapshots/readers/MarketIndexMath.ts (the API's, which the equivalence
 * tests hold this to), able to start from a kept point: with `base`, the market dates before
 * `from` are left out and the first one from it on chains from `base` (the last market date
 * before `from`, and its unrounded value). Buckets are summed in the order series are added, as
 * IndexAccumulator sums them.
 */
class ChainedIndex {
  private readonly dates = new Set<number>()
  private readonly pairs = new Map<number, Map<number, Bucket>>()

  private readonly from: number
  private readonly base: { readonly date: number; readonly value: number } | null

  constructor(from: number, base: { readonly date: number; readonly value: number } | null) {
    this.from = from
    this.base = base
  }

  add(quotes: ReadonlyArray<Quote>): void {
    for (let i = 0; i < quotes.length; i++) {
      const t = quotes[i]![0]
      if (t >= this.from || this.base === null) this.dates.add(t)
      if (i === 0) continue
      const p0 = quotes[i - 1]![2]
      if (p0 === null || p0 === undefined || !(p0 > 0)) continue
      const t0 = quotes[i - 1]![0]
      let byOpening = this.pairs.get(t)
      if (byOpening === undefined) {
        byOpening = new Map()
        this.pairs.set(t, byOpening)
      }
      let bucket = byOpening.get(t0)
      if (bucket === undefined) {
        bucket = { weight: 0, weighted: 0, count: 0 }
        byOpening.set(t0, bucket)
      }
      bucket.weight += p0
      bucket.weighted += p0 * (quotes[i]![1] / quotes[i - 1]![1] - 1)
      bucket.count++
    }
  }

  points(): IndexPoint[] {
    const dates = [...this.dates].sort((a, b) => a - b)
    const out: IndexPoint[] = []
    let value = this.base?.value ?? BASE_VALUE
    let previous = this.base?.date ?? null
    for (const t of dates) {
      if (previous === null) {
        out.push({ date: t, value, change: null, seriesCount: 0 })
        previous = t
        continue
      }
      const bucket = this.pairs.get(t)?.get(previous)
      previous = t
      if (bucket === undefined || bucket.weight <= 0) {
        out.push({ date: t, value, change: null, seriesCount: 0 })
        continue
      }
      const change = bucket.weighted / bucket.weight
      value *= 1 + change
      out.push({ date: t, value, change, seriesCount: bucket.count })
    }
    return out
  }
}

/** The first day of the month `months` before `date`'s, YYYYMMDD. */
const monthsBefore = (date: number, months: number): number => {
  const k = Math.floor(date / 10000) * 12 + (Math.floor(date / 100) % 100) - 1 - months
  return Math.floor(k / 12) * 10000 + ((k % 12) + 1) * 100 + 1
}

/** The state kept of a family: month-end points of the last STATE_MONTHS months, and the last point. */
const familyState = (kept: ReadonlyArray<[number, number]>, points: ReadonlyArray<IndexPoint>, batch: number): Array<[number, number]> => {
  const all: Array<[number, number]> = [...kept, ...points.map((p): [number, number] => [p.date, p.value])]
  const since = monthsBefore(batch, STATE_MONTHS)
  return all.filter(([date], i) => {
    const next = all[i + 1]
    const last = next === undefined
    return last || (date >= since && Math.floor(next[0] / 100) !== Math.floor(date / 100))
  })
}

/** The kept points' last date before `from` of each family (read before the increment deletes the rest). */
const lastKept = (db: Database.Database, from: number) =>
  db
    .prepare("SELECT family_slug, currency, max(date) AS date FROM market_family_index WHERE date < ? GROUP BY family_slug, currency")
    .all(from) as Array<{ family_slug: string; currency: string; date: number }>

export const marketFamilyIndex: Computation = {
  name: "market_family_index",
  run: (db: Database.Database, batchDate, context) => {
    const increment = context?.increment ?? null
    const from = increment?.from ?? 0
    const state = (increment?.state ?? {}) as FamilyState
    const batch = dateToInt(batchDate)
    const classified = db.prepare(CLASSIFIED).all() as Classified[]
    const quotesOf = db.prepare("SELECT date, price, patrimony FROM quotas WHERE asset_id = ? AND date >= ? ORDER BY date").raw(true)
    const lastBefore = db.prepare("SELECT max(date) FROM quotas WHERE asset_id = ? AND date < ?").pluck()
    const kept = new Map(increment === null ? [] : lastKept(db, from).map((k) => [`${k.family_slug}|${k.currency}`, k.date]))
    const firstKept = db.prepare("SELECT min(date) FROM market_family_index WHERE family_slug = ? AND currency = ?").pluck()
    const insertPoint = db.prepare("INSERT INTO market_family_index VALUES (?, ?, ?, ?, ?, ?)")
    const insertCurrency = db.prepare("INSERT INTO market_family_currencies VALUES (?, ?, ?, ?, ?)")
    const newState: FamilyState = {}
    let points = 0
    let families = 0
    for (let i = 0; i < classified.length; ) {
      const { family_slug: slug, afm_currency: currency } = classified[i]!
      const key = `${slug}|${currency}`
      // an increment continues a family that has points before `from` from the last of them
      const keptDate = kept.get(key)
      const keptState = keptDate === undefined ? [] : (state[key] ?? []).filter(([date]) => date <= keptDate)
      const base = keptDate === undefined ? null : { date: keptDate, value: keptState.at(-1)![1] }
      const index = new ChainedIndex(from, base)
      // patrimony on each series' last date, to size the family on the index's last date
      const lastOf: Array<{ date: number; patrimony: number | null; currency: string | null }> = []
      for (; i < classified.length && classified[i]!.family_slug === slug && classified[i]!.afm_currency === currency; i++) {
        const c = classified[i]!
        // from its last quote before `from`: the pair that opens the increment's first market date
        const start = base === null ? 0 : ((lastBefore.get(c.asset_id, from) as number | null) ?? from)
        const quotes = quotesOf.all(c.asset_id, start) as Quote[]
        if (quotes.length === 0) continue
        index.add(quotes)
        const last = quotes.at(-1)!
        lastOf.push({ date: last[0], patrimony: last[2], currency: c.currency })
      }
      const series = index.points()
      if (series.length === 0 && base === null) continue
      const firstDate = base === null ? series[0]!.date : (firstKept.get(slug, currency) as number)
      // stored rounded to ten decimals (binary noise such as 107.10000000000001); chained unrounded
      for (const p of series) {
        insertPoint.run(slug, currency, p.date, round10(p.value), p.change === null ? null : round10(p.change), p.seriesCount)
      }
      const lastDate = series.at(-1)?.date ?? base!.date
      const usd = usdOn(db, lastDate)
      let clp: number | null = null
      for (const l of lastOf) {
        if (l.date !== lastDate) continue
        const x = toClp(l.patrimony, l.currency, usd)
        if (x !== null) clp = (clp ?? 0) + x
      }
      insertCurrency.run(slug, currency, firstDate, lastDate, clp)
      newState[key] = familyState(keptState, series, batch)
      points += series.length
      families++
    }
    context?.keep(newState)
    const keptPoints = increment === null ? 0 : (db.prepare("SELECT count(*) FROM market_family_index WHERE date < ?").pluck().get(from) as number)
    return { family_currencies: families, index_points: keptPoints + points }
  },
  incremental: {
    tables: ["market_family_index", "market_family_currencies"],
    inputsBefore: (db) => {
      const hash = createHash("sha256")
      // the classified series and their AFM families, in the computation's order (their own currency sizes the families: computed again)
      const rows = db.prepare("SELECT c.asset_id, c.family_slug, c.currency FROM afm_categories c JOIN series s ON s.asset_id = c.asset_id ORDER BY 2, 3, 1").raw(true)
      for (const row of rows.iterate()) hash.update(`${JSON.stringify(row)}\n`)
      return hash.digest("hex")
    },
    // every family with points before `from` needs its last one's unrounded value
    canContinue: (db, from, state) => {
      if (typeof state !== "object" || state === null) return false
      const kept = state as FamilyState
      return lastKept(db, from).every((k) => kept[`${k.family_slug}|${k.currency}`]?.some(([date]) => date === k.date) === true)
    },
    deleteFrom: (db, from) => {
      db.prepare("DELETE FROM market_family_index WHERE date >= ?").run(from)
      db.prepare("DELETE FROM market_family_currencies").run()
    },
  },
}
