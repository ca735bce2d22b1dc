/**
 * /api/compare: 1 to 10 decimal ids (unique as uint32, leading zeros do not distinguish), order
 * kept; an id outside the published universe → 404; an invalid list, duplicates or more than ten
 * → 422 (CompareQuery, MarketCompareApi.ts); a batch without returns → 503 with Retry-After. The
 * previous and current id of one renamed series give one item with the current id. Comparability
 * is reported per period and for the spheres, each with explicit reasons; the individual results
 * are kept either way.
 */
import { Effect, Exit } from "effect"
import { NotFound, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import type { CompareBody } from "../../schemas/MarketCompare.ts"
import { TOLERANCE_DAYS } from "../../snapshots/compute/Policy.ts"
import { WINDOWS, type WindowKey } from "../../snapshots/compute/Windows.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { memoLru } from "../../snapshots/readers/MarketDb.ts"
import { resolveAssetId } from "../../snapshots/readers/ReturnsSeries.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { type BatchInfo, batchInfo, type CompareRow, compareRows, compareRowsById, hasReturns } from "./MarketCompareRows.ts"
import { jsonBytes } from "./MarketResponses.ts"

export const batchUnavailable = () =>
  new ServiceUnavailable({
    reason: "batch_unavailable",
    message: "the published batch has no precomputed returns (missing or invalid); retry later",
    retryAfter: 60,
  })

/** The batch-level fields both routes' meta carry. */
export const batchMeta = (info: BatchInfo, seriesCount: number) => ({
  batch_id: info.batchId,
  as_of_date: info.calculationDate,
  calculation_date: info.calculationDate,
  calculated_at: info.calculatedAt,
  input_fingerprint: info.inputFingerprint,
  tolerance_days: TOLERANCE_DAYS,
  series_count: seriesCount,
  method_version: "price_return_v1" as const,
  unit: "decimal" as const,
  return_basis: "price" as const,
  latest_complete_date: info.calculationDate,
  cutoff_age_days: 0,
  snapshot_lag_days: null,
  refresh_required: false,
})

type ReturnReason = "unavailable_return" | "currency_mismatch" | "effective_dates_mismatch" | "return_basis_mismatch"
type SpheresReason = "unavailable_indicator" | "comparison_group_mismatch" | "as_of_date_mismatch" | "methodology_mismatch"

const distinct = (values: ReadonlyArray<unknown>): number => new Set(values.map((v) => JSON.stringify(v))).size

/**
 * A window is comparable when every series has a value, all in one currency, measured between the
 * same effective dates (all are price returns, so the basis always agrees).
 */
export const periodComparability = (rows: ReadonlyArray<CompareRow>, key: WindowKey) => {
  const reasons: ReturnReason[] = []
  const periods = rows.map((r) => r.periods[key])
  if (periods.some((p) => p.value === null)) reasons.push("unavailable_return")
  if (distinct(rows.map((r) => r.currency)) > 1) reasons.push("currency_mismatch")
  const available = periods.filter((p) => p.value !== null)
  if (distinct(available.map((p) => [p.effective_start_date, p.effective_end_date])) > 1) reasons.push("effective_dates_mismatch")
  return { comparable: reasons.length === 0, reasons }
}

/** Spheres compare when all are rated, in one CMF family and investor type, on one date (one methodology: ind_rar_pond). */
export const spheresComparability = (rows: ReadonlyArray<CompareRow>) => {
  const reasons: SpheresReason[] = []
  if (rows.some((r) => r.spheresValue === null)) reasons.push("unavailable_indicator")
  const known = rows.flatMap((r) => (r.spheres === undefined ? [] : [r.spheres]))
  if (distinct(known.map((s) => [s.family, s.investor_type])) > 1) reasons.push("comparison_group_mismatch")
  if (distinct(known.map((s) => s.as_of)) > 1) reasons.push("as_of_date_mismatch")
  return { comparable: reasons.length === 0, reasons }
}

/**
 * The answer of one id list on one snapshot, as its bytes or its failure (an id outside the
 * universe, a batch without returns): an Exit, so that it can be kept like any answer.
 */
const compareBytes = (
  r: SnapshotReader,
  lease: Lease,
  graceWeekdays: number,
  ids: ReadonlyArray<number>,
): Exit.Exit<Uint8Array, NotFound | ServiceUnavailable> => {
  if (!hasReturns(r.db)) return Exit.fail(batchUnavailable())
  const batchDate = dateToInt(r.batchDate)
  const info = batchInfo(lease.file, lease.contentHash, r.batchDate)
  const byId = compareRowsById(r.db, batchDate, graceWeekdays, info)
  const picked: CompareRow[] = []
  for (const id of ids) {
    const current = resolveAssetId(r.db, id)
    const row = current === null ? undefined : byId.get(current)
    if (row === undefined) return Exit.fail(new NotFound({ message: `series ${id} is not in the published universe`, parameter: "series" }))
    if (!picked.includes(row)) picked.push(row)
  }
  const body: CompareBody = {
    data: picked.map((row) => ({ id: String(row.assetId), type: "fund_comparison" as const, attributes: row.attributes })),
    meta: {
      ...batchMeta(info, compareRows(r.db, batchDate, graceWeekdays, info).length),
      comparability: Object.fromEntries(
        WINDOWS.map((k) => [k, periodComparability(picked, k)]),
      ) as unknown as CompareBody["meta"]["comparability"],
      cmf_spheres_comparability: spheresComparability(picked),
    },
  }
  return Exit.succeed(Buffer.from(JSON.stringify(body), "utf8"))
}

/** How many compare answers a snapshot keeps, per id list (~60 kB each for ten ids at full size). */
const KEPT_ANSWERS = 256

/**
 * The answer of one id list (decoded by CompareQuery, MarketCompareApi.ts) is the same for every
 * caller of a batch: it is rendered once per snapshot and kept (bounded, least recently used
 * first out), errors included. The rows are the universe's with `graceWeekdays`
 * (FDS_SERIES_GRACE_DAYS).
 */
export const compareAnswer = Effect.fn(function* (ids: ReadonlyArray<number>, graceWeekdays: number) {
  const lease = yield* PinnedSnapshot
  const answer = yield* lease.read((r) =>
    memoLru(r.db, `compareAnswer:${graceWeekdays}`, ids.join(","), KEPT_ANSWERS, () => compareBytes(r, lease, graceWeekdays, ids)),
  )
  return jsonBytes(yield* answer)
})
