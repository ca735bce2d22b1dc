/**
 * Merges the daily values of every cartola input into one table grouped by series (ordered by
 * asset id) with ascending dates: rows after the batch date are left out, exact duplicates across
 * files are dropped and counted, and the same series and date with different values rejects the
 * batch, naming both files and lines. Series are merged a chunk of them at a time and handed to a
 * sink (the snapshot writer) as they are done, so the history is never in memory whole.
 */
import { Effect } from "effect"
import { intToDate } from "../../../schemas/Dates.ts"
import { assetId } from "../../../schemas/Ids.ts"
import type { QuotaCorrection } from "../../../snapshots/Manifest.ts"
import { type CmfFileInvalid, cmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import { printableName } from "../../cmf/PrintableName.ts"
import type { CartolaColumns, CartolaInput, CartolaSeriesInfo } from "./CartolaInput.ts"

export interface StagedSeries extends CartolaSeriesInfo {
  readonly assetId: number
  /** Rows [start, end) of the columns it comes with. */
  readonly start: number
  readonly end: number
  /** Rows valued from a provisional source (the BPR) alone, with their first and last dates (YYYYMMDD; 0 when none). */
  readonly provisionalRows: number
  readonly provisionalFirst: number
  readonly provisionalLast: number
}


export type { QuotaCorrection }

/** The whole merge in memory (`mergeQuotas`: tests and small inputs). */
export interface StagedQuotas {
  readonly series: ReadonlyArray<StagedSeries>
  readonly date: Int32Array
  readonly price: Float64Array
  readonly patrimony: Float64Array
  readonly holders: Float64Array
  readonly factorAjuste: Float64Array
  readonly factorReparto: Float64Array
  readonly unitsSubscribed: Float64Array
  readonly unitsRedeemed: Float64Array
  readonly repairs: Record<string, number>
  readonly corrections: ReadonlyArray<QuotaCorrection>
  /** Every series the inputs name (rows or not), by asset id, with the info the merge settled on. */
  readonly seen: ReadonlyMap<number, CartolaSeriesInfo>
}

/**
 * A merge of the rows from `from` on only (the daily increment, pipeline/increment/Increment.ts): rows dated
 * before it are left out, files whose rows all are (by their summary) are read for their series
 * alone, and a provisional value is judged against the series' last value before `from` (`seed`,
 * by asset id) when the region holds none before it.
 */
export interface MergeRegion {
  /** YYYYMMDD */
  readonly from: number
  readonly seed: ReadonlyMap<number, number>
}

/** The largest day-over-day ratio (either way) a provisional value may show against the series' previous value. */
export const PROVISIONAL_JUMP = 1.5

const same = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b))

/** The columns of merged quota rows (NaN = null). */
export interface QuotaColumns {
  readonly date: Int32Array
  readonly price: Float64Array
  readonly patrimony: Float64Array
  readonly holders: Float64Array
  readonly factorAjuste: Float64Array
  readonly factorReparto: Float64Array
  /** CUOTAS_APORTADAS and CUOTAS_RESCATADAS (NaN when not reported). */
  readonly unitsSubscribed: Float64Array
  readonly unitsRedeemed: Float64Array
}

/** A merged series as the sink gets it: its rows are [start, end) of the columns it comes with. */
export type QuotaSink = (series: StagedSeries, columns: QuotaColumns) => void

/** What the merge settles besides the rows: every series with rows (asset-id order), counters, corrections, the series seen. */
export interface MergedQuotas {
  readonly series: ReadonlyArray<MergedSeries>
  readonly repairs: Record<string, number>
  readonly corrections: ReadonlyArray<QuotaCorrection>
  readonly seen: ReadonlyMap<number, CartolaSeriesInfo>
}

/** A merged series: its rows, first and last dates (YYYYMMDD) and what came from a provisional source. */
export interface MergedSeries extends Omit<StagedSeries, "start" | "end"> {
  readonly rows: number
  readonly firstDate: number
  readonly lastDate: number
}

/**
 * Rows the merge holds at once, over all columns (~52 B a row: ~130 MB): series are merged a group
 * at a time, in asset-id order, each group's rows read from every file; a group is at most this
 * many rows (or one series). At market scale (9.3M rows) that is 4 passes over the files (~0.5 s
 * each) instead of the whole history in memory (~480 MB).
 */
export const MERGE_CHUNK_ROWS = 2_500_000

