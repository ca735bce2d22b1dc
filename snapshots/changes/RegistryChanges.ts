/**
 * Registry facts that differ between the two batches: fields of administrators, funds, series and
 * FI/ETF instruments and series present in both, and administrators, funds and instruments added
 * or removed (series that appear or go are SeriesChanges.ts's). Registry tables are small (a few
 * thousand rows at full size), so both sides are read whole. Values are written as the API shows
 * them: ISO dates, currencies as ISO 4217 codes (FM), flags as booleans.
 */
import type Database from "better-sqlite3"
import type { ChangeItem } from "../../schemas/Changes.ts"
import { intToDate } from "../../schemas/Dates.ts"
import { currencyOf } from "../../schemas/FundClass.ts"
import type { Side } from "./BatchPair.ts"

type Value = string | number | boolean | null
type Entity = "administrator" | "fund" | "series" | "fi_instrument" | "fi_series"
type Registry = Extract<ChangeItem, { type: "registry_changed" }>

interface EntitySpec {
  readonly entity: Entity
  readonly select: (side: Side) => string
  /** Its fields as the API shows them. */
  readonly fields: (row: Record<string, unknown>) => Record<string, Value>
  /** The name given for an added or removed entity; null: added and removed are not registry changes (series). */
  readonly name: ((row: Record<string, unknown>) => string) | null
}

const str = (x: unknown): string | null => (x === null || x === undefined ? null : String(x))

const SPECS: ReadonlyArray<EntitySpec> = [
  {
    entity: "administrator",
    select: (side) => `SELECT provider_id AS id, name FROM ${side}.administrators`,
    fields: (r) => ({ name: str(r.name) }),
    name: (r) => String(r.name),
  },
  {
    entity: "fund",
    select: (side) =>
      `SELECT concept_id AS id, name, short_name, provider_id, fund_type, currency, start_date, end_date, is_current FROM ${side}.funds`,
    fields: (r) => ({
      name: str(r.name),
      short_name: str(r.short_name),
      provider_id: r.provider_id as number,
      cmf_fund_type: r.fund_type as number | null,
      currency: currencyOf(str(r.currency)),
      start_date: str(r.start_date),
      end_date: str(r.end_date),
      is_current: r.is_current === 1,
    }),
    name: (r) => String(r.name),
  },
  {
    entity: "series",
    select: (side) => `SELECT asset_id AS id, currency, first_date FROM ${side}.series`,
    fields: (r) => ({ currency: currencyOf(str(r.currency)), first_date: intToDate(r.first_date as number) }),
    name: null,
  },
  {
    entity: "fi_instrument",
    select: (side) =>
      `SELECT instrument_id AS id, name, agf_name, provider_id, regulatory_type, status, is_etf, ticker FROM ${side}.fi_instruments`,
    fields: (r) => ({
      name: str(r.name),
      administrator: str(r.agf_name),
      provider_id: r.provider_id as number,
      regulatory_type: str(r.regulatory_type),
      status: str(r.status),
      is_etf: r.is_etf === 1,
      ticker: str(r.ticker),
    }),
    name: (r) => String(r.name),
  },
  {
    entity: "fi_series",
    select: (side) => `SELECT serie_id AS id, currency FROM ${side}.fi_series`,
    fields: (r) => ({ currency: str(r.currency) }),
    name: null,
  },
]

const registryItem = (entity: Entity, id: string, change: Registry["attributes"]["change"], field: string | null, old: Value, next: Value): Registry => ({
  id: `registry_changed:${entity}:${id}:${field ?? change}`,
  type: "registry_changed",
  attributes: { entity, entity_id: id, change, field, old, new: next },
})

const byId = (db: Database.Database, sql: string): Map<string, Record<string, unknown>> =>
  new Map((db.prepare(sql).all() as Array<Record<string, unknown>>).map((r) => [String(r.id), r]))

/** Every registry change, in no particular order (the feed sorts its sections by id). */
export const registryChanges = (db: Database.Database): Registry[] => {
  const items: Registry[] = []
  for (const spec of SPECS) {
    const before = byId(db, spec.select("prior"))
    const after = byId(db, spec.select("main"))
    for (const [id, row] of after) {
      const old = before.get(id)
      if (old === undefined) {
        if (spec.name !== null) items.push(registryItem(spec.entity, id, "added", null, null, spec.name(row)))
        continue
      }
      const was = spec.fields(old)
      for (const [field, value] of Object.entries(spec.fields(row))) {
        if (was[field] !== value) items.push(registryItem(spec.entity, id, "changed", field, was[field] ?? null, value))
      }
    }
    if (spec.name === null) continue
    for (const [id, row] of before) if (!after.has(id)) items.push(registryItem(spec.entity, id, "removed", null, spec.name(row), null))
  }
  return items
}
