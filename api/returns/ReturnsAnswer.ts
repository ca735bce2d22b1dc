/**
 * The `/returns` answer for an FM series, read in one go on the pinned snapshot: the batch's
 * precomputed rows when the cutoff is the batch date, otherwise the same computation run now on
 * the snapshot's history. Either way the body comes from the same ReturnsResult shape.
 */
import { dateToInt } from "../../schemas/Dates.ts"
import type { AdjustedReturnBody, FundReturnBody, TotalReturnBody } from "../../schemas/ReturnsResponses.ts"
import { toIsoDate } from "../../snapshots/compute/Calendar.ts"
import { seriesReturns } from "../../snapshots/compute/Policy.ts"
import type { ReturnBasis } from "../../snapshots/compute/Returns.ts"
import type { Valuation } from "../../snapshots/compute/Valuation.ts"
import type { SnapshotReader } from "../../snapshots/Reader.ts"
import { historyFor, loadIndicators } from "../../snapshots/readers/ReturnsHistory.ts"
import { storedReturns } from "../../snapshots/readers/ReturnsRows.ts"
import { resolveSeries, spheresOf } from "../../snapshots/readers/ReturnsSeries.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { returnsBody } from "./ReturnsBody.ts"

export interface FmReturnsRequest {
  readonly requestedId: string
  readonly id: number
  /** YYYY-MM-DD; the batch date when absent. */
  readonly asOfDate: string | undefined
  readonly valuation: Valuation
  readonly basis: ReturnBasis
}

export type FmReturnsAnswer =
  | { readonly _tag: "ok"; readonly body: FundReturnBody | AdjustedReturnBody | TotalReturnBody }
  | { readonly _tag: "unknown" }
  | { readonly _tag: "after_batch"; readonly batchDate: string }

export const fmReturnsAnswer = (reader: SnapshotReader, lease: Lease, q: FmReturnsRequest): FmReturnsAnswer => {
  const db = reader.db
  const batchDate = dateToInt(reader.batchDate)
  const cutoff = q.asOfDate === undefined ? batchDate : dateToInt(q.asOfDate)
  if (cutoff > batchDate) return { _tag: "after_batch", batchDate: toIsoDate(batchDate) }
  const resolved = resolveSeries(db, q.id)
  if (resolved === null) return { _tag: "unknown" }
  const { asset_id: assetId, currency } = resolved.series
  const stored = cutoff === batchDate ? storedReturns(db, assetId, currency, q.valuation, q.basis, batchDate) : null
  const result =
    stored ?? seriesReturns(historyFor(db, assetId, cutoff, q.basis), cutoff, currency, q.valuation, q.basis, loadIndicators(db))
  const body = returnsBody(
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
  return { _tag: "ok", body }
}