/** The merge into a sink, its rows kept in memory (tests, small inputs). */
export const mergeQuotas = (
  inputs: ReadonlyArray<CartolaInput>,
  cutoff: number,
  relabel: ReadonlyMap<string, string> = new Map(),
  region: MergeRegion | null = null,
): Effect.Effect<StagedQuotas, CmfFileInvalid> => {
  const parts: Array<{ series: StagedSeries; columns: QuotaColumns }> = []
  const copy = (c: Int32Array | Float64Array, s: StagedSeries) => c.slice(s.start, s.end)
  return Effect.map(
    mergeQuotasInto(inputs, cutoff, relabel, region, (series, columns) => {
      const part = {
        date: copy(columns.date, series) as Int32Array,
        price: copy(columns.price, series) as Float64Array,
        patrimony: copy(columns.patrimony, series) as Float64Array,
        holders: copy(columns.holders, series) as Float64Array,
        factorAjuste: copy(columns.factorAjuste, series) as Float64Array,
        factorReparto: copy(columns.factorReparto, series) as Float64Array,
        unitsSubscribed: copy(columns.unitsSubscribed, series) as Float64Array,
        unitsRedeemed: copy(columns.unitsRedeemed, series) as Float64Array,
      }
      parts.push({ series, columns: part })
    }),
    (merged) => {
      const total = parts.reduce((n, p) => n + p.columns.date.length, 0)
      const out = {
        date: new Int32Array(total),
        price: new Float64Array(total),
        patrimony: new Float64Array(total),
        holders: new Float64Array(total),
        factorAjuste: new Float64Array(total),
        factorReparto: new Float64Array(total),
        unitsSubscribed: new Float64Array(total),
        unitsRedeemed: new Float64Array(total),
      }
      const series: StagedSeries[] = []
      let at = 0
      for (const p of parts) {
        for (const k of Object.keys(out) as Array<keyof typeof out>) out[k].set(p.columns[k], at)
        series.push({ ...p.series, start: at, end: at + p.columns.date.length })
        at += p.columns.date.length
      }
      return { ...out, series, repairs: merged.repairs, corrections: merged.corrections, seen: merged.seen }
    },
  )
}

/**
 * The merge, each series handed to `sink` as soon as it is merged, in asset-id order (its rows
 * are only valid during the call). At most `chunkRows` rows are held at once (MERGE_CHUNK_ROWS).
 */
