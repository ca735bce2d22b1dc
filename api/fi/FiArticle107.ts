/** The article 107 declaration of a fund by RUN (`article107` is per RUN, FM and FI alike), for the FI detail. */
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { prepared } from "../../snapshots/SnapshotMemo.ts"
import type { Article107Table } from "../../snapshots/tables/FmExtras.ts"

/** The statement is prepared once per snapshot (its memo). */
export const article107Of = (reader: SnapshotReader, run: number): Article107Table | undefined =>
  prepared(reader.db, "SELECT * FROM article107 WHERE run = ?").get(run) as Article107Table | undefined
