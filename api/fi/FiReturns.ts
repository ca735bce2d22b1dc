/**
 * FI/ETF answers of /api/real_assets/{asset_id}/returns, /risk_metrics, /expense_ratio and its
 * history (the `FiReturnsSource` service of ReturnsSubject.ts), over the CMF book values
 * (docs/fi.md "FI ids on /api/real_assets"):
 *   - the asset_id is a serie UUID, or an instrument UUID that resolves to its main series
 *     (FiResolver); an unknown UUID, or an instrument without any series, is a 404;
 *   - FI data unavailable in the batch → 503 `fi_unavailable` with Retry-After;
 *   - returns are price returns of the book value only (`quota_source: cmf_valor_libro`); the
 *     default cutoff is the FI cutoff; a currency without conversion (COP) gives null windows with
 *     `unknown_currency`, as the pure computation decides;
 *   - risk metrics are computed on request from the same history;
 *   - the expense ratio is the fact sheet's TAC only when `tac.status` is `available`.
 */
import { Effect, Layer } from "effect"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { ExpenseRatioBody, ExpenseRatioHistoryBody } from "../../schemas/ReturnsCosts.ts"
import type { AdjustedReturnBody, FundReturnBody } from "../../schemas/ReturnsResponses.ts"
import type { RiskMetricsBody } from "../../schemas/ReturnsRisk.ts"
import { daysBetween, fromIsoDate, toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { tacStatus, usableTac } from "../../snapshots/compute/FiStatus.ts"
import { seriesReturns, seriesRisk } from "../../snapshots/compute/Policy.ts"
import type { QuotaSeries } from "../../snapshots/compute/Series.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { bookValues, NO_FROM } from "../../snapshots/readers/FiBookValues.ts"
import { fiCatalog } from "../../snapshots/readers/FiCatalog.ts"
import { loadIndicators } from "../../snapshots/readers/ReturnsHistory.ts"
import type { FiInstrumentsTable, FiSeriesTable } from "../../snapshots/tables/Fi.ts"
import { accountingAttributes, adjustedAttributes } from "../returns/ReturnsBody.ts"
import { quotaCurrencyOf } from "../returns/ReturnsLabels.ts"
import { riskFields } from "../returns/ReturnsMetrics.ts"
import { type FiReturnsRequest, FiReturnsSource, seriesNotFound } from "../returns/ReturnsSubject.ts"
import { fiUnavailable } from "../snapshot/FiSnapshot.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { resolveFiSeries } from "./FiResolver.ts"

/** A resolved FI/ETF series with its instrument. */
export interface FiSubject {
  readonly instrument: FiInstrumentsTable
  readonly serie: FiSeriesTable
}

/** The series a UUID names on this snapshot; null when none (404). */
export const fiSubject = (reader: SnapshotReader, id: string): FiSubject | null => {
  const resolved = resolveFiSeries(reader, id)
  return resolved === undefined || resolved.serie === null ? null : { instrument: resolved.instrument, serie: resolved.serie }
}

/**
 * The FI/ETF series an id names on the request's batch: 503 when the batch has no FI data, 404
 * (naming `asset_id`, as `requestedId`) when the id is no published series.
 */
export const requireFiSubject = Effect.fn(function* (id: string, requestedId: string) {
  const lease = yield* PinnedSnapshot
  const availability = yield* lease.read((r) => fiCatalog(r).availability)
  if (!availability.available) return yield* fiUnavailable(availability.reason)
  const subject = yield* lease.read((r) => fiSubject(r, id))
  return subject ?? (yield* seriesNotFound(requestedId))
})

/** One read on the request's snapshot about the FI/ETF series an id names (see requireFiSubject). */
const readSubject = <A>(id: string, requestedId: string, f: (reader: SnapshotReader, subject: FiSubject, lease: Lease) => A) =>
  Effect.gen(function* () {
    const subject = yield* requireFiSubject(id, requestedId)
    const lease = yield* PinnedSnapshot
    return yield* lease.read((r) => f(r, subject, lease))
  })

/** The series' book values up to `cutoff` (YYYYMMDD) as the computations read them. */
const history = (reader: SnapshotReader, serieId: string, cutoff: number): QuotaSeries => {
  const rows = bookValues(reader, serieId, NO_FROM, cutoff)
  return { dates: rows.map((r) => r.date), prices: rows.map((r) => r.book_value) }
}


/** FI/ETF series are not rated by CMF's risk spheres (those are for mutual funds). */
const NO_SPHERES = {
  source: "CMF" as const,
  indicator: "ind_rar_pond" as const,
  scale_min: 1 as const,
  scale_max: 5 as const,
  value: null,
  status: "unavailable" as const,
  reason: "not_in_source" as const,
  as_of_date: null,
  family: null,
  investor_type: null,
}

/** The FI cutoff as YYYYMMDD. */
const fiCutoffInt = (reader: SnapshotReader): number => fromIsoDate(fiCatalog(reader).cutoff) as number

/** The body for a cutoff (YYYYMMDD) not after the batch date. */
export const fiReturnsBody = (
  reader: SnapshotReader,
  lease: Lease,
  s: FiSubject,
  q: FiReturnsRequest,
  cutoff: number,
): FundReturnBody | AdjustedReturnBody => {
  const batchDate = dateToInt(reader.batchDate)
  const currency = s.serie.currency
  const r = seriesReturns(history(reader, s.serie.serie_id, cutoff), cutoff, currency, q.valuation, "price", loadIndicators(reader.db))
  const quotaCurrency = quotaCurrencyOf(currency)
  const common = {
    run: formatRun(s.instrument.run),
    serie: s.serie.serie,
    requested_as_of_date: r.requested_as_of_date,
    as_of_date: r.as_of_date,
    tolerance_days: r.tolerance_days,
    unit: "decimal" as const,
    source: "own" as const,
    quota_source: "cmf_valor_libro" as const,
    price_source: "cmf" as const,
    price_basis: "valor_libro" as const,
    accounting_currency: currency,
    calculation_mode: "direct" as const,
    calculation_date: toIsoDate(batchDate),
    batch_id: lease.file.replace(/\.sqlite$/, ""),
    input_fingerprint: lease.contentHash,
    latest_complete_date: fiCatalog(reader).cutoff,
    cutoff_age_days: r.as_of_date === null ? null : daysBetween(fromIsoDate(r.as_of_date) as number, cutoff),
    cmf_spheres: NO_SPHERES,
    series_continuity: null,
  }
  const resource = <A>(attributes: A) => ({ data: { id: q.requestedId, type: "real_asset_returns" as const, attributes } })
  if (r.valuation !== "accounting") return resource({ ...common, ...adjustedAttributes(r, quotaCurrency, currency) })
  return resource({
    ...common,
    ...accountingAttributes(r, quotaCurrency, r.method_version as FundReturnBody["data"]["attributes"]["method_version"]),
  })
}

export const fiRiskBody = (reader: SnapshotReader, s: FiSubject, requestedId: string): RiskMetricsBody => {
  const cutoff = fiCutoffInt(reader)
  const m = seriesRisk(history(reader, s.serie.serie_id, cutoff), cutoff, s.serie.currency)
  return {
    data: {
      id: requestedId,
      type: "risk_metrics" as const,
      attributes: {
        run: formatRun(s.instrument.run),
        serie: s.serie.serie,
        ...riskFields(m),
        price_basis: "valor_libro" as const,
      },
    },
  }
}

/** The usable TAC of the series' fact sheet, with its status and the sheet date (YYYY-MM-DD or null). */
const sheetTac = (reader: SnapshotReader, s: FiSubject) => {
  const cutoff = fiCatalog(reader).cutoff
  const sheet = fiCatalog(reader).factSheet(s.serie.serie_id)
  const status = tacStatus(sheet, cutoff)
  return { status, tac: usableTac(sheet, cutoff), sheetDate: status === "available" ? (sheet?.sheet_date ?? null) : null }
}

export const fiExpenseRatioBody = (reader: SnapshotReader, s: FiSubject, requestedId: string): ExpenseRatioBody => {
  const t = sheetTac(reader, s)
  return {
    data: {
      id: requestedId,
      type: "expense_ratio" as const,
      attributes: {
        expense_ratio: t.tac,
        investor_class: null,
        month: t.sheetDate === null ? null : t.sheetDate.slice(0, 7),
        tac_status: t.status,
        source: "cmf_fact_sheet" as const,
      },
    },
  }
}

/** At most one observation: the reviewed, current fact sheet's TAC at its date (YYYYMMDD), on or after `fromDate`. */
export const fiExpenseRatioHistoryBody = (
  reader: SnapshotReader,
  s: FiSubject,
  requestedId: string,
  fromDate: string | undefined,
): ExpenseRatioHistoryBody => {
  const t = sheetTac(reader, s)
  if (t.tac === null || t.sheetDate === null) return { data: [] }
  const date = t.sheetDate.replaceAll("-", "")
  if (fromDate !== undefined && date < fromDate) return { data: [] }
  return {
    data: [{ id: `${requestedId}_${date}`, type: "expense_ratio_month" as const, attributes: { date, expense_ratio: t.tac } }],
  }
}

/** A cutoff after the batch date is a 422 naming as_of_date; without one, the FI cutoff. */
const fiReturns = Effect.fn(function* (id: string, q: FiReturnsRequest) {
  const subject = yield* requireFiSubject(id, q.requestedId)
  const lease = yield* PinnedSnapshot
  const { batch, cutoff } = yield* lease.read((r) => ({
    batch: r.batchDate,
    cutoff: q.cutoff === undefined ? fiCutoffInt(r) : dateToInt(q.cutoff),
  }))
  if (cutoff > dateToInt(batch)) {
    return yield* new InvalidParameter({
      parameter: "as_of_date",
      message: `invalid query parameter as_of_date: ${q.cutoff} is after the latest published batch (${batch})`,
    })
  }
  return yield* lease.read((r) => fiReturnsBody(r, lease, subject, q, cutoff))
})

export const fiReturnsSource: FiReturnsSource["Service"] = {
  exists: (id) =>
    requireFiSubject(id, id).pipe(
      Effect.as(true),
      Effect.catchTag("NotFound", () => Effect.succeed(false)),
    ),
  returns: fiReturns,
  riskMetrics: (id, requestedId) => readSubject(id, requestedId, (r, s) => fiRiskBody(r, s, requestedId)),
  expenseRatio: (id, requestedId) => readSubject(id, requestedId, (r, s) => fiExpenseRatioBody(r, s, requestedId)),
  expenseRatioHistory: (id, requestedId, fromDate) =>
    readSubject(id, requestedId, (r, s) => fiExpenseRatioHistoryBody(r, s, requestedId, fromDate)),
}

/** Provides the FI answers to the returns routes (api/Server.ts). */
export const FiReturnsLive = Layer.succeed(FiReturnsSource, fiReturnsSource)