export const mergeQuotasInto = (
  inputs: ReadonlyArray<CartolaInput>,
  cutoff: number,
  /** Renamed series: "RUN|OLD LABEL" → new label; the old label's rows join the new series. */
  relabel: ReadonlyMap<string, string>,
  region: MergeRegion | null,
  sink: QuotaSink,
  chunkRows: number = MERGE_CHUNK_ROWS,
): Effect.Effect<MergedQuotas, CmfFileInvalid> =>
  Effect.suspend(() => {
    // Files in date order, so that rows mostly arrive sorted within each series.
    const files = [...inputs].sort((a, b) => a.firstDate - b.firstDate || (a.file < b.file ? -1 : 1))
    const globalOf = new Map<string, number>()
    const infos: CartolaSeriesInfo[] = []
    // First pass, one file loaded at a time: the series of each file and the rows per series.
    let afterCutoff = 0
    const maps: Array<Int32Array> = []
    const counts: number[] = []
    const from = region?.from ?? 0
    // Files of the region's merge whose rows all come before it: only their series are read.
    const before = files.map((input) => region !== null && input.summary !== undefined && input.summary.latestDate < from)
    for (const [fi, input] of files.entries()) {
      // Counted from the summary when the whole file is on or before the batch date.
      const summary = before[fi] || (region === null && input.summary !== undefined && input.summary.latestDate <= cutoff) ? input.summary : undefined
      const f = summary ?? input.load()
      const map = Int32Array.from(f.series, (original) => {
        const renamed = relabel.get(`${original.run}|${original.serie}`)
        const s = renamed === undefined ? original : { ...original, serie: renamed }
        const key = `${s.run}|${s.serie}`
        let g = globalOf.get(key)
        if (g === undefined) {
          g = infos.length
          globalOf.set(key, g)
          infos.push(s)
        } else if (renamed === undefined && input.provisional === undefined) {
          infos[g] = s // the current label's own row describes the series best (a cartola's, not the BPR's)
        }
        return g
      })
      maps.push(map)
      for (let g = counts.length; g < infos.length; g++) counts.push(0)
      if (before[fi]) continue
      if (summary !== undefined) {
        for (let k = 0; k < map.length; k++) counts[map[k]!]! += summary.seriesRows[k]!
        continue
      }
      const columns = f as CartolaColumns
      for (let i = 0; i < columns.date.length; i++) {
        if (columns.date[i]! > cutoff) afterCutoff++
        else if (columns.date[i]! >= from) counts[map[columns.seriesIndex[i]!]!]!++
      }
    }
    // Series in asset-id order, cut into chunks of at most chunkRows rows; each series gets a
    // segment of the chunk's buffer, in that order, so that sorting, de-duplicating and
    // compacting happen in place.
    const ids = infos.map((info) => assetId(info.run, info.serie))
    const order = infos.map((_, g) => g).sort((a, b) => ids[a]! - ids[b]!)
    for (let k = 1; k < order.length; k++) {
      if (ids[order[k]!] === ids[order[k - 1]!]) {
        const a = infos[order[k - 1]!]!
        const b = infos[order[k]!]!
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
    const chunkOf = new Int32Array(infos.length)
    const start = new Int32Array(infos.length)
    const chunks: Array<{ readonly series: ReadonlyArray<number>; readonly rows: number }> = []
    let current: number[] = []
    let rows = 0
    for (const g of order) {
      if (current.length > 0 && rows + counts[g]! > chunkRows) {
        chunks.push({ series: current, rows })
        current = []
        rows = 0
      }
      chunkOf[g] = chunks.length
      start[g] = rows
      rows += counts[g]!
      current.push(g)
    }
    if (current.length > 0) chunks.push({ series: current, rows })
    const size = Math.max(0, ...chunks.map((c) => c.rows))
    const cols = {
      date: new Int32Array(size),
      price: new Float64Array(size),
      patrimony: new Float64Array(size),
      holders: new Float64Array(size),
      factorAjuste: new Float64Array(size),
      factorReparto: new Float64Array(size),
      unitsSubscribed: new Float64Array(size),
      unitsRedeemed: new Float64Array(size),
    }
    const fileOf = new Int32Array(size)
    const lineOf = new Int32Array(size)
    const weak = files.map((f) => f.provisional !== undefined)
    const fill = start.slice()
    let duplicates = 0
    let replaced = 0
    let implausible = 0
    const series: MergedSeries[] = []
    const corrections: QuotaCorrection[] = []
    const copy = (to: number, from: number) => {
      cols.date[to] = cols.date[from]!
      cols.price[to] = cols.price[from]!
      cols.patrimony[to] = cols.patrimony[from]!
      cols.holders[to] = cols.holders[from]!
      cols.factorAjuste[to] = cols.factorAjuste[from]!
      cols.factorReparto[to] = cols.factorReparto[from]!
      cols.unitsSubscribed[to] = cols.unitsSubscribed[from]!
      cols.unitsRedeemed[to] = cols.unitsRedeemed[from]!
      fileOf[to] = fileOf[from]!
      lineOf[to] = lineOf[from]!
    }
    for (const [c, chunk] of chunks.entries()) {
      // Each file loaded again and the rows of this chunk's series copied into their segments.
      for (const [fi, input] of files.entries()) {
        if (before[fi]) continue
        const f = input.load()
        const map = maps[fi]!
        if (f.series.length !== map.length) {
          throw new Error(`cartola ${printableName(input.file)}: its columns list ${f.series.length} series, its summary ${map.length} (stale parse cache?)`)
        }
        for (let i = 0; i < f.date.length; i++) {
          if (f.date[i]! > cutoff || f.date[i]! < from) continue
          const g = map[f.seriesIndex[i]!]!
          if (chunkOf[g] !== c) continue
          const at = fill[g]!++
          cols.date[at] = f.date[i]!
          cols.price[at] = f.price[i]!
          cols.patrimony[at] = f.patrimony[i]!
          cols.holders[at] = f.holders[i]!
          cols.factorAjuste[at] = f.factorAjuste[i]!
          cols.factorReparto[at] = f.factorReparto[i]!
          cols.unitsSubscribed[at] = f.unitsSubscribed[i]!
          cols.unitsRedeemed[at] = f.unitsRedeemed[i]!
          fileOf[at] = fi
          lineOf[at] = f.line[i]!
        }
      }
      // Every segment filled exactly: the summaries' counts and the columns agree.
      for (const g of chunk.series) {
        if (fill[g] !== start[g]! + counts[g]!) throw new Error(`the merged rows of RUN ${infos[g]!.run} ${infos[g]!.serie} do not match the counted ones (stale parse cache?)`)
      }
      // Per series: sort by date when needed, drop exact duplicates, catch conflicts, and compact
      // left in place (the write position never passes the read position).
      let w = 0
      for (const g of chunk.series) {
        const from = start[g]!
        const to = from + counts[g]!
        let sorted = true
        for (let i = from + 1; i < to && sorted; i++) if (cols.date[i]! < cols.date[i - 1]!) sorted = false
        if (!sorted) sortSegment(from, to, cols, fileOf, lineOf)
        const segmentStart = w
        for (let i = from; i < to; i++) {
          // The row kept last for this series (at w - 1) has the same date: a repeat, a provisional
          // value the cartola replaces, or a conflict.
          if (w > segmentStart && cols.date[i] === cols.date[w - 1]) {
            const p = w - 1
            const info = infos[g]!
            if (weak[fileOf[i]!] !== weak[fileOf[p]!]) {
              // One of the two is the BPR's: the cartola's row stays (whichever came first).
              const [bpr, cartola] = weak[fileOf[i]!] ? [i, p] : [p, i]
              const provisional = files[fileOf[bpr]!]!.provisional!
              if (Math.abs(cols.price[bpr]! - cols.price[cartola]!) > 0.5 * 10 ** -provisional.decimals + 1e-9 * Math.abs(cols.price[cartola]!)) {
                corrections.push({
                  asset_id: ids[g]!,
                  run: info.run,
                  serie: info.serie,
                  date: intToDate(cols.date[i]!),
                  old: cols.price[bpr]!,
                  new: cols.price[cartola]!,
                  old_source: `${provisional.dataSet} ${files[fileOf[bpr]!]!.file}`,
                  new_source: `cartola_diaria ${files[fileOf[cartola]!]!.file}`,
                })
              }
              if (cartola === i) copy(p, i)
              replaced++
              continue
            }
            const identical =
              same(cols.price[i]!, cols.price[p]!) &&
              same(cols.patrimony[i]!, cols.patrimony[p]!) &&
              same(cols.holders[i]!, cols.holders[p]!) &&
              same(cols.factorAjuste[i]!, cols.factorAjuste[p]!) &&
              same(cols.factorReparto[i]!, cols.factorReparto[p]!) &&
              same(cols.unitsSubscribed[i]!, cols.unitsSubscribed[p]!) &&
              same(cols.unitsRedeemed[i]!, cols.unitsRedeemed[p]!)
            if (!identical) {
              return Effect.fail(
                cmfFileInvalid({
                  dataSet: weak[fileOf[i]!] ? files[fileOf[i]!]!.provisional!.dataSet as "cartola_diaria" : "cartola_diaria",
                  file: files[fileOf[i]!]!.file,
                  line: lineOf[i]!,
                  field: "VALOR_CUOTA",
                  detail: `RUN_FM ${info.run} SERIE ${info.serie} on ${cols.date[i]} conflicts with ${printableName(files[fileOf[p]!]!.file)} line ${lineOf[p]}`,
                }),
              )
            }
            duplicates++
            continue
          }
          // A provisional value more than PROVISIONAL_JUMP away from the series' previous one is left
          // out (counted): the BPR is a rounded report, not worth a 1e300 typo going live; the
          // series stays active at its previous value until the cartola says what the day was.
          const previous = w > segmentStart ? cols.price[w - 1]! : region?.seed.get(ids[g]!)
          if (weak[fileOf[i]!] && previous !== undefined) {
            const ratio = cols.price[i]! / previous
            if (!(ratio <= PROVISIONAL_JUMP && ratio >= 1 / PROVISIONAL_JUMP)) {
              implausible++
              continue
            }
          }
          // The write position never passes the read position: w ≤ i.
          if (w !== i) copy(w, i)
          w++
        }
        if (w > segmentStart) {
          let provisionalRows = 0
          let provisionalFirst = 0
          let provisionalLast = 0
          for (let k = segmentStart; k < w; k++) {
            if (!weak[fileOf[k]!]) continue
            provisionalRows++
            if (provisionalFirst === 0) provisionalFirst = cols.date[k]!
            provisionalLast = cols.date[k]!
          }
          const merged = { ...infos[g]!, assetId: ids[g]!, provisionalRows, provisionalFirst, provisionalLast }
          sink({ ...merged, start: segmentStart, end: w }, cols)
          series.push({ ...merged, rows: w - segmentStart, firstDate: cols.date[segmentStart]!, lastDate: cols.date[w - 1]! })
        }
      }
    }
    return Effect.succeed({
      series,
      repairs: { duplicate_rows_across_files: duplicates, rows_after_batch_date: afterCutoff, provisional_rows_replaced: replaced, provisional_rows_implausible: implausible },
      corrections,
      seen: new Map(infos.map((info, g) => [ids[g]!, info])),
    })
  })

/** Sorts rows [from, to) by date, carrying every column along (rare: files out of date order). */
const sortSegment = (
  from: number,
  to: number,
  cols: Record<keyof QuotaColumns, Int32Array | Float64Array>,
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
