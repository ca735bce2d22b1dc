/**
 * How an increment stages into its copy of the previous snapshot: what a cold build writes into an
 * empty file, an increment writes over last batch's rows. Before staging, the quota rows from
 * `base.from` on are deleted (the merge writes them again) and the core tables are emptied (the
 * core is staged in every build); a table is emptied before this build's first rows of it; a table
 * cut by month is updated from a date instead (`deleteFrom`), once, and only if not rewritten.
 */
import { type SnapshotDatabase, TABLES } from "../../snapshots/Tables.ts"
import type { SnapshotWriter } from "../../snapshots/Writer.ts"
import type { StageSink } from "../Stage.ts"
import type { IncrementBase } from "../datasets/IncrementBase.ts"

/** The core tables, last first (a table's foreign keys name the one after it here: series → funds → administrators). */
const CORE_TABLES = ["series", "funds", "administrators"] as const satisfies ReadonlyArray<keyof SnapshotDatabase>

/** `sink` (the cold build's writes into `writer`) made to write over the previous snapshot's rows. */
export const incrementSink = <S extends StageSink>(writer: SnapshotWriter, base: IncrementBase, sink: S): S => {
  writer.deleteQuotasFrom(
    base.series.filter((s) => s.last_date >= base.from).map((s) => s.asset_id),
    base.from,
  )
  const cleared = new Set<string>()
  for (const table of CORE_TABLES) {
    writer.clearTable(table)
    cleared.add(table)
  }
  return {
    ...sink,
    rows: (table, rows) => {
      if (!cleared.has(table)) {
        writer.clearTable(table)
        cleared.add(table)
      }
      sink.rows(table, rows)
    },
    deleteFrom: (table, from) => {
      const column = TABLES.find((t) => t.name === table)?.months
      if (column === undefined || cleared.has(table)) throw new Error(`${table} cannot be updated from a date here`)
      cleared.add(table)
      sink.deleteFrom(table, from)
    },
  }
}
