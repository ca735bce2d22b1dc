/**
 * The comparison of two snapshot files (snapshots/changes/), on two hand-made batches
 * (changesFixture.ts): the whole feed equals the changes listed below, worked out by hand from the
 * fixture's rows (RUN check digits by módulo 11: 8043-8, 8106-K, 8500-6, 9105-7, 9200-2, 9251-7);
 * paging by any limit and scan budget gives each item exactly once, in the same order.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ChangeItem } from "../../schemas/Changes.ts"
import { BatchPair } from "../../snapshots/changes/BatchPair.ts"
import { changesPage, SECTION_COUNT } from "../../snapshots/changes/Changes.ts"
import type { ChangesOptions } from "../../snapshots/changes/ChangesOptions.ts"
import { differingRanges, identicalParts, NOTHING_IDENTICAL } from "../../snapshots/changes/Identical.ts"
import { decodeCursor, encodeCursor, type Position, START } from "../../snapshots/changes/Position.ts"
import { ALFA, asset, batchA, batchB, concept, FI, GAMMA, provider, writeBatch } from "./changesFixture.ts"

let work = ""
let fileA = ""
let fileB = ""
let partsA: ReturnType<typeof writeBatch>["parts"]
let partsB: ReturnType<typeof writeBatch>["parts"]

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "fds-changes-"))
  ;({ path: fileA, parts: partsA } = writeBatch(work, batchA()))
  ;({ path: fileB, parts: partsB } = writeBatch(work, batchB()))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

const registry = (entity: string, id: string | number, change: "added" | "removed" | "changed", field: string | null, old: unknown, next: unknown) => ({
  id: `registry_changed:${entity}:${id}:${field ?? change}`,
  type: "registry_changed",
  attributes: { entity, entity_id: String(id), change, field, old, new: next },
})

const lifecycle = (
  type: string,
  vehicle: string,
  id: string | number,
  fundId: string | number,
  run: string,
  serie: string,
  first: string,
  last: string,
) => ({
  id: `${type}:${id}`,
  type,
  attributes: { vehicle, asset_id: String(id), fund_id: String(fundId), run, serie, first_date: first, last_date: last },
})

const restated = (vehicle: string, id: string | number, date: string, old: number | null, next: number | null, oldSource: string | null, newSource: string | null) => ({
  id: `value_restated:${id}:${date}`,
  type: "value_restated",
  attributes: { vehicle, asset_id: String(id), date, old, new: next, old_source: oldSource, new_source: newSource },
})

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
/** Per-series sections are ordered by series id (FM: as numbers), then date or month. */
const byAsset = (a: { attributes: { asset_id: string } }, b: { attributes: { asset_id: string } }) =>
  Number(a.attributes.asset_id) - Number(b.attributes.asset_id)

