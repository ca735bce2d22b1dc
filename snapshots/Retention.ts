/**
 * Which snapshot files to keep: the published one, the last `days` batch dates, and the last
 * batch of every month. A removed snapshot's Parquet folder goes with it. Manifests are kept
 * forever; a removed day is rebuilt on demand by `pipeline reproduce --date D --restore`.
 */
import { readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { readCurrent } from "./Pointer.ts"

const SNAPSHOT = /^(\d{4}-\d{2}-\d{2})-[0-9a-f]{16}\.sqlite$/

/** The snapshot files retention removes from `dir` (none of them is CURRENT). */
export const filesToRemove = (files: ReadonlyArray<string>, current: string | null, days: number): string[] => {
  const dated = files
    .map((f) => ({ f, date: SNAPSHOT.exec(f)?.[1] }))
    .filter((x): x is { f: string; date: string } => x.date !== undefined)
  const dates = [...new Set(dated.map((x) => x.date))].sort()
  const keep = new Set(dates.slice(-days))
  const lastOfMonth = new Map<string, string>()
  for (const d of dates) lastOfMonth.set(d.slice(0, 7), d)
  for (const d of lastOfMonth.values()) keep.add(d)
  return dated.filter((x) => x.f !== current && !keep.has(x.date)).map((x) => x.f)
}

export const applyRetention = (dir: string, days: number): string[] => {
  const removed = filesToRemove(readdirSync(dir), readCurrent(dir), days)
  for (const f of removed) {
    // the Parquet files first: a folder left by a crash between the two would outlive its snapshot
    rmSync(join(dir, f.replace(/\.sqlite$/, ".parquet")), { recursive: true, force: true })
    rmSync(join(dir, f), { force: true })
  }
  return removed
}
