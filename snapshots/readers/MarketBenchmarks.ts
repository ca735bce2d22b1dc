/**
 * Benchmarks: the curated catalog (at most one per RAR family) and each symbol's raw closes in
 * its native currency (USD or CLP), never converted and never turned into returns.
 */
import type Database from "better-sqlite3"
import { toIsoDate } from "../compute/Calendar.ts"
import { prepared } from "./MarketDb.ts"

export interface BenchmarkRow {
  family_slug: string
  family_rar: string
  symbol: string
  index_name: string
  instrument_name: string
  native_currency: string
  asset_class: string
}

export const benchmarkOf = (db: Database.Database, familySlug: string): BenchmarkRow | undefined =>
  prepared(db, "SELECT * FROM benchmarks WHERE family_slug = ?").get(familySlug) as BenchmarkRow | undefined

/** The catalog answer: one resource per benchmark, with the dates its prices cover. */
export const benchmarkCatalog = (db: Database.Database) => {
  const rows = prepared(db, "SELECT * FROM benchmarks ORDER BY family_slug").all() as BenchmarkRow[]
  const range = prepared(db, "SELECT min(date) AS first, max(date) AS last FROM benchmark_prices WHERE symbol = ?")
  return {
    data: rows.map((b) => {
      const r = range.get(b.symbol) as { first: number | null; last: number | null }
      return {
        id: b.family_slug,
        type: "benchmark" as const,
        attributes: {
          family_rar: b.family_rar,
          family_slug: b.family_slug,
          symbol: b.symbol,
          index_name: b.index_name,
          instrument_name: b.instrument_name,
          native_currency: b.native_currency,
          asset_class: b.asset_class,
          first_price_date: r.first === null ? null : toIsoDate(r.first),
          last_price_date: r.last === null ? null : toIsoDate(r.last),
        },
      }
    }),
  }
}

/** [date YYYYMMDD, close] from `fromDate` (inclusive), ascending. */
export const benchmarkCloses = (db: Database.Database, symbol: string, fromDate: number): Array<[number, number]> =>
  prepared(db, "SELECT date, close FROM benchmark_prices WHERE symbol = ? AND date >= ? ORDER BY date")
    .raw(true)
    .all(symbol, fromDate) as Array<[number, number]>
