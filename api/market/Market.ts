/**
 * Handlers of the market routes: each pins one snapshot for the request (withSnapshot) and reads
 * through it. The market universe is the series active with the server's FDS_SERIES_GRACE_DAYS.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { seriesGraceWeekdays } from "../snapshot/SeriesGrace.ts"
import { withSnapshot } from "../snapshot/Snapshot.ts"
import { allFundsAnswer } from "./MarketAllFunds.ts"
import { benchmarkPricesAnswer, benchmarksAnswer } from "./MarketBenchmarks.ts"
import { compareAnswer } from "./MarketCompare.ts"
import { article107Answer, carteraHoldingsAnswer, carteraResumenAnswer } from "./MarketFund.ts"
import { acceptsGzip } from "./MarketResponses.ts"
import { screenerAnswer } from "./MarketScreener.ts"
import { agfEvolutionAnswer, agfRankingAnswer, tacChangesAnswer } from "./MarketStats.ts"
import { familyIndexAnswer, marketSummaryAnswer } from "./MarketSummary.ts"

export const MarketHandlers = HttpApiBuilder.group(Api, "market", (handlers) =>
  Effect.map(seriesGraceWeekdays, (grace) =>
    handlers
      .handle("allFunds", ({ query, request }) => withSnapshot((lease) => allFundsAnswer(lease, query, acceptsGzip(request), grace)))
      .handle("marketSummary", ({ query, request }) =>
        withSnapshot((lease) => marketSummaryAnswer(lease, query.date, acceptsGzip(request), grace)),
      )
      .handle("familyIndex", ({ params, query }) => withSnapshot((lease) => familyIndexAnswer(lease, params.family_rar, query)))
      .handle("benchmarks", ({ request }) => withSnapshot((lease) => benchmarksAnswer(lease, acceptsGzip(request))))
      .handle("benchmarkPrices", ({ params, query }) =>
        withSnapshot((lease) => benchmarkPricesAnswer(lease, params.family_rar, query.from_date)),
      )
      .handle("agfRanking", ({ query }) => withSnapshot((lease) => agfRankingAnswer(lease, query, grace)))
      .handle("agfEvolution", ({ query }) => withSnapshot((lease) => agfEvolutionAnswer(lease, query)))
      .handle("tacChanges", ({ query }) => withSnapshot((lease) => tacChangesAnswer(lease, query)))
      .handle("carteraResumen", ({ params, query }) => withSnapshot((lease) => carteraResumenAnswer(lease, params.run, query)))
      .handle("carteraHoldings", ({ params, query }) => withSnapshot((lease) => carteraHoldingsAnswer(lease, params.run, query)))
      .handle("article107", ({ params }) => withSnapshot((lease) => article107Answer(lease, params.run)))
      .handle("compare", ({ query }) => withSnapshot((lease) => compareAnswer(lease, query.series, grace)))
      .handle("screener", ({ query }) => withSnapshot((lease) => screenerAnswer(lease, query, grace))),
  ),
)
