/**
 * The quota merge with a provisional source (the BPR), on a worked example: one series, the cartola
 * for 2026-11-02..04, the BPR for 04 (restated by the cartola: a correction), 05 (a typo, 1e300:
 * left out) and 06 (kept, provisional). Values written by hand.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { CartolaColumns, CartolaInput } from "../../pipeline/datasets/fm/CartolaInput.ts"
import { mergeQuotas } from "../../pipeline/datasets/fm/Quotas.ts"

const series = [{ run: 8001, serie: "A", currencyCode: "$$", agfRut: 96639280, agfName: "AGF" }]
const input = (file: string, rows: Array<[number, number]>, provisional = false): CartolaInput => {
  const n = rows.length
  const columns: CartolaColumns = {
    file,
    series,
    seriesIndex: new Int32Array(n),
    date: Int32Array.from(rows.map((r) => r[0])),
    price: Float64Array.from(rows.map((r) => r[1])),
    patrimony: new Float64Array(n).fill(Number.NaN),
    holders: new Float64Array(n).fill(Number.NaN),
    factorAjuste: new Float64Array(n).fill(Number.NaN),
    factorReparto: new Float64Array(n).fill(Number.NaN),
    unitsSubscribed: new Float64Array(n).fill(Number.NaN),
    unitsRedeemed: new Float64Array(n).fill(Number.NaN),
    line: Int32Array.from(rows.map((_, i) => i + 2)),
    repairs: {},
  }
  return {
    file,
    firstDate: rows[0]![0],
    load: () => columns,
    ...(provisional ? { provisional: { dataSet: "fm_bpr_daily", decimals: 4 } } : {}),
  }
}

describe("provisional values in the quota merge", () => {
  it("the cartola replaces the BPR's day (a correction beyond 4 decimals), an implausible BPR value is left out, a new one kept", () => {
    const cartola = input("ffmm_todos_20261101_20261104.txt", [
      [20261102, 1000.12345],
      [20261103, 1001.5],
      [20261104, 1002.25],
    ])
    const bpr = [
      input("fm_bpr_dia_20261104.xls", [[20261104, 1002.2501]], true), // within 0.00005? no: 0.0001 off
      input("fm_bpr_dia_20261105.xls", [[20261105, 1e300]], true),
      input("fm_bpr_dia_20261106.xls", [[20261106, 1003.0001]], true),
    ]
    const merged = Effect.runSync(mergeQuotas([...bpr, cartola], 20261130))
    expect(Array.from(merged.date)).toEqual([20261102, 20261103, 20261104, 20261106])
    expect(Array.from(merged.price)).toEqual([1000.12345, 1001.5, 1002.25, 1003.0001])
    expect(merged.repairs).toMatchObject({ provisional_rows_replaced: 1, provisional_rows_implausible: 1 })
    expect(merged.corrections).toEqual([
      {
        asset_id: merged.series[0]!.assetId,
        run: 8001,
        serie: "A",
        date: "2026-11-04",
        old: 1002.2501,
        new: 1002.25,
        old_source: "fm_bpr_daily fm_bpr_dia_20261104.xls",
        new_source: "cartola_diaria ffmm_todos_20261101_20261104.txt",
      },
    ])
    expect(merged.series[0]).toMatchObject({ provisionalRows: 1, provisionalFirst: 20261106, provisionalLast: 20261106 })
  })

  it("a BPR value within the BPR's rounding of the cartola's is no correction", () => {
    const cartola = input("c.txt", [[20261104, 1002.25004]])
    const merged = Effect.runSync(mergeQuotas([input("b.xls", [[20261104, 1002.25]], true), cartola], 20261130))
    expect(merged.corrections).toEqual([])
    expect(Array.from(merged.price)).toEqual([1002.25004])
    expect(merged.series[0]).toMatchObject({ provisionalRows: 0 })
  })
})
