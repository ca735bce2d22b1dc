/**
 * Handlers of the fi routes, on the snapshot pinned for the request: a batch without FI data
 * answers 503 (requireFi) on every route; parameter checks that need no data come first (the same
 * answer whatever the batch holds).
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { requireFi } from "../snapshot/FiSnapshot.ts"
import { read } from "../snapshot/Pinned.ts"
import { carteraHoldings, carteraResumen, checkMonth, requirePortfolio } from "./FiCartera.ts"
import { instrumentDetail, requireInstrument } from "./FiDetail.ts"
import { instrumentsPage } from "./FiInstruments.ts"
import { instrumentPrices } from "./FiPrices.ts"

export const FiHandlers = HttpApiBuilder.group(Api, "fi", (handlers) =>
  handlers
    .handle(
      "instruments",
      Effect.fn(function* ({ query }) {
        yield* requireFi
        return yield* read((r) => instrumentsPage(r, query))
      }),
    )
    .handle(
      "instrument",
      Effect.fn(function* ({ params }) {
        yield* requireFi
        const instrument = yield* requireInstrument(params.instrument_id)
        return yield* read((r) => instrumentDetail(r, instrument))
      }),
    )
    .handle(
      "prices",
      Effect.fn(function* ({ params, query }) {
        yield* requireFi
        const instrument = yield* requireInstrument(params.instrument_id)
        return yield* read((r) => instrumentPrices(r, instrument, query))
      }),
    )
    .handle(
      "holdings",
      Effect.fn(function* ({ params, query }) {
        yield* checkMonth(query.month)
        yield* requireFi
        const portfolio = yield* requirePortfolio(params.instrument_id, query.month)
        return yield* read((r) => carteraHoldings(r, portfolio, query.market))
      }),
    )
    .handle(
      "resumen",
      Effect.fn(function* ({ params, query }) {
        yield* checkMonth(query.month)
        yield* requireFi
        const portfolio = yield* requirePortfolio(params.instrument_id, query.month)
        return yield* read((r) => carteraResumen(r, portfolio, query.market))
      }),
    ),
)
