/** Ready answers stored by pipeline/compute/MarketReady.ts, held in memory per snapshot once read. */
import type Database from "better-sqlite3"
import { memo, prepared } from "./MarketDb.ts"

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
