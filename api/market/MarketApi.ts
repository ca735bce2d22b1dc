/** Market routes (contract only; handlers in api/market/Market*.ts). */
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { ApiKeyAuth } from "../security/Security.ts"
import { PinSnapshot } from "../snapshot/Pinned.ts"
import { compare, screener } from "./MarketCompareApi.ts"
import { flows } from "./MarketFlowsApi.ts"
import { article107, carteraHoldings, carteraResumen } from "./MarketFundApi.ts"
import { agfEvolution, agfRanking, tacChanges } from "./MarketStatsApi.ts"
import { allFunds, benchmarkPrices, benchmarks, familyIndex, marketSummary } from "./MarketViewsApi.ts"

export class MarketApi extends HttpApiGroup.make("market")
  .add(allFunds, marketSummary, familyIndex, benchmarks, benchmarkPrices)
  .add(agfRanking, agfEvolution, tacChanges, flows)
  .add(carteraResumen, carteraHoldings, article107)
  .add(compare, screener)
  // the batch is pinned inside the key check: a request without a valid key never takes a lease
  .middleware(PinSnapshot)
  .middleware(ApiKeyAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Market",
      description: "All funds, market summary, family indices, benchmarks, administrator statistics, fund flows, TAC changes, portfolios, article 107, compare, screener",
    }),
  ) {}
