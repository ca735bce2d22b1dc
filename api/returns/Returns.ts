/**
 * Handlers of the returns routes: /returns, /risk_metrics, /expense_ratio and its history. Each
 * request reads one pinned snapshot. FM ids (and previous ids of renamed series) are answered
 * here; UUIDs go to the FiReturnsSource service when one is provided, else they are unknown.
 * Both kinds of body go through the routes' response schemas, which encode (and so check) them.
 */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { InvalidParameter, NotFound, type ServiceUnavailable } from "../../schemas/ApiErrors.ts"
import { dateToInt } from "../../schemas/Dates.ts"
import { seriesRisk } from "../../snapshots/compute/Policy.ts"
import { loadHistory } from "../../snapshots/readers/ReturnsHistory.ts"
import { storedRisk } from "../../snapshots/readers/ReturnsRows.ts"
import { latestTac, resolveSeries, tacHistory } from "../../snapshots/readers/ReturnsSeries.ts"
import { Api } from "../Api.ts"
import { withSnapshot } from "../snapshot/Snapshot.ts"
import type { Lease } from "../snapshot/SnapshotStore.ts"
import { fmReturnsAnswer } from "./ReturnsAnswer.ts"
import { enabledBases, requireEnabled } from "./ReturnsBases.ts"
import { expenseRatioBody, expenseRatioHistoryBody, fromMonth, riskBody } from "./ReturnsMetrics.ts"
import { canonicalAssetText, FiReturnsSource, noFiSource, parseAssetRef } from "./ReturnsSubject.ts"

const notFound = (text: string) => new NotFound({ message: `no series with id ${text}`, parameter: "asset_id" })

const orNotFound = <A>(text: string) => (found: A | null) =>
  found === null ? Effect.fail(notFound(text)) : Effect.succeed(found)

export const ReturnsHandlers = HttpApiBuilder.group(
  Api,
  "returns",
  Effect.fn(function* (handlers) {
    // Read once at start: a malformed flag stops the server rather than serving a guess.
    const bases = yield* Effect.orDie(enabledBases)
    const fi = Option.getOrElse(yield* Effect.serviceOption(FiReturnsSource), () => noFiSource)

    /** Runs an FM read (null = unknown series) or the FI source's, on the request's snapshot. */
    const perSeries = <A, B>(
      text: string,
      fm: (lease: Lease, id: number) => Effect.Effect<A | null, InvalidParameter | ServiceUnavailable>,
      fiAnswer: (lease: Lease, id: string) => Effect.Effect<B | null, InvalidParameter | ServiceUnavailable>,
    ) =>
      Effect.flatMap(parseAssetRef(text), (ref) =>
        withSnapshot((lease): Effect.Effect<A | B, NotFound | InvalidParameter | ServiceUnavailable> =>
          ref.kind === "fm"
            ? Effect.flatMap(fm(lease, ref.id), orNotFound<A>(text))
            : Effect.flatMap(fiAnswer(lease, ref.id), orNotFound<B>(text)),
        ),
      )

    return handlers
      .handle("returns", ({ params, query }) => {
        const valuation = query.valuation
        const basis = query.return_basis
        const text = canonicalAssetText(params.asset_id)
        return Effect.andThen(
          requireEnabled(bases, valuation, basis),
          perSeries(
            text,
            (lease, id) =>
              Effect.flatMap(
                lease.read((r) => fmReturnsAnswer(r, lease, { requestedId: text, id, asOfDate: query.as_of_date, valuation, basis })),
                (answer) =>
                  answer._tag === "ok"
                    ? Effect.succeed(answer.body)
                    : answer._tag === "unknown"
                      ? Effect.succeed(null)
                      : Effect.fail(
                          new InvalidParameter({
                            parameter: "as_of_date",
                            message: `invalid query parameter as_of_date: ${query.as_of_date} is after the latest published batch (${answer.batchDate})`,
                          }),
                        ),
              ),
            (lease, id) =>
              basis === "total"
                ? Effect.flatMap(fi.exists(lease, id), (published) =>
                    published
                      ? Effect.fail(
                          new InvalidParameter({
                            parameter: "return_basis",
                            message: "invalid query parameter return_basis: FI and ETF series accept only price",
                          }),
                        )
                      : Effect.succeed(null),
                  )
                : fi.returns(lease, id, { requestedId: text, cutoff: query.as_of_date, valuation }),
          ),
        )
      })
      .handle("riskMetrics", ({ params }) => {
        const text = canonicalAssetText(params.asset_id)
        return perSeries(
          text,
          (lease, id) =>
            lease.read((r) => {
              const s = resolveSeries(r.db, id)
              if (s === null) return null
              const { asset_id: assetId, currency } = s.series
              // The batch's stored snapshot; computed now only if this batch has none for the series.
              const batch = dateToInt(r.batchDate)
              const risk = storedRisk(r.db, assetId) ?? seriesRisk(loadHistory(r.db, assetId, batch), batch, currency)
              return riskBody(text, s, risk)
            }),
          (lease, id) => fi.riskMetrics(lease, id, text),
        )
      })
      .handle("expenseRatio", ({ params }) => {
        const text = canonicalAssetText(params.asset_id)
        return perSeries(
          text,
          (lease, id) =>
            lease.read((r) => {
              const s = resolveSeries(r.db, id)
              return s === null ? null : expenseRatioBody(text, s, latestTac(r.db, s.series.asset_id))
            }),
          (lease, id) => fi.expenseRatio(lease, id, text),
        )
      })
      .handle("expenseRatioHistory", ({ params, query }) => {
        const text = canonicalAssetText(params.asset_id)
        return perSeries(
          text,
          (lease, id) =>
            lease.read((r) => {
              const s = resolveSeries(r.db, id)
              return s === null
                ? null
                : expenseRatioHistoryBody(text, tacHistory(r.db, s.series.asset_id, fromMonth(query.from_date)))
            }),
          (lease, id) => fi.expenseRatioHistory(lease, id, text, query.from_date),
        )
      })
  }),
)
