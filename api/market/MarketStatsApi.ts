/** Administrator statistics and the TAC-change report (contract only). */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { dataErrors } from "../../schemas/ApiErrors.ts"
import { IsoDate } from "../../schemas/Dates.ts"
import { AgfMetric, Category, ReportLimit, TacDirection, YearMonth } from "../../schemas/MarketParams.ts"
import { AgfEvolutionResponse, AgfRankingResponse, TacChangesResponse } from "../../schemas/MarketStats.ts"

export const agfRanking = HttpApiEndpoint.get("agfRanking", "/api/agf_stats/ranking", {
  query: {
    metric: Schema.optionalKey(AgfMetric),
    date: Schema.optionalKey(IsoDate.annotate({ description: "YYYY-MM-DD (latest when absent)" })),
  },
  success: AgfRankingResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Administrators ranked by patrimony (CLP) or shareholders at a date")

export const agfEvolution = HttpApiEndpoint.get("agfEvolution", "/api/agf_stats/evolution", {
  query: {
    administrator: Schema.NonEmptyArray(Schema.String).annotate({
      description: "Administrator names as the ranking shows them (case-insensitive); repeat the parameter",
    }),
    metric: Schema.optionalKey(AgfMetric),
    from_month: Schema.optionalKey(YearMonth),
    to_month: Schema.optionalKey(YearMonth),
  },
  success: AgfEvolutionResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Monthly evolution of administrators, pivoted by month for charts")

export const tacChanges = HttpApiEndpoint.get("tacChanges", "/api/reports/tac-changes", {
  query: {
    date: Schema.optionalKey(IsoDate.annotate({ description: "Any date of a closed month (default: the last month with TAC)" })),
    direction: Schema.optionalKey(TacDirection),
    limit: Schema.optionalKey(ReportLimit),
    category: Schema.optionalKey(Category),
  },
  success: TacChangesResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Largest TAC changes of a closed month vs the month before, one series per fund")
