/**
 * The daily values of one cartola file as columns (typed arrays) instead of one object per row:
 * the whole history is ~10M rows, which as objects would not fit the memory budget, and columns
 * can be cached on disk and merged cheaply. Null numbers are NaN.
 */
import { Effect } from "effect"
import type { CartolaRecord } from "./Cartola.ts"
import { dateToInt } from "../../../schemas/Dates.ts"
import { type CartolaParsed, parseCartola } from "./Cartola.ts"
import type { CmfFileInvalid } from "../../cmf/CmfFileInvalid.ts"
import type { LoadContext } from "../DataSet.ts"
import type { LoadedFile } from "../LoadedFile.ts"
import type { CacheEntry, ParsedFiles } from "../ParsedFiles.ts"
import type { CartolaColumns, CartolaInput, CartolaSeriesInfo, CartolaSummary } from "./CartolaInput.ts"

export const summarize = (columns: CartolaColumns): CartolaSummary => {
  let latest = 0
  for (const d of columns.date) if (d > latest) latest = d
  const seriesRows = new Int32Array(columns.series.length)
  for (const g of columns.seriesIndex) seriesRows[g]!++
  return {
    file: columns.file,
    rows: columns.date.length,
    firstDate: columns.date[0] ?? 0,
    latestDate: latest,
    repairs: columns.repairs,
    series: columns.series,
    seriesRows,
  }
}

/** The earliest date of a cartola's rows (its first row need not be: files are not always in date order); 0 when empty. */
const earliest = (columns: CartolaColumns): number => {
  let min = 0
  for (const d of columns.date) if (min === 0 || d < min) min = d
  return min
}

/** A cartola's first value date, loaded (its columns) or cached (null: not in the cache). */
export const cartolaFirstDates = {
  loaded: (file: LoadedFile): number => earliest((file.data() as CartolaInput).load()),
  cached: (cache: ParsedFiles, entry: CacheEntry): number | null => {
    const columns = cache.get(entry)
    return columns === undefined ? null : earliest(columns)
  },
}

export const inMemory = (columns: CartolaColumns): CartolaInput => ({
  file: columns.file,
  firstDate: columns.date[0] ?? 0,
  load: () => columns,
})

const orNaN = (x: number | null): number => (x === null ? Number.NaN : x)

/**
 * A copy of a string that does not point into the file's text. V8 keeps a substring as a slice of
 * its parent, so one kept label would keep the whole decoded file (~13 MB a month) alive.
 */
export const detached = (s: string): string => Buffer.from(s, "utf8").toString("utf8")

export const toColumns = (
  file: string,
  records: ReadonlyArray<CartolaRecord>,
  repairs: Readonly<Record<string, number>>,
): CartolaColumns => {
  const n = records.length
  const series: CartolaSeriesInfo[] = []
  const index = new Map<string, number>()
  const cols = {
    seriesIndex: new Int32Array(n),
    date: new Int32Array(n),
    price: new Float64Array(n),
    patrimony: new Float64Array(n),
    holders: new Float64Array(n),
    factorAjuste: new Float64Array(n),
    factorReparto: new Float64Array(n),
    unitsSubscribed: new Float64Array(n),
    unitsRedeemed: new Float64Array(n),
    line: new Int32Array(n),
  }
  for (let i = 0; i < n; i++) {
    const r = records[i]!
    const serie = r.serie.trim().toUpperCase()
    const key = `${r.run}|${serie}`
    let s = index.get(key)
    if (s === undefined) {
      s = series.length
      index.set(key, s)
      series.push({
        run: r.run,
        serie: detached(serie),
        currencyCode: detached(r.currencyCode),
        agfRut: r.agfRut,
        agfName: detached(r.agfName),
      })
    }
    cols.seriesIndex[i] = s
    cols.date[i] = dateToInt(r.date)
    cols.price[i] = r.price
    cols.patrimony[i] = orNaN(r.patrimony)
    cols.holders[i] = orNaN(r.holders)
    cols.factorAjuste[i] = orNaN(r.factorAjuste)
    cols.factorReparto[i] = orNaN(r.factorReparto)
    cols.unitsSubscribed[i] = orNaN(r.unitsSubscribed)
    cols.unitsRedeemed[i] = orNaN(r.unitsRedeemed)
    cols.line[i] = r.line
  }
  return { file, series, ...cols, repairs }
}

/** The batch's one object for a series info, as its files repeat it. */
const shared = (context: LoadContext, info: CartolaSeriesInfo): CartolaSeriesInfo => {
  const key = `cartola series ${info.run}|${info.serie}|${info.currencyCode}|${info.agfRut}|${info.agfName}`
  const found = context.shared.get(key) as CartolaSeriesInfo | undefined
  if (found !== undefined) return found
  context.shared.set(key, info)
  return info
}

/**
 * The cartola's own load: its rows as columns (a file of the history is ~10M rows over all months),
 * cached as columns; from the cache only the summary is read now, the columns when merged. The
 * file's data is a CartolaInput.
 */
export const loadCartola = (context: LoadContext): Effect.Effect<LoadedFile, CmfFileInvalid> =>
  Effect.gen(function* () {
    const { cache, name, sha256 } = context
    const parse = (p: CartolaParsed) =>
      toColumns(name, p.records, { duplicate_rows: p.duplicatesSkipped, footnote_rows: p.footnotesSkipped })
    let summary = cache?.getSummary(context)
    let input: CartolaInput | null = null
    if (summary === undefined || !Array.isArray(summary.series)) {
      let columns = cache?.get(context)
      if (columns === undefined) {
        columns = parse(yield* parseCartola(context.bytes(), name))
        cache?.put(context, columns)
        context.parsed(context.size)
      }
      summary = summarize(columns)
      cache?.putSummary(context, summary)
      if (cache === null) input = inMemory(columns)
    }
    // Every monthly file lists most series again: one object per series for the batch (~450K
    // objects and their strings, ~110 MB at market scale, otherwise).
    summary = { ...summary, series: summary.series.map((s) => shared(context, s)) }
    if (input === null && cache !== null) {
      // Parsed again if the entry went away meanwhile (these bytes parsed once: it cannot fail).
      const bytes = context.bytes
      input = {
        file: summary.file,
        firstDate: summary.firstDate,
        load: () => cache.get({ sha256, name }) ?? parse(Effect.runSync(parseCartola(bytes(), name))),
        summary,
      }
    }
    const data = input
    return {
      name,
      data: () => data,
      repairs: summary.repairs,
      rows: summary.rows,
      firstDate: summary.firstDate,
      latestDate: summary.latestDate,
    } satisfies LoadedFile
  })
