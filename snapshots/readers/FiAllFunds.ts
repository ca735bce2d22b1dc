/**
 * The /api/all-funds rows of investment funds and ETFs (vehicles `investment_fund` and `etf`), at
 * the FI/ETF data's one shared cutoff (spec "All-funds rows", docs/fi.md "FI/ETF rows in
 * /api/all-funds"):
 *   - only instruments whose CMF status is `active`; one row per series, ordered by instrument name,
 *     RUN, then series label; an active instrument without any series (no book value ever) is one
 *     row with `serieId`, `serie`, `currency` and `price` null and `price_status: unavailable`;
 *   - `fundId` `fi:{RUN}` (RUN without check digit), `serieId` the serie UUID, `price` the last CMF
 *     book value on or before the cutoff, `price_basis: valor_libro`, `price_status` relative to the
 *     cutoff (snapshots/compute/FiStatus.ts);
 *   - `dailyChange` and `monthlyChange` as for mutual funds (vs the last value on or before the
 *     previous FI date, resp. one month before the cutoff, each within 7 days), and null unless the
 *     price is `current`;
 *   - FM-only fields (`category`, `fundFamily`, `investorClass`, `article107RegulationStatus`,
 *     `seriesContinuity`) null, so the FM filters exclude these rows;
 *   - `tac` the fact sheet's TAC only when its `tac.status` is `available` at the cutoff (and the
 *     sheet is not dated after it).
 * Shared cutoff: without `date`, the FI cutoff of the batch (fiCutoff); with `date`, the latest
 * book-value date of any FI/ETF series on or before it. When there is none, the rows are read at
 * the date itself (every price unavailable) and `meta` shows no cutoff (`date` and `previousDate`
 * null, as for mutual funds). `previousDate` is the latest book-value date of any series before
 * the cutoff.
 */
import { formatRun } from "../../schemas/Ids.ts"
import { addDays, fromIsoDate, shiftMonths, toIsoDate } from "../compute/Calendar.ts"
import { PRICE_CURRENT_MAX_AGE_DAYS, priceStatus, usableTac } from "../compute/FiStatus.ts"
import type { SnapshotData } from "../Reader.ts"
import type { FiInstrumentsTable, FiPricesTable, FiSeriesTable } from "../tables/Fi.ts"
import { bookValueOnOrBefore } from "./FiBookValues.ts"
import { fiCatalog } from "./FiCatalog.ts"
import { type AllFundsFilters, filterRows, type VehiclePart } from "./MarketAllFunds.ts"
import { memoLru, prepared } from "./MarketDb.ts"
import type { RenderedRow } from "./MarketFundRow.ts"
import { round10 } from "./MarketRows.ts"

export type FiVehicle = "etf" | "investment_fund"

/** A base value may lie at most this many days before its target date (as for mutual funds). */
const BASE_TOLERANCE_DAYS = PRICE_CURRENT_MAX_AGE_DAYS

export const fiVehicleOf = (i: FiInstrumentsTable): FiVehicle => (i.is_etf === 1 ? "etf" : "investment_fund")

/**
 * The shared FI/ETF dates (YYYYMMDD) for a requested cutoff (null = latest); `date` is the
 * requested one itself when no FI/ETF book value is on or before it (`hasData` false).
 */
export const fiAllFundsDates = (
  reader: SnapshotData,
  requested: number | null,
): { date: number; previousDate: number | null; hasData: boolean } => {
  const db = reader.db
  const found =
    requested === null
      ? (fromIsoDate(fiCatalog(reader).cutoff) as number)
      : (prepared(db, "SELECT max(date) FROM fi_prices WHERE date <= ?").pluck().get(requested) as number | null)
  const date = found ?? (requested as number)
  const previousDate = prepared(db, "SELECT max(date) FROM fi_prices WHERE date < ?").pluck().get(date) as number | null
  return { date, previousDate, hasData: found !== null }
}

const change = (end: FiPricesTable, base: FiPricesTable | undefined, target: number): number | null =>
  base !== undefined && base.date >= addDays(target, -BASE_TOLERANCE_DAYS) && base.book_value > 0
    ? round10(end.book_value / base.book_value - 1)
    : null

