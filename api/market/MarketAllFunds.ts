/**
 * /api/all-funds. A cutoff after the batch is a 422; one read then resolves the request on the
 * pinned snapshot (the ready bytes answer the plain latest request of each vehicle). Any other
 * request is rendered off the event loop (OffThreadRender.ts) from the pinned snapshot's file, so
 * the answer is of one batch; its bytes are kept per snapshot (bounded). A vehicle whose data is
 * unavailable answers 503 for the whole request (no FM rows alone either).
 */
import { Effect } from "effect"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { familyOf } from "../../schemas/MarketParams.ts"
import type { AllFundsFilters } from "../../snapshots/readers/MarketAllFunds.ts"
import { keptLru } from "../../snapshots/readers/MarketDb.ts"
import { readyAnswer, readyUniverseAnswer } from "../../snapshots/readers/MarketReady.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import { asOfNeedsDate, jsonBytes, notAfterBatch, stampedReadyResponse } from "./MarketResponses.ts"
import { fiUnavailable } from "./MarketVehicles.ts"
import type { AllFundsQuery } from "./MarketViewsApi.ts"
import { OffThreadRenderer, vehicleUnavailable } from "./OffThreadRender.ts"

/** Rendered answers kept per snapshot (up to ~2 MB each at full size). */
const KEPT_ANSWERS = 32

const filtersOf = (q: AllFundsQuery): AllFundsFilters => ({
  ...(q.category === undefined ? {} : { category: q.category }),
  ...(q.fund_family === undefined ? {} : { familySlug: familyOf(q.fund_family)?.slug ?? q.fund_family }),
  ...(q.article107_regulation_status === undefined ? {} : { article107Status: q.article107_regulation_status }),
})

export const allFundsAnswer = Effect.fn(function* (query: AllFundsQuery, graceWeekdays: number) {
  yield* asOfNeedsDate(query.universe, query.date)
  if (query.universe === "as_of" && query.vehicle !== "mutual_fund") {
    return yield* new InvalidParameter({
      parameter: "universe",
      message: `invalid query parameter universe: as_of covers mutual funds only (vehicle=mutual_fund), not vehicle=${query.vehicle}`,
    })
  }
  yield* notAfterBatch("date", query.date)
  const requested = query.vehicle
  const filters = filtersOf(query)
  // a request naming its universe is answered rendered, its meta naming it (the stored bytes name none)
  const plain = query.date === undefined && query.universe === undefined && Object.keys(filters).length === 0
  const lease = yield* PinnedSnapshot
  const found = yield* lease.read((r) => {
    // a batch without FI data answers at once, without waiting for the rendering thread
    const fi = requested === "mutual_fund" ? null : fiUnavailable(r, requested === "all" ? "etf" : requested)
    // the stored FM rows are the universe of the pipeline's grace: another server grace renders live
    const ready =
      fi !== null || !plain
        ? null
        : requested === "etf" || requested === "investment_fund"
          ? readyAnswer(r.db, `all-funds/${requested}`)
          : readyUniverseAnswer(r.db, `all-funds/${requested}`, graceWeekdays)
    return { fi, ready }
  })
  if (found.fi !== null) return yield* vehicleUnavailable(found.fi)
  if (found.ready !== null) return stampedReadyResponse(found.ready, batchIdOfFile(lease.file))
  const cutoff = query.date === undefined ? null : dateToInt(query.date)
  const universe = query.universe
  const key = JSON.stringify([requested, cutoff, filters, graceWeekdays, universe ?? null])
  const { path, kept } = yield* lease.read((r) => ({ path: r.path, kept: keptLru<Uint8Array>(r.db, "allFunds", KEPT_ANSWERS) }))
  const hit = kept.get(key)
  if (hit !== undefined) return jsonBytes(hit)
  const renderer = yield* OffThreadRenderer
  const answer = yield* renderer.render({
    kind: "allFunds",
    path,
    requested,
    cutoff,
    filters,
    graceWeekdays,
    ...(universe === undefined ? {} : { universe }),
  })
  if (answer === null) return yield* Effect.die(new Error("an all-funds rendering answered nothing"))
  kept.set(key, answer)
  return jsonBytes(answer)
})
