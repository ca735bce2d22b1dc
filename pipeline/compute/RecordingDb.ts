/**
 * A database whose INSERT statements are recorded instead of run (every other statement runs on
 * the real connection, opened read-only: any other write fails there): how a computation runs
 * beside the build in a worker thread.
 */
import type Database from "better-sqlite3"

/** One INSERT statement and the arguments of each of its runs, in the order they ran. */
export interface RecordedInsert {
  readonly sql: string
  readonly runs: Array<ReadonlyArray<unknown>>
}

export const recordingInserts = (db: Database.Database, into: RecordedInsert[]): Database.Database =>
  new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          if (!/^\s*INSERT\b/i.test(sql)) return target.prepare(sql)
          const recorded: RecordedInsert = { sql, runs: [] }
          into.push(recorded)
          return {
            run: (...args: unknown[]) => {
              recorded.runs.push(args.length === 1 && Array.isArray(args[0]) ? args[0] : args)
              return { changes: 1, lastInsertRowid: 0 }
            },
          }
        }
      }
      const value = Reflect.get(target, property)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
