/**
 * Merges the daily values of every cartola input into one table grouped by series (ordered by
 * asset id) with ascending dates: rows after the batch date are left out, exact duplicates across
 * files are dropped and counted, and the same series and date with different values rejects the
 * batch, naming both files and lines.
 */
import { Effect } from "effect"
import { assetId } from "../../schemas/Ids.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../sources/CmfFileInvalid.ts"
import type { CartolaColumns, CartolaSeriesInfo } from "./CartolaColumns.ts"

export interface StagedSeries extends CartolaSeriesInfo {
  readonly assetId: number
  /** Rows [start, end) of the merged columns. */
  readonly start: number
  readonly end: number
}

export interface StagedQuotas {
  readonly series: ReadonlyArray<StagedSeries>
  readonly date: Int32Array
  readonly price: Float64Array
  readonly patrimony: Float64Array
  readonly holders: Float64Array
  readonly factorAjuste: Float64Array
  readonly factorReparto: Float64Array
  readonly repairs: Record<string, number>
}

const same = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b))

export const mergeQuotas = (
  inputs: ReadonlyArray<CartolaColumns>,
  cutoff: number,
  /** Renamed series: "RUN|OLD LABEL" → new label; the old label's rows join the new series. */
  relabel: ReadonlyMap<string, string> = new Map(),
): Effect.Effect<StagedQuotas, CmfFileInvalid> =>
  Effect.suspend(() => {
    // Files in date order, so that rows mostly arrive sorted within each series.
    const files = [...inputs].sort((a, b) => (a.date[0] ?? 0) - (b.date[0] ?? 0) || (a.file < b.file ? -1 : 1))
    const globalOf = new Map<string, number>()
    const infos: CartolaSeriesInfo[] = []
    const maps = files.map((f) =>
      f.series.map((original) => {
        const renamed = relabel.get(`${original.run}|${original.serie}`)
        const s = renamed === undefined ? original : { ...original, serie: renamed }
        const key = `${s.run}|${s.serie}`
        let g = globalOf.get(key)
        if (g === undefined) {
          g = infos.length
          globalOf.set(key, g)
          infos.push(s)
        } else if (renamed === undefined) {
          infos[g] = s // the current label's own row describes the series best
        }
        return g
      }),
    )
    let afterCutoff = 0
    const counts = new Int32Array(infos.length)
    files.forEach((f, fi) => {
      for (let i = 0; i < f.date.length; i++) {
        if (f.date[i]! > cutoff) afterCutoff++
        else counts[maps[fi]![f.seriesIndex[i]!]!]!++
      }
    })
    const offsets = new Int32Array(infos.length + 1)
    for (let g = 0; g < infos.length; g++) offsets[g + 1] = offsets[g]! + counts[g]!
    const total = offsets[infos.length]!
    const cols = {
      date: new Int32Array(total),
      price: new Float64Array(total),
      patrimony: new Float64Array(total),
      holders: new Float64Array(total),
      factorAjuste: new Float64Array(total),
      factorReparto: new Float64Array(total),
    }
    const fileOf = new Int32Array(total)
    const lineOf = new Int32Array(total)
    const fill = offsets.slice(0, infos.length)
    files.forEach((f, fi) => {
      for (let i = 0; i < f.date.length; i++) {
        if (f.date[i]! > cutoff) continue
        const at = fill[maps[fi]![f.seriesIndex[i]!]!]!++
        cols.date[at] = f.date[i]!
        cols.price[at] = f.price[i]!
        cols.patrimony[at] = f.patrimony[i]!
        cols.holders[at] = f.holders[i]!
        cols.factorAjuste[at] = f.factorAjuste[i]!
        cols.factorReparto[at] = f.factorReparto[i]!
        fileOf[at] = fi
        lineOf[at] = f.line[i]!
      }
    })

    // Per series: sort by date when needed, then drop exact duplicates and catch conflicts,
    // compacting in place.
    const keep = new Uint8Array(total).fill(1)
    let duplicates = 0
    for (let g = 0; g < infos.length; g++) {
      const from = offsets[g]!
      const to = offsets[g + 1]!
      let sorted = true
      for (let i = from + 1; i < to && sorted; i++) if (cols.date[i]! < cols.date[i - 1]!) sorted = false
      if (!sorted) sortSegment(from, to, cols, fileOf, lineOf)
      for (let i = from + 1; i < to; i++) {
        if (cols.date[i] !== cols.date[i - 1]) continue
        const p = i - 1
        const identical =
          same(cols.price[i]!, cols.price[p]!) &&
          same(cols.patrimony[i]!, cols.patrimony[p]!) &&
          same(cols.holders[i]!, cols.holders[p]!) &&
          same(cols.factorAjuste[i]!, cols.factorAjuste[p]!) &&
          same(cols.factorReparto[i]!, cols.factorReparto[p]!)
        if (!identical) {
          const info = infos[g]!
          return Effect.fail(
            cmfFileInvalid({
              dataSet: "cartola_diaria",
              file: files[fileOf[i]!]!.file,
              line: lineOf[i]!,
              field: "VALOR_CUOTA",
              detail: `RUN_FM ${info.run} SERIE ${info.serie} on ${cols.date[i]} conflicts with ${files[fileOf[p]!]!.file} line ${lineOf[p]}`,
            }),
          )
        }
        keep[i] = 0
        duplicates++
      }
    }

    // Compact and order series by asset id.
    const order = infos.map((info, g) => ({ g, id: assetId(info.run, info.serie) })).sort((a, b) => a.id - b.id)
    const out = {
      date: new Int32Array(total - duplicates),
      price: new Float64Array(total - duplicates),
      patrimony: new Float64Array(total - duplicates),
      holders: new Float64Array(total - duplicates),
      factorAjuste: new Float64Array(total - duplicates),
      factorReparto: new Float64Array(total - duplicates),
    }
    const series: StagedSeries[] = []
    let w = 0
    for (const { g, id } of order) {
      const start = w
      for (let i = offsets[g]!; i < offsets[g + 1]!; i++) {
        if (keep[i] === 0) continue
        out.date[w] = cols.date[i]!
        out.price[w] = cols.price[i]!
        out.patrimony[w] = cols.patrimony[i]!
        out.holders[w] = cols.holders[i]!
        out.factorAjuste[w] = cols.factorAjuste[i]!
        out.factorReparto[w] = cols.factorReparto[i]!
        w++
      }
      if (w > start) series.push({ ...infos[g]!, assetId: id, start, end: w })
    }
    for (let k = 1; k < series.length; k++) {
      if (series[k]!.assetId === series[k - 1]!.assetId) {
        const a = series[k - 1]!
        const b = series[k]!
        return Effect.fail(
          cmfFileInvalid({
            dataSet: "cartola_diaria",
            file: files[0]!.file,
            line: 0,
            field: "SERIE",
            detail: `series id collision between RUN ${a.run} ${a.serie} and RUN ${b.run} ${b.serie}`,
          }),
        )
      }
    }
    return Effect.succeed({
      series,
      ...out,
      repairs: { duplicate_rows_across_files: duplicates, rows_after_batch_date: afterCutoff },
    })
  })

/** Sorts rows [from, to) by date, carrying every column along (rare: files out of date order). */
const sortSegment = (
  from: number,
  to: number,
  cols: Record<"date" | "price" | "patrimony" | "holders" | "factorAjuste" | "factorReparto", Int32Array | Float64Array>,
  fileOf: Int32Array,
  lineOf: Int32Array,
): void => {
  const idx = Array.from({ length: to - from }, (_, k) => from + k).sort(
    (a, b) => cols.date[a]! - cols.date[b]! || fileOf[a]! - fileOf[b]!,
  )
  for (const arr of [...Object.values(cols), fileOf, lineOf]) {
    const copy = idx.map((i) => arr[i]!)
    for (let k = 0; k < copy.length; k++) arr[from + k] = copy[k]!
  }
}
