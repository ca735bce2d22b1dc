/**
 * The rows /api/compare and /api/screener serve: one per series of today's market universe (the
 * current id of a renamed series only), built once per snapshot from the catalog, the market
 * values at the batch's market date, the precomputed returns (returns_latest, accounting, price)
 * and risk (risk_latest), the latest TAC and the CMF spheres. Each row keeps the values the
 * screener filters and sorts on next to its rendered attributes. The screener's `date` and
 * `universe=as_of` ask for the rows of another view (compareRowsAt): today's universe or the one
 * alive on a date, with values, returns, risk and TAC as of that date, computed from the quotas.
 */
import type Database from "better-sqlite3"
import { currencyOf, investorClassOf } from "../../schemas/FundClass.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { MarketAttributesBody } from "../../schemas/MarketCompare.ts"
import { endOfMonth, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { seriesReturns, TOLERANCE_DAYS } from "../../snapshots/compute/Policy.ts"
import type { ReturnPeriod, ReturnsResult } from "../../snapshots/compute/Returns.ts"
import { DEFAULT_SERIES_GRACE_WEEKDAYS } from "../../snapshots/compute/SeriesActivity.ts"
import { WINDOWS, type WindowKey } from "../../snapshots/compute/Windows.ts"
import { type MarketDates, marketDates } from "../../snapshots/readers/MarketDates.ts"
import { isMemoised, memo, memoLru, prepared } from "../../snapshots/readers/MarketDb.ts"
import { categoryOf, seriesContinuity } from "../../snapshots/readers/MarketFundRow.ts"
import { latestDates } from "../../snapshots/readers/MarketMutualFunds.ts"
import { rowRisk } from "../../snapshots/readers/MarketRisk.ts"
import { seriesValues } from "../../snapshots/readers/MarketRows.ts"
import { type UniverseSeries, universe, universeAsOf } from "../../snapshots/readers/MarketUniverse.ts"
import { historyFor, loadIndicators } from "../../snapshots/readers/ReturnsHistory.ts"
import { storedReturns, storedRisk } from "../../snapshots/readers/ReturnsRows.ts"
import { latestTac, spheresOf, tacOnOrBefore } from "../../snapshots/readers/ReturnsSeries.ts"
import type { Universe } from "../../schemas/MarketUniverse.ts"
import type { CmfSpheresTable } from "../../snapshots/tables/Market.ts"
import { cmfSpheresBody, quotaCurrencyOf } from "../returns/ReturnsLabels.ts"

export type ContractCurrency = "PESOS" | "DOLAR"

/** One series as compare and screener see it. */
export interface CompareRow {
  readonly assetId: number
  readonly attributes: MarketAttributesBody
  readonly currency: ContractCurrency | null
  readonly fundName: string
  readonly run: string
  readonly agf: string
  readonly fundFamily: string | null
  readonly category: string | null
  readonly investorClass: string
  readonly tac: number | null
  readonly spheres: CmfSpheresTable | undefined
  /** The available spheres value, null otherwise. */
  readonly spheresValue: number | null
  readonly periods: Readonly<Record<WindowKey, ReturnPeriod>>
}

/** What the batch is: its file, content hash and dates. */
export interface BatchInfo {
  readonly batchId: string
  readonly inputFingerprint: string
  /** YYYY-MM-DD */
  readonly calculationDate: string
  /** The creation time of the batch's precomputed rows: the batch date at 00:00 UTC. */
  readonly calculatedAt: string
}

export const batchInfo = (file: string, contentHash: string, batchDate: string): BatchInfo => ({
  batchId: file.replace(/\.sqlite$/u, ""),
  inputFingerprint: contentHash,
  calculationDate: batchDate,
  calculatedAt: `${batchDate}T00:00:00Z`,
})

/** A published batch with returns: at least one returns_latest row (the table may be missing in old formats). */
export const hasReturns = (db: Database.Database): boolean => {
  try {
    return prepared(db, "SELECT 1 FROM returns_latest LIMIT 1").get() !== undefined
  } catch {
    return false
  }
}

const contractCurrency = (code: string | null): ContractCurrency | null => {
  const iso = currencyOf(code)
  return iso === "CLP" ? "PESOS" : iso === "USD" ? "DOLAR" : null
}


const periodBody = (p: ReturnPeriod, quotaCurrency: "PESOS" | "DOLAR" | "EURO" | null) => {
  const endpoint = (date: string | null, price: number | null) =>
    date === null || price === null ? null : { quota_date: date, quota_value: price, quota_currency: quotaCurrency, fx: null, uf: null }
  return {
    value: p.value,
    currency: p.currency as ContractCurrency | null,
    status: p.status,
    reason: p.reason as MarketAttributesBody["returns"]["periods"]["1m"]["reason"],
    annualized: p.annualized,
    target_start_date: p.target_start_date,
    target_end_date: p.target_end_date,
    effective_start_date: p.effective_start_date,
    effective_end_date: p.effective_end_date,
    inputs: { start: endpoint(p.effective_start_date, p.start_price), end: endpoint(p.effective_end_date, p.end_price) },
  }
}

const monthEnd = (month: string): string => toIsoDate(endOfMonth(Number(month.replace("-", "")) * 100 + 1))

const rowsKey = (batchDate: number, graceWeekdays: number, info: BatchInfo) => `compareRows:${batchDate}:${graceWeekdays}:${info.batchId}`

/** How many series `buildRows` reads between two yields (~20 ms at full size). */
const ROWS_PER_STEP = 100

/**
 * Every row of the batch's universe with `graceWeekdays` (FDS_SERIES_GRACE_DAYS), ascending by
 * id; memoised per snapshot, grace and batch file.
 */
export const compareRows = (db: Database.Database, batchDate: number, graceWeekdays: number, info: BatchInfo): ReadonlyArray<CompareRow> =>
  memo(db, rowsKey(batchDate, graceWeekdays, info), () => {
    const steps = buildRows(db, batchDate, graceWeekdays, info)
    for (;;) {
      const step = steps.next()
      if (step.done === true) return step.value
    }
  })

/**
 * Builds the rows before a snapshot is swapped in (SnapshotStore's `warm`), a step of
 * ROWS_PER_STEP series per turn of the event loop: at full size they take ~0.3 s of reads, which
 * the first compare or screener request after each swap otherwise spent in one piece, holding up
 * every request behind it. It stops, keeping nothing, once `stillWanted()` is false (a dropped swap).
 * The rows are those of `graceWeekdays` (by default the default grace).
 */
export const warmCompareRows = async (
  db: Database.Database,
  batchDate: number,
  info: BatchInfo,
  stillWanted: () => boolean = () => db.open,
  rowsPerStep = ROWS_PER_STEP,
  graceWeekdays = DEFAULT_SERIES_GRACE_WEEKDAYS,
): Promise<void> => {
  if (!hasReturns(db) || isMemoised(db, rowsKey(batchDate, graceWeekdays, info))) return
  const steps = buildRows(db, batchDate, graceWeekdays, info, rowsPerStep)
  for (;;) {
    const step = steps.next()
    if (step.done === true) {
      memo(db, rowsKey(batchDate, graceWeekdays, info), () => step.value)
      compareRowsById(db, batchDate, graceWeekdays, info)
      return
    }
    await new Promise<void>((resolve) => setImmediate(resolve))
    if (!stillWanted() || !db.open) return
  }
}

/** How many other views' rows a snapshot keeps (a full-size view is a few MB). */
const KEPT_VIEWS = 8

/**
 * The rows of `which` universe at `cutoff` (YYYYMMDD, on or before the batch date): today's
 * universe at an earlier date, or the series alive on `cutoff` (as_of). Built ROWS_PER_STEP series
 * per turn of the event loop (their returns and risk are computed from the quotas: ~1 s at full
 * size), once per snapshot and view while kept (requests for one view share the building).
 */
export const compareRowsAt = (
  db: Database.Database,
  batchDate: number,
  graceWeekdays: number,
  info: BatchInfo,
  which: Universe,
  cutoff: number,
): Promise<ReadonlyArray<CompareRow>> =>
  memoLru(db, `compareRowsAt:${info.batchId}`, `${which}:${cutoff}:${graceWeekdays}`, KEPT_VIEWS, async () => {
    const series = which === "as_of" ? universeAsOf(db, cutoff, graceWeekdays) : universe(db, batchDate, graceWeekdays)
    const steps = buildRows(db, batchDate, graceWeekdays, info, ROWS_PER_STEP, { series, cutoff })
    for (;;) {
      const step = steps.next()
      if (step.done === true) return step.value
      await new Promise<void>((resolve) => setImmediate(resolve))
      if (!db.open) throw new Error("the snapshot closed while screener rows were built")
    }
  })

/** Series and date of rows other than today's universe at the batch date. */
interface RowsView {
  readonly series: ReadonlyArray<UniverseSeries>
  /** YYYYMMDD */
  readonly cutoff: number
}

/** The rows, read ROWS_PER_STEP series at a time (a yield between steps); today's universe at the batch date without `view`. */
function* buildRows(
  db: Database.Database,
  batchDate: number,
  graceWeekdays: number,
  info: BatchInfo,
  rowsPerStep = ROWS_PER_STEP,
  view?: RowsView,
): Generator<void, ReadonlyArray<CompareRow>> {
  const asOf = view?.cutoff ?? batchDate
  // at the batch date the stored returns, risk and latest TAC; at an earlier one, computed as of it
  const latest = asOf === batchDate
  const series = view?.series ?? universe(db, batchDate, graceWeekdays)
  const dates: MarketDates | null = view === undefined ? latestDates(db, batchDate, graceWeekdays) : marketDates(db, series, asOf)
  const cutoff = toIsoDate(asOf)
  const batchIso = toIsoDate(batchDate)
  const asOfMonth = cutoff.slice(0, 7)
  let cachedIndicators: ReturnType<typeof loadIndicators> | undefined
  const indicators = () => {
    if (cachedIndicators === undefined) cachedIndicators = loadIndicators(db)
    return cachedIndicators
  }
  const rows: CompareRow[] = []
  let read = 0
  for (const u of series) {
    if (++read % rowsPerStep === 0) yield
    const values = dates === null ? undefined : seriesValues(db, u.assetId, dates)
    const stored = latest ? storedReturns(db, u.assetId, u.currencyCode, "accounting", "price", batchDate) : null
    const returns: ReturnsResult =
      stored ?? seriesReturns(historyFor(db, u.assetId, asOf, "price"), asOf, u.currencyCode, "accounting", "price", indicators())
    const mode = stored === null ? ("direct" as const) : ("snapshot" as const)
    const risk = latest
      ? storedRisk(db, u.assetId)
      : dates === null
        ? null
        : rowRisk(db, u.assetId, u.currencyCode, batchDate, dates.date, false)
    const tac = latest ? latestTac(db, u.assetId) : tacOnOrBefore(db, u.assetId, asOfMonth)
    const spheres = spheresOf(db, u.assetId)
    const sphereBody = cmfSpheresBody(spheres, cutoff)
    const currency = contractCurrency(u.currencyCode)
    const quotaCurrency = quotaCurrencyOf(u.currencyCode)
    const run = formatRun(u.run)
    const investorClass = investorClassOf(u.serie)
    const periods = Object.fromEntries(WINDOWS.map((k) => [k, periodBody(returns.periods[k], quotaCurrency)]))
    const attributes: MarketAttributesBody = {
      agf: u.agf,
      fundName: u.fundName,
      fundId: String(u.conceptId),
      run,
      category: categoryOf(u.fundType),
      fundFamily: u.familyRar,
      fundFamilyDisplay: u.familyRar,
      fundFamilyStudies: null,
      serie: u.serie,
      serieId: String(u.assetId),
      seriesContinuity: seriesContinuity(u.continuity),
      currency,
      tac: tac?.tac ?? null,
      investorClass,
      classificationInvestorClass: null,
      classificationDate: null,
      price: values?.price ?? null,
      dailyChange: values?.dailyChange ?? null,
      monthlyChange: values?.monthlyChange ?? null,
      patrimony: values?.patrimony ?? null,
      previousPatrimony: values?.previousPatrimony ?? null,
      monthlyPatrimony: values?.monthlyPatrimony ?? null,
      shareholders: values?.holders ?? null,
      volatility_monthly_12m: risk?.volatility_monthly_12m ?? null,
      volatility_monthly_36m: risk?.volatility_monthly_36m ?? null,
      volatility_annualized_12m: risk?.volatility_annualized_12m ?? null,
      volatility_annualized_36m: risk?.volatility_annualized_36m ?? null,
      max_drawdown_36m: risk?.max_drawdown_36m ?? null,
      risk_level: risk?.risk_level ?? null,
      risk_score: risk?.risk_score ?? null,
      risk_as_of_date: risk?.as_of_date ?? null,
      risk_method_version: risk?.method_version ?? null,
      tac_as_of_date: tac === undefined ? null : monthEnd(tac.month),
      price_as_of_date: values === undefined ? null : toIsoDate(values.priceDate),
      cmf_spheres: sphereBody,
      returns: {
        run,
        serie: u.serie,
        currency,
        requested_as_of_date: cutoff,
        as_of_date: returns.as_of_date,
        periods: periods as MarketAttributesBody["returns"]["periods"],
        tolerance_days: TOLERANCE_DAYS,
        unit: "decimal",
        return_basis: "price",
        source: "own",
        quota_source: "CMF",
        method_version: "price_return_v1",
        adjustments: [],
        event_verification: "unavailable",
        calculation_mode: mode,
        calculated_at: info.calculatedAt,
        calculation_date: info.calculationDate,
        batch_id: info.batchId,
        input_fingerprint: info.inputFingerprint,
        latest_complete_date: batchIso,
        cutoff_age_days: 0,
        snapshot_lag_days: null,
        refresh_required: false,
      },
    }
    rows.push({
      assetId: u.assetId,
      attributes,
      currency,
      fundName: u.fundName,
      run,
      agf: u.agf,
      fundFamily: u.familyRar,
      category: categoryOf(u.fundType),
      investorClass,
      tac: tac?.tac ?? null,
      spheres,
      spheresValue: sphereBody.value,
      periods: returns.periods,
    })
  }
  return rows.sort((a, b) => a.assetId - b.assetId)
}

/** The rows by id (memoised with them). */
export const compareRowsById = (
  db: Database.Database,
  batchDate: number,
  graceWeekdays: number,
  info: BatchInfo,
): ReadonlyMap<number, CompareRow> =>
  memo(db, `compareRowsById:${batchDate}:${graceWeekdays}:${info.batchId}`, () =>
    new Map(compareRows(db, batchDate, graceWeekdays, info).map((r) => [r.assetId, r])),
  )
