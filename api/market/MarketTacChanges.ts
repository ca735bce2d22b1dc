/**
 * /api/reports/tac-changes: each series' TAC in a closed month against the month before (both
 * must exist), one series per fund — the one with the largest change in the requested direction
 * (up: largest rise; down: largest drop; ties: lowest numeric series id) — ordered by that change.
 * Changes are decimal fractions: tacDelta = tac − tacPrevious, tacDeltaPct = tacDelta / tacPrevious.
 */
import type Database from "better-sqlite3"
import { currencyOf, investorClassOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import { prepared } from "../../snapshots/readers/MarketDb.ts"
import { categoryOf } from "../../snapshots/readers/MarketFundRow.ts"
import { round10 } from "../../snapshots/readers/MarketRows.ts"

export type Direction = "up" | "down"

/** The newest month with TAC observations on or before `month` (YYYY-MM), or null. */
export const lastTacMonth = (db: Database.Database, month: string): string | null =>
  (prepared(db, "SELECT max(month) FROM tac WHERE month <= ?").pluck().get(month) as string | null) ?? null

interface Pair {
  asset_id: number
  tac: number
  tac_previous: number
  serie: string
  run: number
  concept_id: number
  currency: string | null
  fund_name: string
  fund_type: number | null
  agf: string
}

/** Patrimony at the series' last quote of the month (null without a quote that month). */
const patrimonyAt = (db: Database.Database, assetId: number, monthEnd: number): number | null => {
  const q = prepared(db, "SELECT patrimony FROM quotas WHERE asset_id = ? AND date <= ? AND date > ? ORDER BY date DESC LIMIT 1").get(
    assetId,
    monthEnd,
    monthEnd - (monthEnd % 100),
  ) as { patrimony: number | null } | undefined
  return q?.patrimony ?? null
}

export const tacChanges = (
  db: Database.Database,
  request: {
    readonly month: string
    readonly previousMonth: string
    /** YYYYMMDD: the month's last day (patrimony as of then). */
    readonly monthEnd: number
    readonly direction: Direction
    readonly limit: number
    readonly category: string | undefined
  },
) => {
  const pairs = prepared(
    db,
    `SELECT cur.asset_id, cur.tac, prev.tac AS tac_previous, s.serie, s.run, s.concept_id, s.currency,
       f.name AS fund_name, f.fund_type, a.name AS agf
     FROM tac cur
     JOIN tac prev ON prev.asset_id = cur.asset_id AND prev.month = ?
     JOIN series s ON s.asset_id = cur.asset_id
     JOIN funds f ON f.concept_id = s.concept_id
     JOIN administrators a ON a.provider_id = f.provider_id
     WHERE cur.month = ?
     ORDER BY cur.asset_id`,
  ).all(request.previousMonth, request.month) as Pair[]
  const sign = request.direction === "up" ? 1 : -1
  const best = new Map<number, Pair & { delta: number }>()
  for (const p of pairs) {
    const delta = round10(p.tac - p.tac_previous)
    if (sign * delta <= 0) continue
    if (request.category !== undefined && categoryOf(p.fund_type) !== request.category) continue
    const seen = best.get(p.concept_id)
    if (seen === undefined || sign * delta > sign * seen.delta) best.set(p.concept_id, { ...p, delta })
  }
  const chosen = [...best.values()].sort((a, b) => sign * (b.delta - a.delta) || a.asset_id - b.asset_id)
  return {
    total: chosen.length,
    data: chosen.slice(0, request.limit).map((p) => ({
      fundId: String(p.concept_id),
      fundName: p.fund_name,
      agf: p.agf,
      run: formatRun(p.run),
      serie: p.serie,
      serieId: String(p.asset_id),
      category: categoryOf(p.fund_type),
      investorClass: investorClassOf(p.serie),
      currency: currencyOf(p.currency),
      patrimony: patrimonyAt(db, p.asset_id, request.monthEnd),
      tac: p.tac,
      tacPrevious: p.tac_previous,
      tacDelta: p.delta,
      tacDeltaPct: p.tac_previous === 0 ? null : round10(p.delta / p.tac_previous),
    })),
  }
}
