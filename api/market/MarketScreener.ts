/**
 * /api/screener: filters the rows of the latest published batch, sorts them and returns one page.
 * The query arrives decoded by its schema (ScreenerQuery in MarketCompareApi.ts: 422 naming the
 * parameter, never clamped). Rules: unavailable values go last in both directions; ties by
 * ascending numeric id; no match → [] with total 0; paging is stable within a batch (the order is
 * a total order on the rows); a renamed series is one row (the rows hold current ids only); a
 * batch without returns → 503 with Retry-After. The page's links (and Link header) name the batch
 * it was read from, so following them never crosses a swap (api/http/PageLinks.ts). With `date`
 * (or universe=as_of, which needs one: 400 without) the rows are those of that view
 * (compareRowsAt in MarketCompareRows.ts): today's funds at that date, or those alive then.
 */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import type { ScreenerBody } from "../../schemas/MarketCompare.ts"
import { LINK_HEADER, linkHeaderOf, type PageLinks } from "../../schemas/Paging.ts"
import type { WindowKey } from "../../snapshots/compute/Windows.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { memo, memoLru } from "../../snapshots/readers/MarketDb.ts"
import { offsetLinks, requestTarget } from "../http/PageLinks.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { batchMeta, batchUnavailable } from "./MarketCompare.ts"
import type { ScreenerQuery, SortKey } from "./MarketCompareApi.ts"
import { type BatchInfo, batchInfo, type CompareRow, compareRows, compareRowsAt, hasReturns } from "./MarketCompareRows.ts"
import { asOfNeedsDate, jsonBytes, notAfterBatch } from "./MarketResponses.ts"
import { universeWord } from "../../schemas/MarketUniverse.ts"

const eqi = (a: string | null, b: string): boolean => a !== null && a.toLowerCase() === b.toLowerCase()

const matches = (s: ScreenerQuery) => (r: CompareRow): boolean => {
  if (s.q !== undefined) {
    const needle = s.q.toLowerCase()
    const run = r.run.toLowerCase()
    if (!r.fundName.toLowerCase().includes(needle) && !run.includes(needle) && !run.replace("-", "").includes(needle)) return false
  }
  if (s.fund_family !== undefined && !eqi(r.fundFamily, s.fund_family)) return false
  if (s.investor_class !== undefined && !eqi(r.investorClass, s.investor_class)) return false
  if (s.currency !== undefined && r.currency !== s.currency) return false
  if (s.category !== undefined && !eqi(r.category, s.category)) return false
  if (s.administrator !== undefined && !r.agf.toLowerCase().includes(s.administrator.toLowerCase())) return false
  if (s.cmf_spheres_min !== undefined && (r.spheresValue === null || r.spheresValue < s.cmf_spheres_min)) return false
  if (s.cmf_spheres_max !== undefined && (r.spheresValue === null || r.spheresValue > s.cmf_spheres_max)) return false
  if (s.cmf_family !== undefined && r.spheres?.family !== s.cmf_family) return false
  if (s.cmf_investor_type !== undefined && r.spheres?.investor_type !== s.cmf_investor_type) return false
  return true
}

const sortValue = (r: CompareRow, key: SortKey): number | null => {
  switch (key) {
    case "id":
      return r.assetId
    case "tac":
      return r.tac
    case "cmf_spheres":
      return r.spheresValue
    default:
      return r.periods[key as WindowKey].value
  }
}

/** Unavailable values last in both directions, then the key in the requested order, then ascending id. */
export const screenOrder = (key: SortKey, order: "asc" | "desc") => (a: CompareRow, b: CompareRow): number => {
  const va = sortValue(a, key)
  const vb = sortValue(b, key)
  if (va === null || vb === null) {
    if (va !== vb) return va === null ? 1 : -1
  } else if (va !== vb) {
    return order === "asc" ? va - vb : vb - va
  }
  return a.assetId - b.assetId
}

/**
 * How many screener answers a snapshot keeps, per decoded request (full size: a 50-row page is
 * ~0.3 MB, a 200-row one ~1.1 MB; at most ~36 MB).
 */
const KEPT_ANSWERS = 32

/** The text of one row as a data item: serialised once per row (a snapshot's rows never change). */
const itemTexts = new WeakMap<CompareRow, string>()
const itemText = (row: CompareRow): string => {
  let text = itemTexts.get(row)
  if (text === undefined) {
    const item: ScreenerBody["data"][number] = { id: String(row.assetId), type: "fund_comparison", attributes: row.attributes }
    text = JSON.stringify(item)
    itemTexts.set(row, text)
  }
  return text
}

/**
 * Every row in the order of one sort key and direction (a total order: stable paging), once per
 * snapshot and grace; another view's (`view` rows, a date or universe=as_of) kept while recent.
 */
