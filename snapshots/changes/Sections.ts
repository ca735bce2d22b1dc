/**
 * The sections of the feed (Changes.ts pages through them in this order) and what a page reads of
 * the pair of batches to compute them, each at most once per page.
 */
import type { ChangeItem, ChangeVehicle } from "../../schemas/Changes.ts"
import { intToDate } from "../../schemas/Dates.ts"
import { weekdaysAfter } from "../compute/SeriesActivity.ts"
import type { BatchPair } from "./BatchPair.ts"
import type { ChangesOptions } from "./ChangesOptions.ts"
import { differingRanges, type Identical } from "./Identical.ts"
import { QuotaSources } from "./QuotaSource.ts"
import { registryChanges } from "./RegistryChanges.ts"
import { seriesChanges } from "./SeriesChanges.ts"
import { type ComparedSeries, type ValueDiff, type ValueTable, ValueTableDiff } from "./ValueChanges.ts"

type FiSeries = ComparedSeries & { readonly vehicle: ChangeVehicle }

/** What a page reads of the pair, each at most once. */
export class Reading {
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
export interface Listed {
  readonly kind: "listed"
  readonly items: (r: Reading) => ReadonlyArray<ChangeItem>
}

/** A section compared series by series. */
export interface PerSeries<S extends ComparedSeries> {
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

export const SECTIONS: ReadonlyArray<Listed | PerSeries<ComparedSeries> | PerSeries<FiSeries>> = [
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

