/**
 * From an FI/ETF UUID to its series: a serie UUID is that series; an instrument UUID resolves to
 * the instrument's main series. Anything else (not a UUID of this snapshot) resolves to nothing:
 * callers answer 404.
 *
 * The main series of an instrument is, in order: the one with the latest book value; among those,
 * the largest patrimony on that date (a series without patrimony last); then the label in
 * alphabetical order. An instrument without any series (no book value ever published) has none.
 */
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { type FiCatalog, fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import type { FiInstrumentsTable, FiSeriesTable } from "../../snapshots/tables/Fi.ts"

export interface ResolvedFiSeries {
  readonly instrument: FiInstrumentsTable
  /** The requested series, or the instrument's main series; null when the instrument has no series. */
  readonly serie: FiSeriesTable | null
  /** Which kind of UUID was given. */
  readonly requested: "instrument" | "serie"
}

const mainOf = (catalog: FiCatalog, instrumentId: string): FiSeriesTable | null => {
  let best: FiSeriesTable | null = null
  let bestDate = -1
  let bestPatrimony = Number.NEGATIVE_INFINITY
  // seriesOf is ordered by label, so the first of equals wins.
  for (const s of catalog.seriesOf(instrumentId)) {
    const last = catalog.lastPrice(s.serie_id)
    const date = last?.date ?? 0
    const patrimony = last?.patrimony ?? Number.NEGATIVE_INFINITY
    if (best === null || date > bestDate || (date === bestDate && patrimony > bestPatrimony)) {
      best = s
      bestDate = date
      bestPatrimony = patrimony
    }
  }
  return best
}

/** The instrument's main series (see the file comment); null when it has no series. Kept per snapshot (its memo). */
export const mainSeries = (reader: SnapshotReader, instrumentId: string): FiSeriesTable | null => {
  const mains = reader.memo.memo("fi-resolver:mains", () => new Map<string, FiSeriesTable | null>())
  if (!mains.has(instrumentId)) mains.set(instrumentId, mainOf(fiCatalog(reader), instrumentId))
  return mains.get(instrumentId) ?? null
}

/** Resolves an FI serie UUID or instrument UUID (any letter case) to its series; undefined when unknown. */
export const resolveFiSeries = (reader: SnapshotReader, uuid: string): ResolvedFiSeries | undefined => {
  const catalog = fiCatalog(reader)
  const id = uuid.toLowerCase()
  const serie = catalog.serie(id)
  if (serie !== undefined) {
    const instrument = catalog.instrument(serie.instrument_id)
    return instrument === undefined ? undefined : { instrument, serie, requested: "serie" }
  }
  const instrument = catalog.instrument(id)
  return instrument === undefined ? undefined : { instrument, serie: mainSeries(reader, id), requested: "instrument" }
}
