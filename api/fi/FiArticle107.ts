/** The article 107 declaration of a fund by RUN (`article107` is per RUN, FM and FI alike), for the FI detail. */
import type Database from "better-sqlite3"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import type { Article107Table } from "../../snapshots/tables/FmExtras.ts"

const statements = new WeakMap<SnapshotReader, Database.Statement>()

export const article107Of = (reader: SnapshotReader, run: number): Article107Table | undefined => {
  let stmt = statements.get(reader)
  if (stmt === undefined) {
    stmt = reader.db.prepare("SELECT * FROM article107 WHERE run = ?")
    statements.set(reader, stmt)
  }
  return stmt.get(run) as Article107Table | undefined
}
