/**
 * What changed from one published batch to another, as pages of one feed in a fixed order:
 *   0 registry facts, 1 series (appeared, removed, renamed, ended, resumed), 2 FM monthly TAC,
 *   3 FI/ETF fact-sheet TAC, 4 FM daily values, 5 FI/ETF book values.
 * Sections 0, 1 and 3 come from the registry-sized tables, listed whole and ordered by item id;
 * sections 2, 4 and 5 go series by series (by series key, then date or month) over SQL that
 * merges the two files (ValueChanges.ts), so memory holds at most one page. A page ends when it
 * holds `limit` items or when its per-series sections have compared `scanBudget` rows (estimated
 * from each series' overlapping range, weekdays or months), so each request does bounded work
 * and a comparison of two full histories is spread over a few pages; the position it ends at
 * (Position.ts) is where the next one starts. Same files, same position, same options: same page.
 *
 * `changesPage` is a generator that yields between series, so its caller can let other work run.
 */
import type { ChangeItem, ChangeVehicle } from "../../schemas/Changes.ts"
import { intToDate } from "../../schemas/Dates.ts"
import { weekdaysAfter } from "../compute/SeriesActivity.ts"
import type { BatchPair } from "./BatchPair.ts"
import { differingRanges, type Identical, NOTHING_IDENTICAL } from "./Identical.ts"
import type { Position } from "./Position.ts"
import { QuotaSources } from "./QuotaSource.ts"
import { registryChanges } from "./RegistryChanges.ts"
import { seriesChanges } from "./SeriesChanges.ts"
import { type ComparedSeries, type ValueDiff, type ValueTable, ValueTableDiff } from "./ValueChanges.ts"

export interface ChangesOptions {
  /** Items per page at most. */
  readonly limit: number
  /** Rows (estimated: weekdays or months of each series' overlap) a page's per-series sections compare before it ends. */
  readonly scanBudget: number
  /** FDS_SERIES_GRACE_DAYS: when a series counts as ended. */
  readonly graceWeekdays: number
  /** What the two batches hold identically (their manifests' digests: Identical.ts): not compared. */
  readonly identical?: Identical
}

export interface ChangesPage {
  readonly items: ReadonlyArray<ChangeItem>
  /** Where the next page starts; null when this one is the last. */
  readonly next: Position | null
}

type FiSeries = ComparedSeries & { readonly vehicle: ChangeVehicle }

/** What a page reads of the pair, each at most once. */
class Reading {
  private fm: ReadonlyArray<ComparedSeries> | undefined
  private fi: ReadonlyArray<FiSeries> | undefined
  private readonly tables = new Map<ValueTable["table"], ValueTableDiff>()
  private quotaSources: QuotaSources | undefined
  spent = 0

  readonly pair: BatchPair
  readonly options: ChangesOptions

  constructor(pair: BatchPair, options: ChangesOptions) {
    this.pair = pair
    this.options = options
  }

  /** FM series of the newer batch that the older one had, under the same id or (renamed) the previous one; by id. */
  fmSeries(): ReadonlyArray<ComparedSeries> {
    if (this.fm !== undefined) return this.fm
    const db = this.pair.db
    const prior = new Set(db.prepare("SELECT asset_id FROM prior.series").pluck().all() as number[])
    const ids = db.prepare("SELECT asset_id FROM main.series ORDER BY asset_id").pluck().all() as number[]
    const current = new Set(ids)
    const previous = new Map<number, number>()
    for (const [alias, id] of db.prepare("SELECT alias_id, asset_id FROM main.series_aliases ORDER BY alias_id").raw(true).all() as Array<
      [number, number]
    >) {
      if (prior.has(alias) && !current.has(alias) && !previous.has(id)) previous.set(id, alias)
    }
    this.fm = ids.flatMap((id) => {
      const priorKey = prior.has(id) ? id : previous.get(id)
      return priorKey === undefined ? [] : [{ key: id, priorKey }]
    })
    return this.fm
  }

