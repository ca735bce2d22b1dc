/**
 * The content hash of a snapshot: SHA-256 over a canonical dump of its tables (each table's
 * name, then its rows in primary-key order as JSON arrays, one per line). It depends on the
 * data only, not on SQLite's file layout, so it survives a SQLite upgrade and means "same data".
 */
import type Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { TABLES } from "./Tables.ts"

export const contentHash = (db: Database.Database): string => {
  const hash = createHash("sha256")
  for (const table of TABLES) {
    hash.update(`#${table.name}\n`)
    if (table.partition === undefined) {
      let buffer = ""
      for (const row of db.prepare(`SELECT * FROM ${table.name} ORDER BY ${table.orderBy}`).raw(true).iterate()) {
        buffer += JSON.stringify(row) + "\n"
        if (buffer.length > 1 << 20) {
          hash.update(buffer)
          buffer = ""
        }
      }
      hash.update(buffer)
      continue
    }
    const keys = db.prepare(`SELECT DISTINCT ${table.partition} FROM ${table.name} ORDER BY 1`).pluck().all()
    const rowsOf = db
      .prepare(`SELECT * FROM ${table.name} WHERE ${table.partition} = ? ORDER BY ${table.orderBy}`)
      .raw(true)
    for (const key of keys) {
      let buffer = ""
      for (const row of rowsOf.all(key)) buffer += JSON.stringify(row) + "\n"
      hash.update(buffer)
    }
  }
  return hash.digest("hex")
}

export const rowCounts = (db: Database.Database): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const table of TABLES) {
    counts[table.name] = (db.prepare(`SELECT count(*) AS n FROM ${table.name}`).get() as { n: number }).n
  }
  return counts
}