const ordered = (
  db: Database.Database,
  info: BatchInfo,
  graceWeekdays: number,
  rows: ReadonlyArray<CompareRow>,
  s: ScreenerQuery,
  view: ReadonlyArray<CompareRow> | undefined,
) => {
  const sort = () => [...rows].sort(screenOrder(s.sort, s.order))
  return view === undefined
    ? memo(db, `screenerOrder:${info.batchId}:${graceWeekdays}:${s.sort}:${s.order}`, sort)
    : memoLru(db, `screenerViewOrder:${info.batchId}:${graceWeekdays}`, `${s.universe ?? "current"}:${s.date}:${s.sort}:${s.order}`, KEPT_ANSWERS, sort)
}

/** An answer but its links: its bytes up to them (no closing brace) and its total. */
interface ScreenerHead {
  readonly head: Buffer
  readonly total: number
}

/** The answer's bytes but its links: the matching rows in order (filtering keeps the order), the page cut from them. */
const screenerText = (
  r: SnapshotReader,
  lease: Lease,
  graceWeekdays: number,
  s: ScreenerQuery,
  view: ReadonlyArray<CompareRow> | undefined,
): ScreenerHead => {
  const info = batchInfo(lease.file, lease.contentHash, r.batchDate)
  const rows = view ?? compareRows(r.db, dateToInt(r.batchDate), graceWeekdays, info)
  const test = matches(s)
  const page: string[] = []
  let total = 0
  for (const row of ordered(r.db, info, graceWeekdays, rows, s, view)) {
    if (!test(row)) continue
    if (total >= s.offset && page.length < s.limit) page.push(itemText(row))
    total++
  }
  const batch = batchMeta(info, rows.length)
  const meta: ScreenerBody["meta"] = {
    ...batch,
    // a dated request's rows are as of its date (absent: the batch's, as always)
    ...(s.date === undefined ? {} : { as_of_date: s.date }),
    total,
    limit: s.limit,
    offset: s.offset,
    ...(s.universe === undefined ? {} : { universe: universeWord(s.universe) }),
  }
  // the shape JSON.stringify gives the ScreenerBody { data, meta, total, limit, offset, links },
  // with each row's text reused; the links (from the request as it was spelt) are added per request
  const paging = `"total":${total},"limit":${s.limit},"offset":${s.offset}`
  return { head: Buffer.from(`{"data":[${page.join(",")}],"meta":${JSON.stringify(meta)},${paging}`, "utf8"), total }
}

/**
 * The answer of one decoded request is the same for every caller of a batch: kept per snapshot
 * (bounded, least recently used first out) under the decoded request, so spellings that mean
 * the same (`currency=clp` and `PESOS`, a default written out) share it. The rows are the
 * universe's with `graceWeekdays` (FDS_SERIES_GRACE_DAYS).
 */
export const screenerAnswer = Effect.fn(function* (screen: ScreenerQuery, graceWeekdays: number) {
  yield* asOfNeedsDate(screen.universe, screen.date)
  yield* notAfterBatch("date", screen.date)
  const lease = yield* PinnedSnapshot
  const building = yield* lease.read((r) => {
    if (!hasReturns(r.db)) return null
    const batch = dateToInt(r.batchDate)
    const cutoff = screen.date === undefined ? batch : dateToInt(screen.date)
    const which = screen.universe ?? "current"
    // today's funds at the batch date are the rows kept per snapshot; any other view is built for it
    if (which === "current" && cutoff >= batch) return { view: undefined }
    return { view: compareRowsAt(r.db, batch, graceWeekdays, batchInfo(lease.file, lease.contentHash, r.batchDate), which, cutoff) }
  })
  if (building === null) return yield* batchUnavailable()
  const pending = building.view
  const view = pending === undefined ? undefined : yield* Effect.promise(() => pending)
  const answer = yield* lease.read((r) =>
    memoLru(r.db, `screenerAnswer:${graceWeekdays}`, JSON.stringify(screen), KEPT_ANSWERS, () =>
      screenerText(r, lease, graceWeekdays, screen, view),
    ),
  )
  const { path, query } = yield* requestTarget
  const links = offsetLinks(path, query, { total: answer.total, limit: screen.limit, offset: screen.offset }, batchIdOfFile(lease.file))
  return HttpServerResponse.setHeader(jsonBytes(withLinks(answer.head, links)), LINK_HEADER, linkHeaderOf(links))
})

/** How many spellings of one request's links an answer keeps its finished bytes for. */
const KEPT_SPELLINGS = 8
const finished = new WeakMap<Buffer, Map<string, Buffer>>()

/**
 * The answer `head` finished with `links`: the same bytes object for the same links (so the caching
 * middleware compresses it once), kept while the snapshot's memo keeps `head`.
 */
const withLinks = (head: Buffer, links: PageLinks): Buffer => {
  const text = `,"links":${JSON.stringify(links)}}`
  let kept = finished.get(head)
  if (kept === undefined) {
    kept = new Map()
    finished.set(head, kept)
  }
  let body = kept.get(text)
  if (body === undefined) {
    body = Buffer.concat([head, Buffer.from(text, "utf8")])
    if (kept.size >= KEPT_SPELLINGS) kept.delete(kept.keys().next().value!)
    kept.set(text, body)
  }
  return body
}