  /** FI/ETF series both batches have; by id. */
  fiSeries(): ReadonlyArray<FiSeries> {
    if (this.fi !== undefined) return this.fi
    const rows = this.pair.db
      .prepare(
        `SELECT s.serie_id, i.is_etf FROM main.fi_series s JOIN main.fi_instruments i ON i.instrument_id = s.instrument_id
         WHERE s.serie_id IN (SELECT serie_id FROM prior.fi_series) ORDER BY s.serie_id`,
      )
      .raw(true)
      .all() as Array<[string, number]>
    this.fi = rows.map(([id, etf]) => ({ key: id, priorKey: id, vehicle: etf === 1 ? "etf" : "investment_fund" }))
    return this.fi
  }

  table(spec: ValueTable): ValueTableDiff {
    let diff = this.tables.get(spec.table)
    if (diff === undefined) {
      diff = new ValueTableDiff(this.pair.db, spec)
      this.tables.set(spec.table, diff)
    }
    return diff
  }

  sources(): QuotaSources {
    this.quotaSources ??= new QuotaSources(this.pair.db)
    return this.quotaSources
  }
}

/** A section listed whole, in item id order. */
interface Listed {
  readonly kind: "listed"
  readonly items: (r: Reading) => ReadonlyArray<ChangeItem>
}

/** A section compared series by series. */
interface PerSeries<S extends ComparedSeries> {
  readonly kind: "series"
  readonly table: ValueTable
  /** The parts of a series' overlap that may differ (default: all of it). */
  readonly ranges?: (identical: Identical, range: readonly [number | string, number | string]) => ReadonlyArray<readonly [number | string, number | string]>
  readonly series: (r: Reading) => ReadonlyArray<S>
  /** The rows comparing the range costs, estimated. */
  readonly cost: (range: readonly [number | string, number | string]) => number
  /** The items of one call's differing values of the series. */
  readonly items: (r: Reading, s: S, diffs: ReadonlyArray<ValueDiff>) => ReadonlyArray<ChangeItem>
}

const weekdays = (range: readonly [number | string, number | string]): number => weekdaysAfter(range[0] as number, range[1] as number) + 1
const months = (range: readonly [number | string, number | string]): number => {
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7))
  return index(range[1] as string) - index(range[0] as string) + 1
}

const fiTac = (r: Reading): ChangeItem[] => {
  const tacOf = (side: "prior" | "main") =>
    new Map(r.pair.db.prepare(`SELECT serie_id, tac FROM ${side}.fi_fact_sheets`).raw(true).all() as Array<[string, number | null]>)
  const before = tacOf("prior")
  const after = tacOf("main")
  return r.fiSeries().flatMap((s) => {
    const old = before.get(s.key as string) ?? null
    const now = after.get(s.key as string) ?? null
    return old === now
      ? []
      : [{ id: `tac_changed:${s.key}`, type: "tac_changed" as const, attributes: { vehicle: s.vehicle, asset_id: s.key as string, month: null, old, new: now } }]
  })
}

const perSeries = <S extends ComparedSeries>(section: Omit<PerSeries<S>, "kind">): PerSeries<S> => ({ kind: "series", ...section })

const QUOTAS: ValueTable = { table: "quotas", key: "asset_id", at: "date", value: "price" }
const FI_PRICES: ValueTable = { table: "fi_prices", key: "serie_id", at: "date", value: "book_value" }
const TAC: ValueTable = { table: "tac", key: "asset_id", at: "month", value: "tac" }

const SECTIONS: ReadonlyArray<Listed | PerSeries<ComparedSeries> | PerSeries<FiSeries>> = [
  { kind: "listed", items: (r) => registryChanges(r.pair.db) },
  { kind: "listed", items: (r) => seriesChanges(r.pair, r.options.graceWeekdays) },
  perSeries({
    table: TAC,
    series: (r) => r.fmSeries(),
    cost: months,
    items: (_, s, diffs) =>
      diffs.map((d) => ({
        id: `tac_changed:${s.key}:${d.at}`,
        type: "tac_changed" as const,
        attributes: { vehicle: "mutual_fund" as const, asset_id: String(s.key), month: d.at as string, old: d.old, new: d.new },
      })),
  }),
  { kind: "listed", items: fiTac },
  perSeries({
    table: QUOTAS,
    series: (r) => r.fmSeries(),
    ranges: (identical, range) => differingRanges(range[0] as number, range[1] as number, identical.quotaMonths),
    cost: weekdays,
    items: (r, s, diffs) => {
      const oldSource = r.sources().of("prior", s.priorKey as number)
      const newSource = r.sources().of("main", s.key as number)
      return diffs.map((d) => ({
        id: `value_restated:${s.key}:${intToDate(d.at as number)}`,
        type: "value_restated" as const,
        attributes: {
          vehicle: "mutual_fund" as const,
          asset_id: String(s.key),
          date: intToDate(d.at as number),
          old: d.old,
          new: d.new,
          old_source: d.old === null ? null : oldSource(d.at as number),
          new_source: d.new === null ? null : newSource(d.at as number),
        },
      }))
    },
  }),
  perSeries<FiSeries>({
    table: FI_PRICES,
    series: (r) => r.fiSeries(),
    cost: weekdays,
    items: (_, s, diffs) =>
      diffs.map((d) => ({
        id: `value_restated:${s.key}:${intToDate(d.at as number)}`,
        type: "value_restated" as const,
        attributes: {
          vehicle: s.vehicle,
          asset_id: s.key as string,
          date: intToDate(d.at as number),
          old: d.old,
          new: d.new,
          old_source: d.old === null ? null : ("cmf" as const),
          new_source: d.new === null ? null : ("cmf" as const),
        },
      })),
  }),
]

