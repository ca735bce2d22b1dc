/**
 * /api/all-funds. Read one resolves the request on the pinned snapshot (the cutoff must not be
 * after the batch; the ready bytes answer the plain latest request of each vehicle); then one read
 * per vehicle gathers its rows. Every read goes through the same lease: if the snapshot was
 * swapped and closed between two reads, the second fails with 503 `snapshot_changed` and
 * Retry-After, so no answer mixes two batches. A vehicle whose data is unavailable answers 503
 * for the whole request (no FM rows alone either).
 */
import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import { InvalidParameter, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { familyOf } from "../../schemas/MarketParams.ts"
import {
  type AllFundsFilters,
  allFundsJson,
  type RequestedVehicle,
  VEHICLES,
  type VehiclePart,
} from "../../snapshots/readers/MarketAllFunds.ts"
import { memoLru } from "../../snapshots/readers/MarketDb.ts"
import { readyAnswer } from "../../snapshots/readers/MarketReady.ts"
import type { Lease } from "../SnapshotStore.ts"
import { afterBatch, jsonText, readyResponse } from "./MarketResponses.ts"
import { isUnavailable, VEHICLE_SOURCES } from "./MarketVehicles.ts"

export interface AllFundsQuery {
  readonly category?: string
  readonly fund_family?: string
  readonly date?: string
  readonly article107_regulation_status?: string
  readonly vehicle?: RequestedVehicle
}

const filtersOf = (q: AllFundsQuery): AllFundsFilters => ({
  ...(q.category === undefined ? {} : { category: q.category.toLowerCase() }),
  ...(q.fund_family === undefined ? {} : { familySlug: familyOf(q.fund_family)?.slug ?? q.fund_family }),
  ...(q.article107_regulation_status === undefined ? {} : { article107Status: q.article107_regulation_status }),
})

export const allFundsAnswer = (
  lease: Lease,
  query: AllFundsQuery,
  gzip: boolean,
): Effect.Effect<HttpServerResponse.HttpServerResponse, InvalidParameter | ServiceUnavailable> =>
  Effect.gen(function* () {
    const requested = query.vehicle ?? "mutual_fund"
    const filters = filtersOf(query)
    const plain = query.date === undefined && Object.keys(filters).length === 0
    const resolved = yield* lease.read((r) => {
      if (query.date !== undefined && query.date > r.batchDate) return afterBatch("date", query.date, r.batchDate)
      return plain ? (readyAnswer(r.db, `all-funds/${requested}`) ?? "live") : "live"
    })
    if (resolved instanceof InvalidParameter) return yield* resolved
    if (resolved !== "live") return readyResponse(resolved, gzip)
    const request = { cutoff: query.date === undefined ? null : dateToInt(query.date), filters }
    const vehicles = requested === "all" ? VEHICLES : [requested]
    const parts: VehiclePart[] = []
    for (const vehicle of vehicles) {
      const part = yield* lease.read((r) => VEHICLE_SOURCES[vehicle].part(r, request))
      if (isUnavailable(part)) {
        return yield* new ServiceUnavailable({ reason: part.unavailable, message: part.message, retryAfter: 300 })
      }
      parts.push(part)
    }
    const key = JSON.stringify([requested, request.cutoff, filters])
    const text = yield* lease.read((r) => memoLru(r.db, "allFundsText", key, 128, () => allFundsJson(requested, parts)))
    return jsonText(text)
  })
