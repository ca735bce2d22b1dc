/**
 * Handlers of the market routes: each reads the snapshot pinned for the request (PinnedSnapshot)
 * and fails with domain errors. The market universe is the series active with the server's
 * FDS_SERIES_GRACE_DAYS.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { seriesGraceWeekdays } from "../snapshot/SeriesGrace.ts"
import { allFundsAnswer } from "./MarketAllFunds.ts"
import { benchmarkPricesAnswer, benchmarksAnswer } from "./MarketBenchmarks.ts"
import { compareAnswer } from "./MarketCompare.ts"
import { flowsAnswer } from "./MarketFlows.ts"
import { article107Answer, carteraHoldingsAnswer, carteraResumenAnswer } from "./MarketFund.ts"
import { acceptsGzip } from "./MarketResponses.ts"
import { screenerAnswer } from "./MarketScreener.ts"
import { agfEvolutionAnswer, agfRankingAnswer, tacChangesAnswer } from "./MarketStats.ts"
import { familyIndexAnswer, marketSummaryAnswer } from "./MarketSummary.ts"

export const MarketHandlers = HttpApiBuilder.group(Api, "market", (handlers) =>
  Effect.map(seriesGraceWeekdays, (grace) =>
    handlers
      .handle("allFunds", ({ query }) => allFundsAnswer(query, grace))
      .handle("marketSummary", ({ query }) => marketSummaryAnswer(query.date, grace, query.universe))
      .handle("familyIndex", ({ params, query }) => familyIndexAnswer(params.family_rar, query))
      .handle("benchmarks", ({ request }) => benchmarksAnswer(acceptsGzip(request)))
      .handle("benchmarkPrices", ({ params, query }) => benchmarkPricesAnswer(params.family_rar, query.from_date))
      .handle("agfRanking", ({ query }) => agfRankingAnswer(query, grace))
      .handle("agfEvolution", ({ query }) => agfEvolutionAnswer(query))
      .handle("tacChanges", ({ query }) => tacChangesAnswer(query))
      .handle("flows", ({ query }) => flowsAnswer(query))
      .handle("carteraResumen", ({ params, query }) => carteraResumenAnswer(params.run, query))
      .handle("carteraHoldings", ({ params, query }) => carteraHoldingsAnswer(params.run, query))
      .handle("article107", ({ params }) => article107Answer(params.run))
      .handle("compare", ({ query }) => compareAnswer(query.series, grace))
      .handle("screener", ({ query }) => screenerAnswer(query, grace)),
  ),
)