/** Every change from batch A to batch B, in the feed's order, with the grace rule at 3 weekdays. */
const expectedChanges = () => [
  // 0: registry, by id
  ...[
    registry("administrator", provider(ALFA), "changed", "name", "Alfa AGF S.A.", "Alfa Administradora General de Fondos S.A."),
    registry("administrator", provider(GAMMA), "added", null, null, "Gamma AGF S.A."),
    registry("fund", concept(8043), "changed", "name", "Fondo Mutuo Alfa Ahorro", "Fondo Mutuo Alfa Ahorro Plus"),
    registry("fund", concept(8106), "changed", "end_date", null, "2026-03-10"),
    registry("fund", concept(8106), "changed", "is_current", true, false),
    registry("fund", concept(9200), "added", null, null, "Fondo Mutuo Gamma Nuevo"),
    registry("fund", concept(8500), "removed", null, "Fondo Mutuo Beta Cerrado", null),
    registry("series", asset(9105, "A"), "changed", "first_date", "2026-03-02", "2026-02-27"),
    registry("fi_instrument", FI.dos, "changed", "status", "active", "inactive"),
  ].sort(byId),
  // 1: series, by id
  ...[
    lifecycle("series_appeared", "mutual_fund", asset(9200, "A"), concept(9200), "9200-2", "A", "2026-03-09", "2026-03-13"),
    lifecycle("series_appeared", "investment_fund", FI.unoB, FI.uno, "9251-7", "B", "2026-03-09", "2026-03-13"),
    lifecycle("series_removed", "mutual_fund", asset(8500, "A"), concept(8500), "8500-6", "A", "2026-03-02", "2026-03-06"),
    {
      id: `series_renamed:${asset(9105, "BPRIV")}`,
      type: "series_renamed",
      attributes: {
        vehicle: "mutual_fund",
        asset_id: String(asset(9105, "BPRIV")),
        previous_asset_id: String(asset(9105, "B")),
        run: "9105-7",
        previous_serie: "B",
        current_serie: "BPRIV",
        first_current_date: "2026-03-09",
      },
    },
    // stops at 03-06: 5 weekdays without a value by 03-13, more than 3
    lifecycle("series_ended", "mutual_fund", asset(8043, "APV"), concept(8043), "8043-8", "APV", "2026-03-02", "2026-03-06"),
    // its fund ended on 03-10
    lifecycle("series_ended", "mutual_fund", asset(8106, "A"), concept(8106), "8106-K", "A", "2026-03-02", "2026-03-10"),
    // 10 weekdays without a value by 03-06 (ended in A), quoting again in B
    lifecycle("series_resumed", "mutual_fund", asset(8043, "I"), concept(8043), "8043-8", "I", "2026-02-16", "2026-03-13"),
  ].sort(byId),
  // 2: FM TAC, by series then month (2026-02 is after A's months: new, not a change)
  ...[
    { id: `tac_changed:${asset(8043, "A")}:2026-01`, type: "tac_changed", attributes: { vehicle: "mutual_fund", asset_id: String(asset(8043, "A")), month: "2026-01", old: 0.0133, new: 0.0135 } },
    { id: `tac_changed:${asset(8043, "B")}:2025-12`, type: "tac_changed", attributes: { vehicle: "mutual_fund", asset_id: String(asset(8043, "B")), month: "2025-12", old: 0.011, new: null } },
  ].sort(byAsset),
  // 3: FI/ETF fact sheets
  { id: `tac_changed:${FI.dosUnica}`, type: "tac_changed", attributes: { vehicle: "etf", asset_id: FI.dosUnica, month: null, old: 0.005, new: 0.0045 } },
  // 4: FM daily values, by series then date
  ...[
    [restated("mutual_fund", asset(8043, "A"), "2026-03-04", 1002, 1002.5, "bpr", "cartola")],
    [
      restated("mutual_fund", asset(8043, "B"), "2026-03-04", null, 2500.75, null, "cartola"),
      restated("mutual_fund", asset(8043, "B"), "2026-03-05", 2501.5, null, "cartola", null),
    ],
    [restated("mutual_fund", asset(8106, "A"), "2026-03-04", 2998, 2998.5, null, "cartola")],
    [restated("mutual_fund", asset(9105, "BPRIV"), "2026-03-03", 1.2345, 1.235, "cartola", "cartola")],
  ]
    .sort((a, b) => byAsset(a[0]!, b[0]!))
    .flat(),
  // 5: FI/ETF book values
  restated("investment_fund", FI.unoUnica, "2026-03-05", 10500.75, 10501.25, "cmf", "cmf"),
]

const page = (pair: BatchPair, start: Position, options: ChangesOptions) => {
  const run = changesPage(pair, start, options)
  for (;;) {
    const step = run.next()
    if (step.done === true) return step.value
  }
}

/** Every page from the start: the items of each. */
const allPages = (pair: BatchPair, options: ChangesOptions): ChangeItem[][] => {
  const pages: ChangeItem[][] = []
  let at: Position | null = START
  while (at !== null) {
    const p = page(pair, at, options)
    pages.push([...p.items])
    at = p.next
    if (pages.length > 1000) throw new Error("no end")
  }
  return pages
}

describe("the changes between two batches", () => {
  it("lists every change, worked out by hand, in the feed's order", () => {
    const pair = new BatchPair(fileA, fileB)
    try {
      expect(pair.from.batchDate).toBe("2026-03-06")
      expect(pair.to.batchDate).toBe("2026-03-13")
      const result = page(pair, START, { limit: 1000, scanBudget: 1e9, graceWeekdays: 3 })
      expect(result.next).toBeNull()
      expect(result.items).toEqual(expectedChanges())
    } finally {
      pair.close()
    }
  })

  it("with the default grace (10 weekdays) the series that only stopped quoting is neither ended nor resumed", () => {
    const pair = new BatchPair(fileA, fileB)
    try {
      const types = page(pair, START, { limit: 1000, scanBudget: 1e9, graceWeekdays: 10 }).items.filter((i) => i.type === "series_ended" || i.type === "series_resumed")
      expect(types.map((i) => i.id)).toEqual([`series_ended:${asset(8106, "A")}`])
    } finally {
      pair.close()
    }
  })

  it("pages of any size and scan budget give each change once, in the same order", () => {
    const pair = new BatchPair(fileA, fileB)
    try {
      const expected = expectedChanges()
      for (const limit of [1, 2, 3, 5, 100]) {
        for (const scanBudget of [1, 8, 1e9]) {
          const pages = allPages(pair, { limit, scanBudget, graceWeekdays: 3 })
          expect(pages.flat(), `limit ${limit}, budget ${scanBudget}`).toEqual(expected)
          for (const p of pages) expect(p.length).toBeLessThanOrEqual(limit)
        }
      }
      // The budget ends pages early: with room for everything, one page; with a budget of one row, a page per series compared.
      expect(allPages(pair, { limit: 100, scanBudget: 1e9, graceWeekdays: 3 })).toHaveLength(1)
      expect(allPages(pair, { limit: 100, scanBudget: 1, graceWeekdays: 3 }).length).toBeGreaterThan(5)
    } finally {
      pair.close()
    }
  })

  it("a batch compared with itself has no changes", () => {
    const pair = new BatchPair(fileB, fileB)
    try {
      expect(page(pair, START, { limit: 10, scanBudget: 1e9, graceWeekdays: 3 })).toEqual({ items: [], next: null })
    } finally {
      pair.close()
    }
  })

  it("refuses a missing file and opens both files read-only", () => {
    expect(() => new BatchPair(join(work, "none.sqlite"), fileB)).toThrow(/snapshot file missing/)
    const pair = new BatchPair(fileA, fileB)
    try {
      expect(() => pair.db.exec("CREATE TABLE x (y)")).toThrow(/readonly/)
      expect(() => pair.db.exec("CREATE TABLE prior.x (y)")).toThrow(/readonly/)
    } finally {
      pair.close()
    }
  })
})

