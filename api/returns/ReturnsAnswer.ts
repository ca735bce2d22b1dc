/**
 * The `/returns` answer for an FM series, read on the request's pinned snapshot: the batch's
 * precomputed rows when the cutoff is the batch date, otherwise the same computation run now on
 * the snapshot's history. Either way the body comes from the same ReturnsResult shape.
 */
import { Effect } from "effect"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { seriesReturns } from "../../snapshots/compute/Policy.ts"
import type { ReturnBasis } from "../../snapshots/compute/Returns.ts"
import type { Valuation } from "../../snapshots/compute/Valuation.ts"
import { historyFor, loadIndicators } from "../../snapshots/readers/ReturnsHistory.ts"
import { storedReturns } from "../../snapshots/readers/ReturnsRows.ts"
import { resolveSeries, spheresOf } from "../../snapshots/readers/ReturnsSeries.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import { returnsBody } from "./ReturnsBody.ts"
import { seriesNotFound } from "./ReturnsSubject.ts"

export interface FmReturnsRequest {
  readonly requestedId: string
  readonly id: number
  /** YYYY-MM-DD; the batch date when absent. */
  readonly asOfDate: string | undefined
  readonly valuation: Valuation
  readonly basis: ReturnBasis
}

/** Fails with 422 (as_of_date after the batch) or 404 (no such series on this batch). */
export const fmReturns = Effect.fn(function* (q: FmReturnsRequest) {
  const lease = yield* PinnedSnapshot
  const batch = yield* lease.read((r) => r.batchDate)
  const batchDate = dateToInt(batch)
  const cutoff = q.asOfDate === undefined ? batchDate : dateToInt(q.asOfDate)
  if (cutoff > batchDate) {
    return yield* new InvalidParameter({
      parameter: "as_of_date",
      message: `invalid query parameter as_of_date: ${q.asOfDate} is after the latest published batch (${batch})`,
    })
  }
  const resolved = yield* lease.read((r) => resolveSeries(r.db, q.id))
  if (resolved === null) return yield* seriesNotFound(q.requestedId)
  return yield* lease.read(({ db }) => {
    const { asset_id: assetId, currency } = resolved.series
    const stored = cutoff === batchDate ? storedReturns(db, assetId, currency, q.valuation, q.basis, batchDate) : null
    const result =
      stored ?? seriesReturns(historyFor(db, assetId, cutoff, q.basis), cutoff, currency, q.valuation, q.basis, loadIndicators(db))
    return returnsBody(
      {
        requestedId: q.requestedId,
        resolved,
        spheres: spheresOf(db, assetId),
        batchDate,
        file: lease.file,
        contentHash: lease.contentHash,
        mode: stored === null ? "direct" : "snapshot",
      },
      result,
    )
  })
})
