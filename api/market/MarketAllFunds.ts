/**
 * /api/all-funds. Read one resolves the request on the pinned snapshot (the cutoff must not be
 * after the batch; the ready bytes answer the plain latest request of each vehicle). Any other
 * request is rendered off the event loop (OffThreadRender.ts) from the pinned snapshot's file, so
 * the answer is of one batch; its bytes are kept per snapshot (bounded). A vehicle whose data is
 * unavailable answers 503 for the whole request (no FM rows alone either).
 */
import { Effect } from "effect"
import type { HttpServerResponse } from "effect/http"
import { InvalidParameter, ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { familyOf } from "../../schemas/MarketParams.ts"
import type { AllFundsFilters } from "../../snapshots/readers/MarketAllFunds.ts"
import { keptLru } from "../../snapshots/readers/MarketDb.ts"
import { readyAnswer, readyUniverseAnswer } from "../../snapshots/readers/MarketReady.ts"
import { FI_RETRY_AFTER_SECONDS } from "../snapshot/FiSnapshot.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { afterBatch, jsonBytes, readyResponse } from "./MarketResponses.ts"
import { fiUnavailable, type VehicleUnavailable } from "./MarketVehicles.ts"
import type { AllFundsQuery } from "./MarketViewsApi.ts"
import { OffThreadRenderer } from "./OffThreadRender.ts"

/** Rendered answers kept per snapshot (up to ~2 MB each at full size). */
const KEPT_ANSWERS = 32

const filtersOf = (q: AllFundsQuery): AllFundsFilters => ({
  ...(q.category === undefined ? {} : { category: q.category }),
  ...(q.fund_family === undefined ? {} : { familySlug: familyOf(q.fund_family)?.slug ?? q.fund_family }),
  ...(q.article107_regulation_status === undefined ? {} : { article107Status: q.article107_regulation_status }),
})

/** A vehicle's rows missing from the batch (its FI/ETF part) come back only with another batch: the FI routes' Retry-After. */
const unavailable = (u: VehicleUnavailable) =>
  new ServiceUnavailable({ reason: u.unavailable, message: u.message, retryAfter: FI_RETRY_AFTER_SECONDS })

export const allFundsAnswer = (
  lease: Lease,
  query: AllFundsQuery,
  gzip: boolean,
  graceWeekdays: number,
): Effect.Effect<HttpServerResponse.HttpServerResponse, InvalidParameter | ServiceUnavailable, OffThreadRenderer> =>
  Effect.gen(function* () {
    const requested = query.vehicle
    const filters = filtersOf(query)
    const plain = query.date === undefined && Object.keys(filters).length === 0
    const resolved = yield* lease.read((r) => {
      if (query.date !== undefined && query.date > r.batchDate) return afterBatch("date", query.date, r.batchDate)
      // a batch without FI data answers at once, without waiting for the rendering thread
      const fi = requested === "mutual_fund" ? null : fiUnavailable(r, requested === "all" ? "etf" : requested)
      if (fi !== null) return unavailable(fi)
      // the stored FM rows are the universe of the pipeline's grace: another server grace renders live
      const ready =
        requested === "etf" || requested === "investment_fund"
          ? readyAnswer(r.db, `all-funds/${requested}`)
          : readyUniverseAnswer(r.db, `all-funds/${requested}`, graceWeekdays)
      return plain ? (ready ?? "live") : "live"
    })
    if (resolved instanceof InvalidParameter || resolved instanceof ServiceUnavailable) return yield* resolved
    if (resolved !== "live") return readyResponse(resolved, gzip)
    const cutoff = query.date === undefined ? null : dateToInt(query.date)
    const key = JSON.stringify([requested, cutoff, filters, graceWeekdays])
    const { path, kept } = yield* lease.read((r) => ({ path: r.path, kept: keptLru<Uint8Array>(r.db, "allFunds", KEPT_ANSWERS) }))
    const hit = kept.get(key)
    if (hit !== undefined) return jsonBytes(hit)
    const renderer = yield* OffThreadRenderer
    const answer = yield* renderer.render({ kind: "allFunds", path, requested, cutoff, filters, graceWeekdays })
    if (answer === null) return yield* Effect.die(new Error("an all-funds rendering answered nothing"))
    if (!(answer instanceof Uint8Array)) return yield* unavailable(answer)
    kept.set(key, answer)
    return jsonBytes(answer)
  })
