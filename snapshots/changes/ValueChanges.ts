/**
 * Values that differ, series by series, on the dates (months) both batches' ranges for the series
 * cover: FM daily values (quotas.price), FI/ETF book values (fi_prices.book_value) and FM monthly
 * TAC (tac.tac). A series' rows of the newer batch that the older lacks as they are come from an
 * EXCEPT query over its key range, which SQLite answers by merging the two files' primary-key
 * order (MERGE (EXCEPT): no sort, no temporary table, nothing held but the differing rows); each
 * one's old value is one lookup. Rows only the older batch has (values withdrawn: rare) are found
 * by counting both sides' rows in the range (a count costs a fifth of an EXCEPT); only when the
 * counts say some exist is the EXCEPT run the other way too. A call asks for at most the rows the
 * page still has room for, so a series restated whole is paged too.
 */
import type Database from "better-sqlite3"
import type { Side } from "./BatchPair.ts"

export interface ValueTable {
  readonly table: "quotas" | "fi_prices" | "tac"
  readonly key: "asset_id" | "serie_id"
  /** The column that orders a series' rows: a date (YYYYMMDD) or a month (YYYY-MM). */
  readonly at: "date" | "month"
  readonly value: "price" | "book_value" | "tac"
}

/** One date (month) of a series whose value differs: null on the side that has no value then. */
export interface ValueDiff {
  readonly at: number | string
  readonly old: number | null
  readonly new: number | null
}

/** A series to compare: its key in the newer batch and in the older one (they differ for a renamed series). */
export interface ComparedSeries {
  readonly key: number | string
  readonly priorKey: number | string
}

type Row = [number | string, number]

const before = (a: number | string, b: number | string): boolean => a < b

/** The statements of one table, prepared once per comparison. */
export class ValueTableDiff {
  private readonly newerOnly: Database.Statement
  private readonly olderOnly: Database.Statement
  private readonly priorValue: Database.Statement
  private readonly rows: Record<Side, Database.Statement>
  private readonly bounds: Record<Side, { first: Database.Statement; last: Database.Statement }>
  /** Below every date and month: `at > sentinel` holds for all rows. */
  private readonly sentinel: number | string

  readonly spec: ValueTable

  constructor(db: Database.Database, spec: ValueTable) {
    this.spec = spec
    const { table, key, at, value } = spec
    const side = (s: Side) => `SELECT ${at}, ${value} FROM ${s}.${table} WHERE ${key} = ? AND ${at} >= ? AND ${at} <= ? AND ${at} > ?`
    const except = (x: Side, y: Side) => db.prepare(`${side(x)} EXCEPT ${side(y)} ORDER BY 1 LIMIT ?`).raw(true)
    this.newerOnly = except("main", "prior")
    this.olderOnly = except("prior", "main")
    this.priorValue = db.prepare(`SELECT ${value} FROM prior.${table} WHERE ${key} = ? AND ${at} = ?`).pluck()
    const count = (s: Side) =>
      db.prepare(`SELECT count(*) FROM ${s}.${table} WHERE ${key} = ? AND ${at} >= ? AND ${at} <= ? AND ${at} > ?`).pluck()
    this.rows = { prior: count("prior"), main: count("main") }
    const bound = (s: Side, f: "min" | "max") => db.prepare(`SELECT ${f}(${at}) FROM ${s}.${table} WHERE ${key} = ?`).pluck()
    this.bounds = {
      prior: { first: bound("prior", "min"), last: bound("prior", "max") },
      main: { first: bound("main", "min"), last: bound("main", "max") },
    }
    this.sentinel = at === "date" ? -1 : ""
  }

  /** The dates (months) both batches cover for the series, [first, last]; null when they share none. */
  overlap(s: ComparedSeries): readonly [number | string, number | string] | null {
    const firstOld = this.bounds.prior.first.get(s.priorKey) as number | string | null
    const firstNew = this.bounds.main.first.get(s.key) as number | string | null
    if (firstOld === null || firstNew === null) return null
    const lastOld = this.bounds.prior.last.get(s.priorKey) as number | string
    const lastNew = this.bounds.main.last.get(s.key) as number | string
    const first = before(firstOld, firstNew) ? firstNew : firstOld
    const last = before(lastOld, lastNew) ? lastOld : lastNew
    return before(last, first) ? null : [first, last]
  }

  /**
   * The series' differing values after `after` (exclusive; null: from the first) within `range`,
   * at most `room` of them, ascending; `done` when no more follow.
   */
  diff(
    s: ComparedSeries,
    range: readonly [number | string, number | string],
    after: number | string | null,
    room: number,
  ): { readonly diffs: ValueDiff[]; readonly done: boolean } {
    const from = after ?? this.sentinel
    const newer = this.newerOnly.all(s.key, range[0], range[1], from, s.priorKey, range[0], range[1], from, room) as Row[]
    // The dates this call answers for: up to the last row when the list came back full (it may have been cut).
    const through = newer.length === room ? newer[room - 1]![0] : range[1]
    const diffs = newer.map(([at, value]): ValueDiff => ({ at, old: (this.priorValue.get(s.priorKey, at) as number | undefined) ?? null, new: value }))
    const added = diffs.filter((d) => d.old === null).length
    const olderRows = this.rows.prior.get(s.priorKey, range[0], through, from) as number
    const newerRows = this.rows.main.get(s.key, range[0], through, from) as number
    // Every older row of the range is a newer row's old value unless some were withdrawn.
    if (olderRows === newerRows - added) return { diffs, done: newer.length < room }
    return this.bothWays(s, range, from, room, newer)
  }

  /** The merge of both EXCEPT directions: rows withdrawn (only the older batch has them) as well. */
  private bothWays(
    s: ComparedSeries,
    range: readonly [number | string, number | string],
    from: number | string,
    room: number,
    newer: ReadonlyArray<Row>,
  ): { readonly diffs: ValueDiff[]; readonly done: boolean } {
    const older = this.olderOnly.all(s.priorKey, range[0], range[1], from, s.key, range[0], range[1], from, room) as Row[]
    // A list that came back full may have been cut: only dates up to its last are known on both sides.
    let boundary: number | string | null = null
    for (const rows of [newer, older]) {
      const last = rows.length === room ? rows[room - 1]![0] : null
      if (last !== null && (boundary === null || before(last, boundary))) boundary = last
    }
    const diffs: ValueDiff[] = []
    let i = 0
    let j = 0
    while (diffs.length < room && (i < newer.length || j < older.length)) {
      const n = newer[i]
      const o = older[j]
      const at = n === undefined ? o![0] : o === undefined ? n[0] : before(o[0], n[0]) ? o[0] : n[0]
      if (boundary !== null && before(boundary, at)) break
      const inNewer = n !== undefined && n[0] === at
      const inOlder = o !== undefined && o[0] === at
      if (inNewer) i++
      if (inOlder) j++
      diffs.push({ at, old: inOlder ? o[1] : null, new: inNewer ? n[1] : null })
    }
    return { diffs, done: boundary === null && i === newer.length && j === older.length }
  }
}
