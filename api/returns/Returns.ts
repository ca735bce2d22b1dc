/**
 * Handlers of the returns routes: /returns, /risk_metrics, /expense_ratio and its history. Each
 * request reads the snapshot pinned for it (PinnedSnapshot). FM ids (and previous ids of renamed series) are answered
 * here; UUIDs go to the FiReturnsSource service when one is provided, else they are unknown.
 * Both kinds of body go through the routes' response schemas, which encode (and so check) them.
 */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { seriesRisk } from "../../snapshots/compute/Policy.ts"
import { loadHistory } from "../../snapshots/readers/ReturnsHistory.ts"
import { storedRisk } from "../../snapshots/readers/ReturnsRows.ts"
import { latestTac, resolveSeries, tacHistory } from "../../snapshots/readers/ReturnsSeries.ts"
import { Api } from "../Api.ts"
import { PinnedSnapshot } from "../snapshot/Pinned.ts"
import { fmReturns } from "./ReturnsAnswer.ts"
import { enabledBases, requireEnabled } from "./ReturnsBases.ts"
import { expenseRatioBody, expenseRatioHistoryBody, fromMonth, riskBody } from "./ReturnsMetrics.ts"
import { canonicalAssetText, FiReturnsSource, noFiSource, parseAssetRef, seriesNotFound } from "./ReturnsSubject.ts"

/** The FM series an id names on the request's batch (a previous id of a renamed series too); 404 when none. */
const fmSeries = Effect.fn(function* (text: string, id: number) {
  const lease = yield* PinnedSnapshot
  const s = yield* lease.read((r) => resolveSeries(r.db, id))
  return s ?? (yield* seriesNotFound(text))
})

export const ReturnsHandlers = HttpApiBuilder.group(
  Api,
  "returns",
  Effect.fn(function* (handlers) {
    // Read once at start: a malformed flag stops the server rather than serving a guess.
    const bases = yield* Effect.orDie(enabledBases)
    const fi = Option.getOrElse(yield* Effect.serviceOption(FiReturnsSource), () => noFiSource)

    return handlers
      .handle(
        "returns",
        Effect.fn(function* ({ params, query }) {
          const valuation = query.valuation
          const basis = query.return_basis
          const text = canonicalAssetText(params.asset_id)
          yield* requireEnabled(bases, valuation, basis)
          const ref = yield* parseAssetRef(text)
          if (ref.kind === "fm") {
            return yield* fmReturns({ requestedId: text, id: ref.id, asOfDate: query.as_of_date, valuation, basis })
          }
          if (basis === "total") {
            if (!(yield* fi.exists(ref.id))) return yield* seriesNotFound(text)
            return yield* new InvalidParameter({
              parameter: "return_basis",
              message: "invalid query parameter return_basis: FI and ETF series accept only price",
            })
          }
          return yield* fi.returns(ref.id, { requestedId: text, cutoff: query.as_of_date, valuation })
        }),
      )
      .handle(
        "riskMetrics",
        Effect.fn(function* ({ params }) {
          const text = canonicalAssetText(params.asset_id)
          const ref = yield* parseAssetRef(text)
          if (ref.kind === "fi") return yield* fi.riskMetrics(ref.id, text)
          const s = yield* fmSeries(text, ref.id)
          const lease = yield* PinnedSnapshot
          return yield* lease.read((r) => {
            const { asset_id: assetId, currency } = s.series
            // The batch's stored snapshot; computed now only if this batch has none for the series.
            const batch = dateToInt(r.batchDate)
            const risk = storedRisk(r.db, assetId) ?? seriesRisk(loadHistory(r.db, assetId, batch), batch, currency)
            return riskBody(text, s, risk)
          })
        }),
      )
      .handle(
        "expenseRatio",
        Effect.fn(function* ({ params }) {
          const text = canonicalAssetText(params.asset_id)
          const ref = yield* parseAssetRef(text)
          if (ref.kind === "fi") return yield* fi.expenseRatio(ref.id, text)
          const s = yield* fmSeries(text, ref.id)
          const lease = yield* PinnedSnapshot
          return yield* lease.read((r) => expenseRatioBody(text, s, latestTac(r.db, s.series.asset_id)))
        }),
      )
      .handle(
        "expenseRatioHistory",
        Effect.fn(function* ({ params, query }) {
          const text = canonicalAssetText(params.asset_id)
          const ref = yield* parseAssetRef(text)
          if (ref.kind === "fi") return yield* fi.expenseRatioHistory(ref.id, text, query.from_date)
          const s = yield* fmSeries(text, ref.id)
          const lease = yield* PinnedSnapshot
          return yield* lease.read((r) => expenseRatioHistoryBody(text, tacHistory(r.db, s.series.asset_id, fromMonth(query.from_date))))
        }),
      )
  }),
)