/** The row of one series (or of an instrument without series) at the shared dates. */
export const fiRow = (
  reader: SnapshotData,
  i: FiInstrumentsTable,
  s: FiSeriesTable | null,
  dates: { date: number; previousDate: number | null },
) => {
  const cutoffIso = toIsoDate(dates.date)
  const end = s === null ? undefined : bookValueOnOrBefore(reader, s.serie_id, dates.date)
  const status = priceStatus(end === undefined ? null : toIsoDate(end.date), cutoffIso)
  let dailyChange: number | null = null
  let previousPatrimony: number | null = null
  let monthlyChange: number | null = null
  let monthlyPatrimony: number | null = null
  if (s !== null && end !== undefined && status === "current") {
    if (dates.previousDate !== null && end.date > dates.previousDate) {
      const base = bookValueOnOrBefore(reader, s.serie_id, dates.previousDate)
      dailyChange = change(end, base, dates.previousDate)
      if (dailyChange !== null) previousPatrimony = base?.patrimony ?? null
    }
    const monthBase = shiftMonths(dates.date, -1)
    const base = bookValueOnOrBefore(reader, s.serie_id, monthBase)
    monthlyChange = change(end, base, monthBase)
    if (monthlyChange !== null) monthlyPatrimony = base?.patrimony ?? null
  }
  const sheet = s === null ? undefined : fiCatalog(reader).factSheet(s.serie_id)
  const tac = sheet === undefined || (sheet.sheet_date !== null && sheet.sheet_date > cutoffIso) ? null : usableTac(sheet, cutoffIso)
  return {
    vehicle: fiVehicleOf(i),
    agf: i.agf_name,
    fundName: i.name,
    fundId: `fi:${i.run}`,
    run: formatRun(i.run),
    category: null,
    fundFamily: null,
    serie: s?.serie ?? null,
    serieId: s?.serie_id ?? null,
    currency: s?.currency ?? null,
    tac,
    investorClass: null,
    price: end?.book_value ?? null,
    price_as_of_date: end === undefined ? null : toIsoDate(end.date),
    price_basis: "valor_libro" as const,
    price_status: status,
    dailyChange,
    monthlyChange,
    patrimony: end?.patrimony ?? null,
    previousPatrimony,
    monthlyPatrimony,
    shareholders: end?.holders ?? null,
    article107RegulationStatus: null,
    seriesContinuity: null,
    ticker: i.ticker,
  }
}

interface FiParts {
  /** The cutoff shown in `meta`: null when no FI/ETF book value is on or before the requested date. */
  readonly date: number | null
  readonly previousDate: number | null
  readonly rows: Record<FiVehicle, RenderedRow[]>
}

const build = (reader: SnapshotData, requested: number | null): FiParts => {
  const catalog = fiCatalog(reader)
  const dates = fiAllFundsDates(reader, requested)
  const rows: Record<FiVehicle, RenderedRow[]> = { etf: [], investment_fund: [] }
  for (const i of catalog.instruments) {
    if (i.status !== "active") continue
    const series = catalog.seriesOf(i.instrument_id)
    for (const s of series.length === 0 ? [null] : series) {
      const row = fiRow(reader, i, s, dates)
      rows[row.vehicle].push({
        json: JSON.stringify(row),
        serieId: row.serieId ?? i.instrument_id,
        category: null,
        familySlug: null,
        article107Status: null,
        providerId: i.provider_id,
      })
    }
  }
  return { date: dates.hasData ? dates.date : null, previousDate: dates.previousDate, rows }
}

/** One FI vehicle's all-funds part at `cutoff` (YYYYMMDD, null = latest), filtered. */
export const fiVehiclePart = (
  reader: SnapshotData,
  vehicle: FiVehicle,
  cutoff: number | null,
  filters: AllFundsFilters,
): VehiclePart => {
  const parts = memoLru(reader.db, "fiAllFunds", String(cutoff), 32, () => build(reader, cutoff))
  return {
    vehicle,
    rows: filterRows(parts.rows[vehicle], filters),
    date: parts.date === null ? null : toIsoDate(parts.date),
    previousDate: parts.previousDate === null ? null : toIsoDate(parts.previousDate),
  }
}
