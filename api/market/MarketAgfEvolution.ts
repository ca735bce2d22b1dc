/**
 * /api/agf_stats/evolution: the administrators' monthly totals (market_agf_monthly: each series'
 * last quote of the month), pivoted for charts: one row per month, one key per administrator
 * name, null for a month the administrator had nothing quoted.
 */
import type Database from "better-sqlite3"
import { memo, prepared } from "../../snapshots/readers/MarketDb.ts"
import type { AgfMetric } from "./MarketAgf.ts"

export interface Administrator {
  readonly providerId: number
  readonly name: string
}

/** Administrators by lower-cased name (the names the ranking shows). */
export const administratorsByName = (db: Database.Database): ReadonlyMap<string, ReadonlyArray<Administrator>> =>
  memo(db, "agf:byName", () => {
    const out = new Map<string, Administrator[]>()
    for (const a of prepared(db, "SELECT provider_id, name FROM administrators ORDER BY provider_id").all() as Array<{
      provider_id: number
      name: string
    }>) {
      const key = a.name.toLowerCase()
      out.set(key, [...(out.get(key) ?? []), { providerId: a.provider_id, name: a.name }])
    }
    return out
  })

interface MonthRow {
  provider_id: number
  month: string
  patrimony_clp: number
  shareholders: number
}

export const evolution = (
  db: Database.Database,
  administrators: ReadonlyArray<Administrator>,
  metric: AgfMetric,
  fromMonth: string,
  toMonth: string,
) => {
  const rows = prepared(
    db,
    "SELECT provider_id, month, patrimony_clp, shareholders FROM market_agf_monthly WHERE provider_id = ? AND month >= ? AND month <= ? ORDER BY month",
  )
  const byMonth = new Map<string, Map<string, number>>()
  for (const a of administrators) {
    for (const r of rows.all(a.providerId, fromMonth, toMonth) as MonthRow[]) {
      let m = byMonth.get(r.month)
      if (m === undefined) {
        m = new Map()
        byMonth.set(r.month, m)
      }
      const value = metric === "patrimony" ? r.patrimony_clp : r.shareholders
      m.set(a.name, (m.get(a.name) ?? 0) + value)
    }
  }
  const names = [...new Set(administrators.map((a) => a.name))]
  return [...byMonth.keys()].sort().map((month) => {
    const values = byMonth.get(month)!
    const row: Record<string, string | number | null> = { month }
    for (const name of names) row[name] = values.get(name) ?? null
    return row
  })
}
