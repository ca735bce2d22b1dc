/**
 * The market answers that take no per-caller parameter, computed once per batch and stored as
 * ready bytes with a gzip copy: /api/all-funds (mutual funds, the batch's own date), the
 * benchmark catalog and the latest market summary; plus the all-funds rows in answer order, so
 * that filtered requests at the batch's date only select rows. Runs after the family indices.
 */
import type Database from "better-sqlite3"
import { gzipSync } from "node:zlib"
import { dateToInt } from "../../schemas/Dates.ts"
import { allFundsJson } from "../../snapshots/readers/MarketAllFunds.ts"
import { benchmarkCatalog } from "../../snapshots/readers/MarketBenchmarks.ts"
import { marketDates } from "../../snapshots/readers/MarketDates.ts"
import { liveMutualFundPart } from "../../snapshots/readers/MarketMutualFunds.ts"
import { marketSummary } from "../../snapshots/readers/MarketSummary.ts"
import { universe } from "../../snapshots/readers/MarketUniverse.ts"
import type { Computation } from "./Computation.ts"

/** gzip level 9 with node:zlib's fixed header (no name, mtime 0): the same text gives the same bytes. */
export const gzipJson = (json: string): Buffer => gzipSync(Buffer.from(json, "utf8"), { level: 9 })

export const marketReady: Computation = {
  name: "market_ready",
  run: (db: Database.Database, batchDate: string) => {
    const batch = dateToInt(batchDate)
    const insertReady = db.prepare("INSERT INTO market_ready (name, json, gzip) VALUES (?, ?, ?)")
    const ready = (name: string, json: string) => insertReady.run(name, json, gzipJson(json))
    ready("benchmarks", JSON.stringify(benchmarkCatalog(db)))
    const dates = marketDates(db, universe(db, batch), batch)
    if (dates === null) return { ready_answers: 1, all_funds_rows: 0 }
    const part = liveMutualFundPart(db, batch, dates)
    const insertRow = db.prepare("INSERT INTO market_all_funds_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    part.rows.forEach((r, i) => {
      insertRow.run("mutual_fund", i, r.serieId, r.category, r.familySlug, r.article107Status, r.providerId, r.json)
    })
    ready("all-funds/mutual_fund", allFundsJson("mutual_fund", [part]))
    ready("market-summary", JSON.stringify(marketSummary(db, batch, dates, dates)))
    return { ready_answers: 3, all_funds_rows: part.rows.length }
  },
}
