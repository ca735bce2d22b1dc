/**
 * /api/screener: filters the rows of the latest published batch, sorts them and returns one page.
 * Every parameter is checked here (422 naming it, never clamped). Rules: unavailable values go
 * last in both directions; ties by ascending numeric id; no match → [] with total 0; paging is
 * stable within a batch (the order is a total order on the rows); a renamed series is one row
 * (the rows hold current ids only); a batch without returns → 503 with Retry-After.
 */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import { InvalidParameter, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { INVESTOR_CLASSES } from "../../schemas/FundClass.ts"
import type { ScreenerBody } from "../../schemas/MarketCompare.ts"
import { CATEGORY_RULE, familyOf, isCategory } from "../../schemas/MarketParams.ts"
import { DECIMAL_DIGITS } from "../../schemas/QueryInt.ts"
import { WINDOWS, type WindowKey } from "../../snapshots/compute/Windows.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { memo, memoLru } from "../../snapshots/readers/MarketDb.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { batchMeta, batchUnavailable } from "./MarketCompare.ts"
import {
  type BatchInfo,
  batchInfo,
  type CompareRow,
  type ContractCurrency,
  compareRows,
  hasReturns,
} from "./MarketCompareRows.ts"
import { jsonBytes } from "./MarketResponses.ts"

export interface ScreenerQuery {
  readonly q?: string
  readonly fund_family?: string
  readonly investor_class?: string
  readonly currency?: string
  readonly category?: string
  readonly administrator?: string
  readonly cmf_spheres_min?: string
  readonly cmf_spheres_max?: string
  readonly cmf_family?: string
  readonly cmf_investor_type?: string
  readonly sort?: string
  readonly order?: string
  readonly limit?: string
  readonly offset?: string
}

export const SORT_KEYS = ["id", "tac", "cmf_spheres", ...WINDOWS] as const
export type SortKey = (typeof SORT_KEYS)[number]

/** The checked request. */
export interface Screen {
  readonly q: string | null
  readonly fundFamily: string | null
  readonly investorClass: string | null
  readonly currency: ContractCurrency | null
  readonly category: string | null
  readonly administrator: string | null
  readonly spheresMin: number | null
  readonly spheresMax: number | null
  readonly cmfFamily: string | null
  readonly cmfInvestorType: string | null
  readonly sort: SortKey
  readonly order: "asc" | "desc"
  readonly limit: number
  readonly offset: number
}

const bad = (parameter: string, rule: string) =>
  new InvalidParameter({ parameter, message: `invalid query parameter ${parameter}: ${rule}` })

const maxText = (q: ScreenerQuery, name: keyof ScreenerQuery, max: number): string | null | InvalidParameter => {
  const v = q[name]
  if (v === undefined) return null
  return v.length > max ? bad(name, `at most ${max} characters`) : v
}

const intIn = (q: ScreenerQuery, name: keyof ScreenerQuery, min: number, max: number): number | null | InvalidParameter => {
  const v = q[name]
  if (v === undefined) return null
  if (!DECIMAL_DIGITS.test(v)) return bad(name, `an integer from ${min} to ${max} (got '${v}')`)
  const n = Number(v)
  return n < min || n > max ? bad(name, `an integer from ${min} to ${max} (got ${n})`) : n
}

/** The request checked parameter by parameter, or the 422 of the first invalid one. */
export const parseScreen = (q: ScreenerQuery): Screen | InvalidParameter => {
  const texts = {
    q: maxText(q, "q", 200),
    fundFamily: maxText(q, "fund_family", 200),
    investorClass: maxText(q, "investor_class", 100),
    category: maxText(q, "category", 100),
    administrator: maxText(q, "administrator", 200),
  }
  for (const v of Object.values(texts)) if (v instanceof InvalidParameter) return v
  // Closed vocabularies (the words all-funds and tac-changes accept): a value outside them is a
  // mistake to report, not a filter that matches nothing.
  const [familyText, investorClass, category] = [texts.fundFamily, texts.investorClass, texts.category] as Array<string | null>
  let fundFamily: string | null = null
  if (familyText != null) {
    const family = familyOf(familyText)
    if (family === undefined) return bad("fund_family", "an AFM RAR family name (e.g. Accionario eeuu) or its slug")
    fundFamily = family.familyRar
  }
  if (category != null && !isCategory(category)) return bad("category", CATEGORY_RULE)
  if (investorClass != null && !INVESTOR_CLASSES.some((c) => c.toLowerCase() === investorClass.toLowerCase())) {
    return bad("investor_class", `one of ${INVESTOR_CLASSES.join(", ")} (case-insensitive)`)
  }
  let currency: ContractCurrency | null = null
  if (q.currency !== undefined) {
    if (/^(pesos|clp)$/iu.test(q.currency)) currency = "PESOS"
    else if (/^(dolar|usd)$/iu.test(q.currency)) currency = "DOLAR"
    else return bad("currency", "PESOS/CLP or DOLAR/USD")
  }
  const spheresMin = intIn(q, "cmf_spheres_min", 1, 5)
  if (spheresMin instanceof InvalidParameter) return spheresMin
  const spheresMax = intIn(q, "cmf_spheres_max", 1, 5)
  if (spheresMax instanceof InvalidParameter) return spheresMax
  if (spheresMin !== null && spheresMax !== null && spheresMin > spheresMax) {
    return bad("cmf_spheres_min", `must not exceed cmf_spheres_max (${spheresMin} > ${spheresMax})`)
  }
  for (const name of ["cmf_family", "cmf_investor_type"] as const) {
    if (q[name] !== undefined && q[name].trim() === "") return bad(name, "must not be empty")
  }
  const sort = (q.sort ?? "id") as SortKey
  if (!SORT_KEYS.includes(sort)) return bad("sort", `one of ${SORT_KEYS.join(", ")}`)
  const order = q.order ?? "asc"
  if (order !== "asc" && order !== "desc") return bad("order", "asc or desc")
  if ((WINDOWS as ReadonlyArray<string>).includes(sort) && currency === null) {
    return bad("currency", `required to sort by ${sort} (returns compare only within one currency)`)
  }
  if (sort === "cmf_spheres") {
    if (q.cmf_family === undefined) return bad("cmf_family", "required to sort by cmf_spheres")
    if (q.cmf_investor_type === undefined) return bad("cmf_investor_type", "required to sort by cmf_spheres")
  }
  const limit = intIn(q, "limit", 1, 200)
  if (limit instanceof InvalidParameter) return limit
  const offset = intIn(q, "offset", 0, 4_294_967_295)
  if (offset instanceof InvalidParameter) return offset
  return {
    q: texts.q as string | null,
    fundFamily,
    investorClass: investorClass ?? null,
    currency,
    category: category ?? null,
    administrator: texts.administrator as string | null,
    spheresMin,
    spheresMax,
    cmfFamily: q.cmf_family ?? null,
    cmfInvestorType: q.cmf_investor_type ?? null,
    sort,
    order,
    limit: limit ?? 50,
    offset: offset ?? 0,
  }
}

const eqi = (a: string | null, b: string): boolean => a !== null && a.toLowerCase() === b.toLowerCase()

const matches = (s: Screen) => (r: CompareRow): boolean => {
  if (s.q !== null) {
    const needle = s.q.toLowerCase()
    const run = r.run.toLowerCase()
    if (!r.fundName.toLowerCase().includes(needle) && !run.includes(needle) && !run.replace("-", "").includes(needle)) return false
  }
  if (s.fundFamily !== null && !eqi(r.fundFamily, s.fundFamily)) return false
  if (s.investorClass !== null && !eqi(r.investorClass, s.investorClass)) return false
  if (s.currency !== null && r.currency !== s.currency) return false
  if (s.category !== null && !eqi(r.category, s.category)) return false
  if (s.administrator !== null && !r.agf.toLowerCase().includes(s.administrator.toLowerCase())) return false
  if (s.spheresMin !== null && (r.spheresValue === null || r.spheresValue < s.spheresMin)) return false
  if (s.spheresMax !== null && (r.spheresValue === null || r.spheresValue > s.spheresMax)) return false
  if (s.cmfFamily !== null && r.spheres?.family !== s.cmfFamily) return false
  if (s.cmfInvestorType !== null && r.spheres?.investor_type !== s.cmfInvestorType) return false
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
 * How many screener answers a snapshot keeps, per checked request (full size: a 50-row page is
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

/** Every row in the order of one sort key and direction (a total order: stable paging), once per snapshot and grace. */
const ordered = (db: Database.Database, info: BatchInfo, graceWeekdays: number, rows: ReadonlyArray<CompareRow>, s: Screen) =>
  memo(db, `screenerOrder:${info.batchId}:${graceWeekdays}:${s.sort}:${s.order}`, () => [...rows].sort(screenOrder(s.sort, s.order)))

/** The answer's bytes: the matching rows in order (filtering keeps the order), the page cut from them. */
const screenerText = (r: SnapshotReader, lease: Lease, graceWeekdays: number, s: Screen): Buffer => {
  const info = batchInfo(lease.file, lease.contentHash, r.batchDate)
  const rows = compareRows(r.db, dateToInt(r.batchDate), graceWeekdays, info)
  const test = matches(s)
  const page: string[] = []
  let total = 0
  for (const row of ordered(r.db, info, graceWeekdays, rows, s)) {
    if (!test(row)) continue
    if (total >= s.offset && page.length < s.limit) page.push(itemText(row))
    total++
  }
  const meta: ScreenerBody["meta"] = { ...batchMeta(info, rows.length), total, limit: s.limit, offset: s.offset }
  // the shape JSON.stringify gives the ScreenerBody { data, meta }, with each row's text reused
  return Buffer.from(`{"data":[${page.join(",")}],"meta":${JSON.stringify(meta)}}`, "utf8")
}

/**
 * The answer of one checked request is the same for every caller of a batch: kept per snapshot
 * (bounded, least recently used first out) under the checked request, so spellings that mean
 * the same (`currency=clp` and `PESOS`, a default written out) share it. The rows are the
 * universe's with `graceWeekdays` (FDS_SERIES_GRACE_DAYS).
 */
export const screenerAnswer = (
  lease: Lease,
  query: ScreenerQuery,
  graceWeekdays: number,
): Effect.Effect<HttpServerResponse.HttpServerResponse, InvalidParameter | ServiceUnavailable> => {
  const screen = parseScreen(query)
  if (screen instanceof InvalidParameter) return Effect.fail(screen)
  return Effect.flatMap(
    lease.read((r): Buffer | ServiceUnavailable => {
      if (!hasReturns(r.db)) return batchUnavailable()
      return memoLru(r.db, `screenerAnswer:${graceWeekdays}`, JSON.stringify(screen), KEPT_ANSWERS, () =>
        screenerText(r, lease, graceWeekdays, screen),
      )
    }),
    (answer) => (answer instanceof ServiceUnavailable ? Effect.fail(answer) : Effect.succeed(jsonBytes(answer))),
  )
}
