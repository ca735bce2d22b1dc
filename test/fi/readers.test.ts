/**
 * The reusable FI readers on the fixture snapshot, read directly (what /api/all-funds FI rows and
 * FI ids on /api/real_assets/* call): the UUID resolver, the book-value history, the cutoff.
 */
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { latestHoldingsPeriod } from "../../api/fi/FiHoldings.ts"
import { mainSeries, resolveFiSeries } from "../../api/fi/FiResolver.ts"
import { SnapshotReader } from "../../snapshots/Reader.ts"
import { bookValueAfter, bookValueOnOrBefore, bookValues } from "../../snapshots/readers/FiBookValues.ts"
import { fiCatalog, fiCutoff } from "../../snapshots/readers/FiCatalog.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"
import { makeFiFixture } from "./fiFixture.ts"
import { testInstrumentId, testSerieId } from "./fiIds.ts"

const fx = makeFiFixture()
const reader = new SnapshotReader(join(fx.snapshotsDir, fx.file))
afterAll(() => {
  reader.close()
  fx.cleanup()
})

describe("resolveFiSeries", () => {
  it("resolves a serie UUID to that series and its instrument", () => {
    const r = resolveFiSeries(reader, testSerieId(9251, "I"))
    expect(r?.requested).toBe("serie")
    expect(r?.serie).toMatchObject({ serie_id: testSerieId(9251, "I"), serie: "I", currency: "CLP", run: 9251 })
    expect(r?.instrument).toMatchObject({ instrument_id: testInstrumentId(9251), run: 9251 })
  })

  it("resolves an instrument UUID to its main series: latest value, then patrimony, then label", () => {
    expect(resolveFiSeries(reader, testInstrumentId(9251))).toMatchObject({ requested: "instrument", serie: { serie: "A" } })
    expect(resolveFiSeries(reader, testInstrumentId(7030))?.serie?.serie).toBe("B")
    expect(resolveFiSeries(reader, testInstrumentId(7010))?.serie).toMatchObject({ serie: "UNICA", currency: "COP" })
    expect(mainSeries(reader, testInstrumentId(7003))?.serie_id).toBe(testSerieId(7003, "UNICA"))
  })

  it("resolves an instrument without series to serie null", () => {
    expect(resolveFiSeries(reader, testInstrumentId(7020))).toMatchObject({ requested: "instrument", serie: null })
  })

  it("ignores letter case and gives undefined for anything not published", () => {
    expect(resolveFiSeries(reader, testSerieId(7003, "UNICA").toUpperCase())?.serie?.serie).toBe("UNICA")
    expect(resolveFiSeries(reader, testInstrumentId(1234))).toBeUndefined()
    expect(resolveFiSeries(reader, testSerieId(9251, "B"))).toBeUndefined()
    expect(resolveFiSeries(reader, String(testCrc32("fm:8043:A")))).toBeUndefined()
    expect(resolveFiSeries(reader, "")).toBeUndefined()
  })
})

describe("book-value history", () => {
  const a = testSerieId(9251, "A")

  it("reads a series ascending, bounds inclusive (YYYYMMDD)", () => {
    expect(bookValues(reader, a).map((p) => [p.date, p.book_value])).toEqual([
      [20260202, 10500.25],
      [20260203, 10501.5],
      [20260204, 10502.75],
      [20260205, 10504],
      [20260206, 10505.25],
    ])
    expect(bookValues(reader, a, 20260203, 20260204).map((p) => p.date)).toEqual([20260203, 20260204])
    expect(bookValues(reader, testSerieId(9251, "Z"))).toEqual([])
  })

  it("finds the value on or before a date, and the first after one", () => {
    expect(bookValueOnOrBefore(reader, testSerieId(9251, "I"), 20260205)?.date).toBe(20260203)
    expect(bookValueOnOrBefore(reader, testSerieId(9251, "I"))?.book_value).toBe(10803.25)
    expect(bookValueOnOrBefore(reader, a, 20260101)).toBeUndefined()
    expect(bookValueAfter(reader, a, 20260203)?.date).toBe(20260204)
    expect(bookValueAfter(reader, a, 20260206)).toBeUndefined()
  })
})

describe("catalog", () => {
  it("has the shared FI cutoff: the latest book-value date of any instrument", () => {
    expect(fiCutoff(reader)).toBe("2026-02-06")
    expect(fiCatalog(reader).availability).toEqual({ available: true })
  })

  it("memoises per snapshot: the same catalog object on every call", () => {
    expect(fiCatalog(reader)).toBe(fiCatalog(reader))
  })

  it("finds a fund's latest portfolio period, or null", () => {
    expect(latestHoldingsPeriod(reader, 9251)).toBe("2025-09")
    expect(latestHoldingsPeriod(reader, 7010)).toBeNull()
  })
})
