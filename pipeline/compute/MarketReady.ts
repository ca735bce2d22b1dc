/**
 * The market answers that take no per-caller parameter, computed once per batch and stored as
 * ready bytes with a gzip copy: /api/all-funds for each `vehicle` (mutual_fund, and when the batch
 * has FI/ETF data also etf, investment_fund and all; the batch's own date, no filter), the
 * benchmark catalog and the latest market summary; plus the mutual-fund all-funds rows in answer
 * order, so that filtered requests at the batch's date only select rows. The FI/ETF rows come from
 * the API's own reader (snapshots/readers/FiAllFunds.ts) run on the file being built. Without FI
 * data no FI answer is stored: the route then answers 503 `fi_unavailable` as it does live.
 * Runs after the family indices.
 */

import { gzipSync } from "node:zlib"
import type Database from "better-sqlite3"
import { dateToInt } from "../../schemas/Dates.ts"
import { fiVehiclePart } from "../../snapshots/readers/FiAllFunds.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { allFundsJson } from "../../snapshots/readers/MarketAllFunds.ts"
import { benchmarkCatalog } from "../../snapshots/readers/MarketBenchmarks.ts"
import { marketDates } from "../../snapshots/readers/MarketDates.ts"
import { liveMutualFundPart } from "../../snapshots/readers/MarketMutualFunds.ts"
import { READY_GRACE_WEEKDAYS } from "../../snapshots/readers/MarketReady.ts"
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
    let answers = 1
    // the universe of the default grace: an API server with another FDS_SERIES_GRACE_DAYS renders these live
    const grace = READY_GRACE_WEEKDAYS
    const dates = marketDates(db, universe(db, batch, grace), batch)
    const part = dates === null ? null : liveMutualFundPart(db, batch, grace, dates)
    if (dates !== null && part !== null) {
      const insertRow = db.prepare("INSERT INTO market_all_funds_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      part.rows.forEach((r, i) => {
        insertRow.run("mutual_fund", i, r.serieId, r.category, r.familySlug, r.article107Status, r.providerId, r.json)
      })
      ready("all-funds/mutual_fund", allFundsJson("mutual_fund", [part]))
      ready("market-summary", JSON.stringify(marketSummary(db, batch, grace, dates, dates)))
      answers += 2
    }
    const snapshot = { db, batchDate }
    if (fiCatalog(snapshot).availability.available) {
      const etf = fiVehiclePart(snapshot, "etf", null, {})
      const investmentFund = fiVehiclePart(snapshot, "investment_fund", null, {})
      ready("all-funds/etf", allFundsJson("etf", [etf]))
      ready("all-funds/investment_fund", allFundsJson("investment_fund", [investmentFund]))
      answers += 2
      if (part !== null) {
        ready("all-funds/all", allFundsJson("all", [part, etf, investmentFund]))
        answers += 1
      }
    }
    return { ready_answers: answers, all_funds_rows: part?.rows.length ?? 0 }
  },
}
