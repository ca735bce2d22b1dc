/**
 * The quota merge a chunk of series at a time (pipeline/datasets/fm/Quotas.ts): whatever the chunk
 * size, the sink gets the same series, in asset-id order, with the same rows, repairs and
 * corrections as one chunk holding everything; a chunk never holds more rows than its size (or
 * one series). Files in and out of date order, rows repeated across files, a renamed label.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { CartolaColumns, CartolaInput, CartolaSeriesInfo } from "../../pipeline/datasets/fm/CartolaInput.ts"
import { mergeQuotasInto, type QuotaColumns, type StagedSeries } from "../../pipeline/datasets/fm/Quotas.ts"
import { assetId } from "../../schemas/Ids.ts"

const info = (run: number, serie: string): CartolaSeriesInfo => ({ run, serie, currencyCode: "$$", agfRut: 96639280, agfName: "AGF" })

/** A cartola file of rows [series index, date, price]. */
const file = (name: string, series: ReadonlyArray<CartolaSeriesInfo>, rows: ReadonlyArray<readonly [number, number, number]>): CartolaInput => {
  const n = rows.length
  const columns: CartolaColumns = {
    file: name,
    series,
    seriesIndex: Int32Array.from(rows.map((r) => r[0])),
    date: Int32Array.from(rows.map((r) => r[1])),
    price: Float64Array.from(rows.map((r) => r[2])),
    patrimony: Float64Array.from(rows.map((r) => r[2] * 1000)),
    holders: new Float64Array(n).fill(Number.NaN),
    factorAjuste: new Float64Array(n).fill(Number.NaN),
    factorReparto: new Float64Array(n).fill(Number.NaN),
    unitsSubscribed: new Float64Array(n).fill(Number.NaN),
    unitsRedeemed: new Float64Array(n).fill(Number.NaN),
    line: Int32Array.from(rows.map((_, i) => i + 2)),
    repairs: {},
  }
  return { file: name, firstDate: Math.min(...rows.map((r) => r[1])), load: () => columns }
}

const A = info(8001, "A")
const B = info(8001, "B")
const C = info(8002, "UNICA")
const OLD = info(8002, "VIEJA")
const inputs = [
  file("october.txt", [A, B, C], [
    [0, 20261001, 10],
    [1, 20261001, 20],
    [2, 20261001, 30],
    [0, 20261002, 11],
    [2, 20261002, 31],
    [1, 20261002, 21],
  ]),
  // out of date order within the file, and October 2nd again (identical: a duplicate)
  file("november.txt", [B, A], [
    [0, 20261103, 12.5],
    [1, 20261102, 12],
    [1, 20261002, 11],
    [0, 20261102, 22],
  ]),
  // the old label of C, renamed: its rows join C
  file("old-label.txt", [OLD], [[0, 20261103, 32]]),
]
const relabel = new Map([["8002|VIEJA", "UNICA"]])

const merged = (chunkRows: number) => {
  const got: Array<{ series: Omit<StagedSeries, "start" | "end">; dates: number[]; prices: number[] }> = []
  let largest = 0
  const sink = (s: StagedSeries, c: QuotaColumns) => {
    const { start, end, ...series } = s
    largest = Math.max(largest, c.date.length)
    got.push({ series, dates: [...c.date.subarray(start, end)], prices: [...c.price.subarray(start, end)] })
  }
  const result = Effect.runSync(mergeQuotasInto(inputs, 20261130, relabel, null, sink, chunkRows))
  return { got, result, largest }
}

describe("the quota merge in chunks", () => {
  it("gives every chunk size the one-chunk merge, series in asset-id order", () => {
    const whole = merged(1_000)
    expect(whole.got.map((g) => g.series.assetId)).toEqual([A, B, C].map((s) => assetId(s.run, s.serie)).sort((x, y) => x - y))
    const a = whole.got.find((g) => g.series.assetId === assetId(8001, "A"))!
    expect(a.dates).toEqual([20261001, 20261002, 20261102])
    expect(a.prices).toEqual([10, 11, 12])
    const c = whole.got.find((g) => g.series.assetId === assetId(8002, "UNICA"))!
    expect(c.dates).toEqual([20261001, 20261002, 20261103])
    const b = whole.got.find((g) => g.series.assetId === assetId(8001, "B"))!
    expect(b.dates).toEqual([20261001, 20261002, 20261102, 20261103])
    expect(whole.result.repairs).toMatchObject({ duplicate_rows_across_files: 1 })
    for (const size of [1, 2, 3, 4, 5, 7]) {
      const chunked = merged(size)
      expect(chunked.got).toEqual(whole.got)
      expect(chunked.result).toEqual(whole.result)
      // a chunk's buffer: at most `size` rows, or the largest series (4 rows counted before de-duplication)
      expect(chunked.largest).toBeLessThanOrEqual(Math.max(size, 4))
    }
  })
})
