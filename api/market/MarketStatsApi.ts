/** Administrator statistics and the TAC-change report (contract only). */
import { Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { dataErrors } from "../../schemas/ApiErrors.ts"
import { IsoDate } from "../../schemas/Dates.ts"
import { AgfMetric, Category, ReportLimit, TacDirection, YearMonth } from "../../schemas/MarketParams.ts"
import { AgfEvolutionResponse, AgfRankingResponse, TacChangesResponse } from "../../schemas/MarketStats.ts"
import { ruleCheck, withDefault } from "../../schemas/QueryParams.ts"

const metric = AgfMetric.pipe(withDefault("patrimony"))

export const AgfRankingQuery = Schema.Struct({
  metric,
  date: Schema.optionalKey(IsoDate.annotate({ description: "YYYY-MM-DD (latest when absent)" })),
})
export type AgfRankingQuery = typeof AgfRankingQuery.Type

export const agfRanking = HttpApiEndpoint.get("agfRanking", "/api/agf_stats/ranking", {
  query: AgfRankingQuery,
  success: AgfRankingResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Administrators ranked by patrimony (CLP) or shareholders at a date")

/** The first name given twice (names match trimmed and case-insensitively): it would count its administrator twice. */
const repeatedName = (names: ReadonlyArray<string>): string | undefined =>
  names.find((name, i) => names.findIndex((other) => other.trim().toLowerCase() === name.trim().toLowerCase()) < i)

export const AgfEvolutionQuery = Schema.Struct({
  administrator: Schema.NonEmptyArray(Schema.String)
    .check(
      ruleCheck((names: ReadonlyArray<string>) => {
        const twice = repeatedName(names)
        return twice === undefined || `${JSON.stringify(twice)} is given more than once (names match case-insensitively)`
      }),
    )
    .annotate({ description: "Administrator names as the ranking shows them (case-insensitive); repeat the parameter" }),
  metric,
  from_month: Schema.optionalKey(YearMonth),
  to_month: Schema.optionalKey(YearMonth),
}).check(
  ruleCheck((q) =>
    q.from_month === undefined || q.to_month === undefined || q.from_month <= q.to_month || { path: ["from_month"], issue: "after to_month" },
  ),
)
export type AgfEvolutionQuery = typeof AgfEvolutionQuery.Type

export const agfEvolution = HttpApiEndpoint.get("agfEvolution", "/api/agf_stats/evolution", {
  query: AgfEvolutionQuery,
  success: AgfEvolutionResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Monthly evolution of administrators, pivoted by month for charts")

export const TacChangesQuery = Schema.Struct({
  date: Schema.optionalKey(IsoDate.annotate({ description: "Any date of a closed month (default: the last month with TAC)" })),
  direction: TacDirection.pipe(withDefault("up")),
  limit: ReportLimit.pipe(withDefault(15)),
  category: Schema.optionalKey(Category()),
})
export type TacChangesQuery = typeof TacChangesQuery.Type

export const tacChanges = HttpApiEndpoint.get("tacChanges", "/api/reports/tac-changes", {
  query: TacChangesQuery,
  success: TacChangesResponse,
  error: dataErrors(),
}).annotate(OpenApi.Summary, "Largest TAC changes of a closed month vs the month before, one series per fund")
