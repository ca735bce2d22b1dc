/**
 * What changed from one published batch to another, as pages of one feed in a fixed order
 * (Sections.ts): 0 registry facts, 1 series (appeared, removed, renamed, ended, resumed), 2 FM
 * monthly TAC, 3 FI/ETF fact-sheet TAC, 4 FM daily values, 5 FI/ETF book values.
 * Sections 0, 1 and 3 come from the registry-sized tables, listed whole and ordered by item id;
 * sections 2, 4 and 5 go series by series (by series key, then date or month) over SQL that
 * merges the two files (ValueChanges.ts), so memory holds at most one page. A page ends when it
 * holds `limit` items or when its per-series sections have compared `scanBudget` rows (estimated
 * from each series' overlapping range, weekdays or months), so each request does bounded work
 * and a comparison of two full histories is spread over a few pages; the position it ends at
 * (Position.ts) is where the next one starts. Same files, same position, same options: same page.
 * What the manifests show identical in both batches (Identical.ts) is neither read nor counted.
 *
 * `changesPage` is a generator that yields between series, so its caller can let other work run.
 */
import type { ChangeItem } from "../../schemas/Changes.ts"
import type { BatchPair } from "./BatchPair.ts"
import type { ChangesOptions } from "./ChangesOptions.ts"
import { NOTHING_IDENTICAL } from "./Identical.ts"
import type { Position } from "./Position.ts"
import { type Listed, type PerSeries, Reading, SECTIONS } from "./Sections.ts"
import type { ComparedSeries } from "./ValueChanges.ts"

export interface ChangesPage {
  readonly items: ReadonlyArray<ChangeItem>
  /** Where the next page starts; null when this one is the last. */
  readonly next: Position | null
}

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
