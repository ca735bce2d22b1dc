/**
 * /api/compare and /api/screener (contract only; handlers in api/market/MarketCompare.ts and
 * MarketScreener.ts). Every invalid value answers 422 naming its parameter with the rule it broke
 * (never clamped); the rules between parameters are checks of the query as a whole.
 */
import { Schema, SchemaTransformation } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { BadRequestResponse, dataErrors, NotFoundResponse } from "../../schemas/ApiErrors.ts"
import { IsoDate } from "../../schemas/Dates.ts"
import { parseUint32 } from "../../schemas/Ids.ts"
import { CompareResponse, ScreenerResponse } from "../../schemas/MarketCompare.ts"
import { Category, Currency, FundFamily, InvestorClass } from "../../schemas/MarketParams.ts"
import { UniverseParam } from "../../schemas/MarketUniverse.ts"
import { QueryInt, QueryText, ruleCheck, withDefault } from "../../schemas/QueryParams.ts"
import { WINDOWS, type WindowKey } from "../../snapshots/compute/Windows.ts"

const MAX_COMPARE = 10

/** What is wrong with a `series` list, or undefined when it is 1 to 10 distinct decimal uint32 ids. */
const seriesListProblem = (text: string): string | undefined => {
  const parts = text.split(",")
  if (parts.length > MAX_COMPARE) return `at most ${MAX_COMPARE} ids (got ${parts.length})`
  const ids: number[] = []
  for (const part of parts) {
    const id = parseUint32(part)
    if (id === null) return `'${part}' is not a decimal unsigned 32-bit id`
    if (ids.includes(id)) return `id ${id} is repeated`
    ids.push(id)
  }
  return undefined
}

/** The requested ids as numbers, in the order given (sent as one comma-separated text). */
const SeriesList = Schema.String.check(ruleCheck((text: string) => seriesListProblem(text) ?? true))
  .annotate({
    description:
      "1 to 10 decimal series ids, comma separated, unique as unsigned 32-bit integers (leading zeros do not distinguish); order kept",
  })
  .pipe(
    Schema.decodeTo(
      Schema.Array(Schema.Int),
      SchemaTransformation.transform({
        decode: (text: string): ReadonlyArray<number> => text.split(",").map((part) => parseUint32(part) as number),
        encode: (ids: ReadonlyArray<number>) => ids.join(","),
      }),
    ),
  )

export const CompareQuery = Schema.Struct({ series: SeriesList })
export type CompareQuery = typeof CompareQuery.Type

export const compare = HttpApiEndpoint.get("compare", "/api/compare", {
  query: CompareQuery,
  success: CompareResponse,
  error: dataErrors(NotFoundResponse),
}).annotate(OpenApi.Summary, "Compare up to ten series of the latest published batch, with per-period and spheres comparability")

export const SORT_KEYS = ["id", "tac", "cmf_spheres", ...WINDOWS] as const
export type SortKey = (typeof SORT_KEYS)[number]
const isWindow = (key: SortKey): key is WindowKey => (WINDOWS as ReadonlyArray<string>).includes(key)

const Spheres = (description: string) => Schema.optionalKey(QueryInt(1, 5, description))
const OfficialWord = (description: string) =>
  Schema.optionalKey(Schema.String.check(Schema.isPattern(/\S/u, { message: "must not be empty" })).annotate({ description }))

export const ScreenerQuery = Schema.Struct({
  q: Schema.optionalKey(QueryText(200, "Substring of the fund name or RUN, case-insensitive (max 200)")),
  fund_family: Schema.optionalKey(
    FundFamily("Catalog fundFamily: an AFM RAR family by display name or slug, case-insensitive; unknown → 422"),
  ),
  investor_class: Schema.optionalKey(InvestorClass),
  currency: Schema.optionalKey(Currency("PESOS/CLP or DOLAR/USD, case-insensitive; required to sort by a return")),
  category: Schema.optionalKey(Category("Catalog category word (as on /api/all-funds), case-insensitive; unknown → 422")),
  administrator: Schema.optionalKey(QueryText(200, "Substring of the administrator name, case-insensitive (max 200)")),
  cmf_spheres_min: Spheres("Inclusive minimum spheres, integer 1 to 5; excludes unavailable values; not above the maximum"),
  cmf_spheres_max: Spheres("Inclusive maximum spheres, integer 1 to 5; excludes unavailable values"),
  cmf_family: OfficialWord("Exact non-empty official CMF sphere family; required to sort by cmf_spheres"),
  cmf_investor_type: OfficialWord("Exact non-empty official CMF investor type; required to sort by cmf_spheres"),
  sort: Schema.Literals(SORT_KEYS)
    .annotate({ description: "id (default), tac, cmf_spheres, 1m, 3m, 6m, 1y, ytd, 3y_ann, 5y_ann, last_closed_month (a return needs currency)" })
    .pipe(withDefault("id")),
  order: Schema.Literals(["asc", "desc"])
    .annotate({ description: "asc (default) or desc; unavailable values last either way, ties by ascending id" })
    .pipe(withDefault("asc")),
  limit: QueryInt(1, 200, "1 to 200, default 50").pipe(withDefault(50)),
  offset: QueryInt(0, 4_294_967_295, "Rows skipped after filtering and sorting, integer ≥ 0, default 0").pipe(withDefault(0)),
  date: Schema.optionalKey(
    IsoDate.annotate({
      description:
        "YYYY-MM-DD, not after the batch (latest when absent): values, returns, risk and TAC as of that date, computed from the quotas; " +
        "over today's funds (survivorship bias) unless universe=as_of",
    }),
  ),
  universe: Schema.optionalKey(UniverseParam),
}).check(
  ruleCheck(
    (q) =>
      q.cmf_spheres_min === undefined ||
      q.cmf_spheres_max === undefined ||
      q.cmf_spheres_min <= q.cmf_spheres_max || {
        path: ["cmf_spheres_min"],
        issue: `must not exceed cmf_spheres_max (${q.cmf_spheres_min} > ${q.cmf_spheres_max})`,
      },
  ),
  ruleCheck(
    (q) =>
      !isWindow(q.sort) ||
      q.currency !== undefined || { path: ["currency"], issue: `required to sort by ${q.sort} (returns compare only within one currency)` },
  ),
  ruleCheck(
    (q) => q.sort !== "cmf_spheres" || q.cmf_family !== undefined || { path: ["cmf_family"], issue: "required to sort by cmf_spheres" },
  ),
  ruleCheck(
    (q) =>
      q.sort !== "cmf_spheres" ||
      q.cmf_investor_type !== undefined || { path: ["cmf_investor_type"], issue: "required to sort by cmf_spheres" },
  ),
)
export type ScreenerQuery = typeof ScreenerQuery.Type

export const screener = HttpApiEndpoint.get("screener", "/api/screener", {
  query: ScreenerQuery,
  success: ScreenerResponse,
  error: dataErrors(BadRequestResponse),
}).annotate(OpenApi.Summary, "Filter and sort the series of the latest published batch, one page at a time")
