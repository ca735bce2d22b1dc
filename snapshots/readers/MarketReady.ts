/** Ready answers stored by pipeline/compute/MarketReady.ts, held in memory per snapshot once read. */
import type Database from "better-sqlite3"
import { DEFAULT_SERIES_GRACE_WEEKDAYS } from "../compute/SeriesActivity.ts"
import { memo, prepared } from "./MarketDb.ts"

/**
 * The grace (weekdays without a value) the pipeline builds the stored answers over the market
 * universe with: the mutual-fund rows of all-funds and the market summary. A server configured
 * with another FDS_SERIES_GRACE_DAYS renders those live instead.
 */
export const READY_GRACE_WEEKDAYS = DEFAULT_SERIES_GRACE_WEEKDAYS

export interface ReadyBytes {
  readonly json: Buffer
  readonly gzip: Buffer
}

/** The stored answer `name`, or null when this snapshot has none (then the route renders it live). */
export const readyAnswer = (db: Database.Database, name: string): ReadyBytes | null =>
  memo(db, `ready:${name}`, () => {
    const row = prepared(db, "SELECT json, gzip FROM market_ready WHERE name = ?").get(name) as
      | { json: string; gzip: Buffer }
      | undefined
    return row === undefined ? null : { json: Buffer.from(row.json, "utf8"), gzip: row.gzip }
  })

/** The stored answer `name` of an answer over the market universe, when it was built with `graceWeekdays`; else null. */
export const readyUniverseAnswer = (db: Database.Database, name: string, graceWeekdays: number): ReadyBytes | null =>
  graceWeekdays === READY_GRACE_WEEKDAYS ? readyAnswer(db, name) : null
