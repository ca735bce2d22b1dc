/** Handlers of the fi routes: each pins one snapshot, answers 503 when its batch has no FI data, then reads. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { readFi } from "../snapshot/FiSnapshot.ts"
import { carteraHoldings, carteraResumen, checkMonth } from "./FiCartera.ts"
import { instrumentDetail } from "./FiDetail.ts"
import { instrumentsPage } from "./FiInstruments.ts"
import { instrumentPrices } from "./FiPrices.ts"

/** Parameter checks that need no data come first: the same answer whatever the batch holds. */
const checked = <E, A, E2, R>(problem: E | null, then: () => Effect.Effect<A, E2, R>) =>
  problem === null ? then() : Effect.fail(problem)

export const FiHandlers = HttpApiBuilder.group(Api, "fi", (handlers) =>
  handlers
    .handle("instruments", ({ query }) => readFi((r) => instrumentsPage(r, query)))
    .handle("instrument", ({ params }) => readFi((r) => instrumentDetail(r, params.instrument_id)))
    .handle("prices", ({ params, query }) => readFi((r) => instrumentPrices(r, params.instrument_id, query)))
    .handle("holdings", ({ params, query }) =>
      checked(checkMonth(query.month), () => readFi((r) => carteraHoldings(r, params.instrument_id, query))),
    )
    .handle("resumen", ({ params, query }) =>
      checked(checkMonth(query.month), () => readFi((r) => carteraResumen(r, params.instrument_id, query))),
    ),
)
