/**
 * A series as the returns routes see it: its current row whichever id named it (a renamed series'
 * previous id resolves to the current one, whose continuous history the snapshot stores), its
 * renames, its label at a date, its CMF spheres and its TAC. Statements prepared once per snapshot (../SnapshotMemo.ts).
 */
import type Database from "better-sqlite3"
import { memoOf } from "../SnapshotMemo.ts"
import type { SeriesTable } from "../Tables.ts"
import type { SeriesAliasesTable, TacTable } from "../tables/FmExtras.ts"
import type { CmfSpheresTable } from "../tables/Market.ts"

/** A series found by id: the current row and its renames, oldest first. */
export interface ResolvedSeries {
  readonly series: SeriesTable
  readonly renames: ReadonlyArray<SeriesAliasesTable>
}

interface Statements {
  readonly series: Database.Statement
  readonly alias: Database.Statement
  readonly renames: Database.Statement
  readonly spheres: Database.Statement
  readonly tacLatest: Database.Statement
  readonly tacOnOrBefore: Database.Statement
  readonly tacHistory: Database.Statement
}
const statements = (db: Database.Database): Statements =>
  memoOf(db).memo("returns-series:statements", () => ({
    series: db.prepare("SELECT * FROM series WHERE asset_id = ?"),
    alias: db.prepare("SELECT asset_id FROM series_aliases WHERE alias_id = ?").pluck(),
    renames: db.prepare("SELECT * FROM series_aliases WHERE asset_id = ? ORDER BY first_current_date, alias_id"),
    spheres: db.prepare("SELECT * FROM cmf_spheres WHERE asset_id = ?"),
    tacLatest: db.prepare("SELECT * FROM tac WHERE asset_id = ? ORDER BY month DESC LIMIT 1"),
    tacOnOrBefore: db.prepare("SELECT * FROM tac WHERE asset_id = ? AND month <= ? ORDER BY month DESC LIMIT 1"),
    tacHistory: db.prepare("SELECT * FROM tac WHERE asset_id = ? AND month >= ? ORDER BY month"),
  }))

/** The current asset_id of a series id (itself, or what a previous id was renamed to); null when unknown. */
export const resolveAssetId = (db: Database.Database, id: number): number | null => {
  const s = statements(db)
  if (s.series.get(id) !== undefined) return id
  return (s.alias.get(id) as number | undefined) ?? null
}

/** The series an id names, with its renames; null when the snapshot has no such series. */
export const resolveSeries = (db: Database.Database, id: number): ResolvedSeries | null => {
  const s = statements(db)
  const current = resolveAssetId(db, id)
  if (current === null) return null
  const series = s.series.get(current) as SeriesTable | undefined
  if (series === undefined) return null
  return { series, renames: s.renames.all(current) as SeriesAliasesTable[] }
}

/**
 * The label the series carried on `date` (YYYYMMDD): before its first rename, that rename's
 * previous label; after a rename, its new label (the current label when there was none).
 */
export const labelAt = (resolved: ResolvedSeries, date: number): string => {
  const first = resolved.renames[0]
  if (first !== undefined && date < first.first_current_date) return first.previous_serie
  let label = resolved.series.serie
  for (const r of resolved.renames) if (r.first_current_date <= date) label = r.current_serie
  return label
}

/** The CMF spheres row of the series, if the snapshot has one. */
export const spheresOf = (db: Database.Database, assetId: number): CmfSpheresTable | undefined =>
  statements(db).spheres.get(assetId) as CmfSpheresTable | undefined

/** The latest month's TAC of the series, if any. */
export const latestTac = (db: Database.Database, assetId: number): TacTable | undefined =>
  statements(db).tacLatest.get(assetId) as TacTable | undefined

/** The TAC of the series' latest month on or before `month` (YYYY-MM), if any. */
export const tacOnOrBefore = (db: Database.Database, assetId: number, month: string): TacTable | undefined =>
  statements(db).tacOnOrBefore.get(assetId, month) as TacTable | undefined

/** The monthly TAC of the series from `fromMonth` (YYYY-MM, inclusive), ascending. */
export const tacHistory = (db: Database.Database, assetId: number, fromMonth: string): TacTable[] =>
  statements(db).tacHistory.all(assetId, fromMonth) as TacTable[]
