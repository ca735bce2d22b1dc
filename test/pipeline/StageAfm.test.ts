/** The AFM classification's date a batch carries (meta afm_report_date, shown by the market summary). */
import { crc32 } from "node:zlib"
import { describe, expect, it } from "vitest"
import { stageAfm } from "../../pipeline/datasets/market/AfmCategories.ts"
import type { AfmCategoryRecord } from "../../pipeline/datasets/market/AfmCategories.ts"

// asset_id = crc32("fm:<RUN>:<SERIE>"), computed here on its own
const id = (run: number, serie: string) => crc32(`fm:${run}:${serie}`)
const record = (line: number, run: number, serie: string, category: AfmCategoryRecord["category"], date: string): AfmCategoryRecord => ({
  line,
  run,
  serie,
  category,
  currency: "PESOS",
  date,
})

describe("stageAfm: the classification's date", () => {
  it("is the latest date among the rows it keeps (not those of unclassified or unknown series)", () => {
    const known = new Set([id(8043, "A"), id(9105, "A"), id(9106, "A")])
    const staged = stageAfm(
      [
        record(2, 8043, "A", "FDOACCNACLC", "2026-09-30"),
        record(3, 9105, "A", "FDOACCNACLC", "2026-10-31"),
        record(4, 9106, "A", null, "2026-12-31"), // S/C: not kept
        record(5, 7777, "A", "FDOACCEEUU", "2027-01-31"), // a series the batch does not have: not kept
      ],
      known,
      new Map(),
    )
    expect(staged.rows.map((r) => r.asset_id)).toEqual([id(8043, "A"), id(9105, "A")].sort((a, b) => a - b))
    expect(staged.reportDate).toBe("2026-10-31")
    expect(staged.repairs).toEqual({ afm_unclassified: 1, afm_unknown_series: 1 })
  })

  it("is null when no row is kept", () => {
    expect(stageAfm([record(2, 8043, "A", null, "2026-09-30")], new Set([id(8043, "A")]), new Map()).reportDate).toBeNull()
  })
})