describe("what the manifests say is identical is not compared", () => {
  it("the months and tables whose digests are equal in both manifests", () => {
    const identical = identicalParts(partsA, partsB)
    // January's quota rows are the same (8043 A alone has January values); February and March differ
    expect([...identical.quotaMonths]).toEqual(["202601"])
    // every table the fixture fills differs; the empty ones are the same
    for (const table of ["quotas", "tac", "fi_prices", "fi_fact_sheets", "funds", "series", "meta"]) expect(identical.tables.has(table), table).toBe(false)
    for (const table of ["fm_holdings", "article107", "indicators", "benchmark_prices"]) expect(identical.tables.has(table), table).toBe(true)
  })

  it("digests that do not make up the manifest's content hash, or none, make nothing identical", () => {
    const tampered = { ...partsB, quota_month_digests: { ...partsB.quota_month_digests, "202601": "0".repeat(64) } }
    expect(identicalParts(partsA, tampered)).toEqual(NOTHING_IDENTICAL)
    expect(identicalParts(partsA, { ...partsB, content_hash: "f".repeat(64) })).toEqual(NOTHING_IDENTICAL)
    const { table_digests: _, ...older } = partsA
    expect(identicalParts(older, partsB)).toEqual(NOTHING_IDENTICAL)
  })

  it("gives the same feed with the true digests; months or tables said identical are not read", () => {
    const pair = new BatchPair(fileA, fileB)
    try {
      const options = { limit: 1000, scanBudget: 1e9, graceWeekdays: 3 }
      expect(page(pair, START, { ...options, identical: identicalParts(partsA, partsB) }).items).toEqual(expectedChanges())
      // said identical (wrongly, on purpose): March's values and the TAC are not compared, so their changes are not found
      const skipped = page(pair, START, { ...options, identical: { tables: new Set(["tac", "fi_prices"]), quotaMonths: new Set(["202603"]) } }).items
      expect(skipped.filter((i) => i.type === "value_restated")).toEqual([])
      expect(skipped.filter((i) => i.type === "tac_changed").map((i) => i.id)).toEqual([`tac_changed:${FI.dosUnica}`])
      expect(skipped.filter((i) => i.type !== "value_restated" && i.type !== "tac_changed")).toEqual(
        expectedChanges().filter((i) => i.type !== "value_restated" && i.type !== "tac_changed"),
      )
    } finally {
      pair.close()
    }
  })

  it("the differing parts of a date range: the months not identical, consecutive ones joined", () => {
    expect(differingRanges(20260105, 20260320, new Set())).toEqual([[20260105, 20260320]])
    expect(differingRanges(20260105, 20260320, new Set(["202602"]))).toEqual([
      [20260105, 20260131],
      [20260301, 20260320],
    ])
    expect(differingRanges(20251215, 20260210, new Set(["202601", "202512"]))).toEqual([[20260201, 20260210]])
    expect(differingRanges(20251215, 20260210, new Set(["202511"]))).toEqual([[20251215, 20260210]])
    expect(differingRanges(20260105, 20260120, new Set(["202601"]))).toEqual([])
  })
})

describe("cursors", () => {
  it("encode a position with its pair; anything else decodes to nothing", () => {
    const cursor = { fromBatch: "2026-03-06-0123456789abcdef", toBatch: "2026-03-13-fedcba9876543210", position: { section: 4, key: 123, after: 20260304 } }
    const text = encodeCursor(cursor)
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(text, SECTION_COUNT)).toEqual(cursor)
    expect(decodeCursor(encodeCursor({ ...cursor, position: { section: 1, key: null, after: "series_ended:1" } }), SECTION_COUNT)?.position).toEqual({
      section: 1,
      key: null,
      after: "series_ended:1",
    })
    for (const bad of ["", "x", `${text}=`, text.slice(0, -2), Buffer.from('["a","b",9,null,null]').toString("base64url"), Buffer.from('["a","b",1.5,null,null]').toString("base64url"), Buffer.from('{"a":1}').toString("base64url")]) {
      expect(decodeCursor(bad, SECTION_COUNT), bad).toBeNull()
    }
  })
})
