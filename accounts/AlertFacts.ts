/**
 * What the alert mails say about watched series, read from published snapshots: a series' TAC in
 * a batch against the batch published before it, and a series' last closed month. Watchlist ids
 * are stored as the API takes them (AccountMe.ts): a decimal asset_id for an FM series (a renamed
 * series' previous id resolves to the current one), a lower-case serie UUID for FI/ETF.
 */
import { isUuid, parseUint32 } from "../schemas/Ids.ts"
import { endOfMonth, makeDate, toIsoDate } from "../snapshots/compute/Calendar.ts"
import type { SnapshotReader } from "../snapshots/Reader.ts"
import { fiCatalog } from "../snapshots/readers/FiCatalog.ts"
import { prepared } from "../snapshots/readers/MarketDb.ts"
import { round10 } from "../snapshots/readers/MarketRows.ts"
import { latestTac, resolveAssetId } from "../snapshots/readers/ReturnsSeries.ts"
import type { ReturnsLatestTable } from "../snapshots/tables/ReturnsComputed.ts"

/** A watched series as a mail names it. */
export interface SeriesLabel {
  /** The id on the watchlist. */
  readonly serieId: string
  readonly fund: string
  readonly serie: string
}

/** A TAC (decimal fraction) that changed between two batches, with the month each value is for. */
export interface TacChange extends SeriesLabel {
  readonly previousTac: number
  readonly previousMonth: string
  readonly tac: number
  readonly month: string
}

/** A series' closed month: its value at the month's last quote and, for FM series, its return and TAC. */
export interface MonthLine extends SeriesLabel {
  /** YYYY-MM-DD of the last value in the month; null without one. */
  readonly endDate: string | null
  /** Quota value (FM) or book value (FI/ETF) on endDate. */
  readonly endValue: number | null
  readonly currency: string | null
  /** FM: the month's return on quota values in the fund's currency (decimal fraction); null when unavailable. */
  readonly monthReturn: number | null
  /** Why monthReturn is null (the returns contract's reason), or null. */
  readonly returnNote: string | null
  /** FM: the latest TAC the batch holds, decimal fraction, and its month. */
  readonly tac: { readonly tac: number; readonly month: string } | null
}

/** The asset_id of an FM watchlist id in this snapshot, or null (a UUID, or a series the snapshot lacks). */
const fmAssetId = (reader: SnapshotReader, serieId: string): number | null => {
  if (isUuid(serieId)) return null
  const id = parseUint32(serieId)
  return id === null ? null : resolveAssetId(reader.db, id)
}

const fmLabel = (reader: SnapshotReader, serieId: string, assetId: number): SeriesLabel | null => {
  const series = reader.series(assetId)
  if (series === undefined) return null
  return { serieId, fund: reader.fund(series.concept_id)?.name ?? `RUN ${series.run}`, serie: series.serie }
}

/**
 * The watched series whose latest TAC in `current` differs from its latest TAC in `previous`
 * (both known; FI/ETF series carry no TAC), keyed by watchlist id. A TAC reported for a new month
 * with the same value is no change.
 */
export const tacChanges = (
  current: SnapshotReader,
  previous: SnapshotReader,
  serieIds: Iterable<string>,
): Map<string, TacChange> => {
  const changes = new Map<string, TacChange>()
  for (const serieId of new Set(serieIds)) {
    const now = fmAssetId(current, serieId)
    const before = fmAssetId(previous, serieId)
    if (now === null || before === null) continue
    const tac = latestTac(current.db, now)
    const previousTac = latestTac(previous.db, before)
    if (tac === undefined || previousTac === undefined || round10(tac.tac) === round10(previousTac.tac)) continue
    const label = fmLabel(current, serieId, now)
    if (label === null) continue
    changes.set(serieId, { ...label, previousTac: previousTac.tac, previousMonth: previousTac.month, tac: tac.tac, month: tac.month })
  }
  return changes
}

/** YYYYMMDD of the last day of `month` (YYYY-MM). */
const monthEnd = (month: string): number => {
  const [y, m] = month.split("-").map(Number) as [number, number]
  return endOfMonth(makeDate(y, m, 1))
}

const fmMonth = (reader: SnapshotReader, serieId: string, assetId: number, month: string): MonthLine | null => {
  const label = fmLabel(reader, serieId, assetId)
  if (label === null) return null
  const end = monthEnd(month)
  const quote = prepared(reader.db, "SELECT date, price FROM quotas WHERE asset_id = ? AND date <= ? AND date > ? ORDER BY date DESC LIMIT 1").get(
    assetId,
    end,
    end - (end % 100),
  ) as { date: number; price: number } | undefined
  // The stored last_closed_month window of the batch is this month unless the batch is dated the month's last day.
  const row = prepared(
    reader.db,
    "SELECT * FROM returns_latest WHERE asset_id = ? AND valuation = 'accounting' AND return_basis = 'price' AND period = 'last_closed_month'",
  ).get(assetId) as ReturnsLatestTable | undefined
  const sameMonth = row !== undefined && row.target_end_date === end
  const tac = latestTac(reader.db, assetId)
  return {
    ...label,
    endDate: quote === undefined ? null : toIsoDate(quote.date),
    endValue: quote?.price ?? null,
    currency: reader.series(assetId)?.currency ?? null,
    monthReturn: sameMonth ? row.value : null,
    returnNote: sameMonth ? row.reason : "not computed for this month",
    tac: tac === undefined ? null : { tac: tac.tac, month: tac.month },
  }
}

const fiMonth = (reader: SnapshotReader, serieId: string, month: string): MonthLine | null => {
  const catalog = fiCatalog(reader)
  const serie = catalog.serie(serieId)
  if (serie === undefined) return null
  const end = monthEnd(month)
  const price = prepared(reader.db, "SELECT date, book_value FROM fi_prices WHERE serie_id = ? AND date <= ? AND date > ? ORDER BY date DESC LIMIT 1").get(
    serieId,
    end,
    end - (end % 100),
  ) as { date: number; book_value: number } | undefined
  return {
    serieId,
    fund: catalog.instrument(serie.instrument_id)?.name ?? `RUN ${serie.run}`,
    serie: serie.serie,
    endDate: price === undefined ? null : toIsoDate(price.date),
    endValue: price?.book_value ?? null,
    currency: serie.currency,
    monthReturn: null,
    returnNote: null,
    tac: null,
  }
}

/** The closed `month` (YYYY-MM) of each watched series the snapshot has, keyed by watchlist id. */
export const monthLines = (reader: SnapshotReader, month: string, serieIds: Iterable<string>): Map<string, MonthLine> => {
  const lines = new Map<string, MonthLine>()
  for (const serieId of new Set(serieIds)) {
    const assetId = fmAssetId(reader, serieId)
    const line = isUuid(serieId) ? fiMonth(reader, serieId, month) : assetId === null ? null : fmMonth(reader, serieId, assetId, month)
    if (line !== null) lines.set(serieId, line)
  }
  return lines
}
