/**
 * Handlers of the fi routes, on the snapshot pinned for the request: a batch without FI data
 * answers 503 (requireFi) on every route; parameter checks that need no data come first (the same
 * answer whatever the batch holds).
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { Api } from "../Api.ts"
import { offsetPageLinks } from "../http/PageLinks.ts"
import { requireFi } from "../snapshot/FiSnapshot.ts"
import { PinnedSnapshot, read } from "../snapshot/Pinned.ts"
import { carteraHoldings, carteraResumen, checkMonth, requirePortfolio } from "./FiCartera.ts"
import { instrumentDetail, requireInstrument } from "./FiDetail.ts"
import { instrumentsPage } from "./FiInstruments.ts"
import { instrumentPrices } from "./FiPrices.ts"

/** The batch the request reads: what the paged lists' links name, so their next pages read it too. */
const pinnedBatchId = Effect.map(PinnedSnapshot, (lease) => batchIdOfFile(lease.file))

export const FiHandlers = HttpApiBuilder.group(Api, "fi", (handlers) =>
  handlers
    .handle(
      "instruments",
      Effect.fn(function* ({ query }) {
        yield* requireFi
        const page = yield* read((r) => instrumentsPage(r, query))
        return { ...page, links: yield* offsetPageLinks(page, yield* pinnedBatchId) }
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
        const page = yield* read((r) => instrumentPrices(r, instrument, query))
        return { ...page, links: yield* offsetPageLinks(page, yield* pinnedBatchId) }
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