export const SECTION_COUNT = SECTIONS.length

const byId = (a: ChangeItem, b: ChangeItem): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

const listedPage = (r: Reading, section: Listed, from: Position, room: number): ChangesPage => {
  const all = [...section.items(r)].sort(byId)
  const after = from.after
  const rest = after === null ? all : all.filter((item) => item.id > (after as string))
  const items = rest.slice(0, room)
  return { items, next: rest.length > room ? { section: from.section, key: null, after: items[items.length - 1]!.id } : null }
}

function* seriesPage<S extends ComparedSeries>(r: Reading, section: PerSeries<S>, from: Position, room: number): Generator<void, ChangesPage> {
  const identical = r.options.identical ?? NOTHING_IDENTICAL
  // a table with the same rows in both batches has no differing value
  if (identical.tables.has(section.table.table)) return { items: [], next: null }
  const list = section.series(r)
  const table = r.table(section.table)
  // the first series at or after the position's key (keys of one section are all numbers or all strings)
  let i = 0
  if (from.key !== null) while (i < list.length && list[i]!.key < from.key) i++
  let after = from.key !== null && list[i]?.key === from.key ? from.after : null
  const items: ChangeItem[] = []
  for (; i < list.length; i++, after = null) {
    const s = list[i]!
    const overlap = table.overlap(s)
    if (overlap === null) continue
    const ranges = section.ranges?.(identical, overlap) ?? [overlap]
    if (after === null) {
      const cost = ranges.reduce((sum, range) => sum + section.cost(range), 0)
      // a page compares one series at least, whatever its cost
      if (r.spent > 0 && r.spent + cost > r.options.scanBudget) return { items, next: { section: from.section, key: s.key, after: null } }
      r.spent += cost
    }
    for (const range of ranges) {
      if (after !== null && range[1] <= after) continue
      for (;;) {
        const { diffs, done } = table.diff(s, range, after, room - items.length)
        items.push(...section.items(r, s, diffs))
        if (diffs.length > 0) after = diffs[diffs.length - 1]!.at
        if (done) break
        if (items.length >= room) return { items, next: { section: from.section, key: s.key, after } }
      }
    }
    if (items.length >= room) {
      const following = list[i + 1]
      return { items, next: following === undefined ? null : { section: from.section, key: following.key, after: null } }
    }
    yield
  }
  return { items, next: null }
}

/** The page of changes from `start`: at most `options.limit` items, and where the next page starts. */
export function* changesPage(pair: BatchPair, start: Position, options: ChangesOptions): Generator<void, ChangesPage> {
  const r = new Reading(pair, options)
  const items: ChangeItem[] = []
  for (let index = start.section; index < SECTIONS.length; index++) {
    const from: Position = index === start.section ? start : { section: index, key: null, after: null }
    const room = options.limit - items.length
    if (room === 0) return { items, next: from }
    const section = SECTIONS[index]!
    const page = section.kind === "listed" ? listedPage(r, section, from, room) : yield* seriesPage(r, section as PerSeries<ComparedSeries>, from, room)
    items.push(...page.items)
    if (page.next !== null) return { items, next: page.next }
    yield
  }
  return { items, next: null }
}
