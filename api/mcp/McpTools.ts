/**
 * The MCP tools: each one is a route of the API (or a few), called in-process on the call's
 * snapshot (RouteCaller). Parameters keep the routes' names and their own Schemas (the params and
 * query schemas of the endpoints), so a 422 of the route names the tool's parameter; the result
 * is the route's JSON with the call's batch_id, and one line of summary.
 */
import { Effect, Schema } from "effect"
import { CatalogApi } from "../catalog/CatalogApi.ts"
import { FiApi } from "../fi/FiApi.ts"
import { compare, screener } from "../market/MarketCompareApi.ts"
import { carteraHoldings } from "../market/MarketFundApi.ts"
import { tacChanges } from "../market/MarketStatsApi.ts"
import { marketSummary } from "../market/MarketViewsApi.ts"
import { ReturnsApi } from "../returns/ReturnsApi.ts"

/** Tool arguments as the routes take them: text. */
export type Args = Readonly<Record<string, string>>

/** A route's JSON body (a tool reads a few of its fields for the summary). */
// biome-ignore lint/suspicious/noExplicitAny: route bodies are the routes' JSON, checked by their own schemas
export type Json = any

/** A route's answer other than 200: the call ends with it (its JSON error body and Retry-After). */
export class RouteRefusal extends Schema.TaggedError<RouteRefusal>()("RouteRefusal", {
  status: Schema.Int,
  body: Schema.Unknown,
  retryAfter: Schema.NullOr(Schema.Int),
}) {}

/** GET of a route on the call's snapshot: its body when 200. */
export type Get = (path: string, query?: Readonly<Record<string, string | undefined>>) => Effect.Effect<Json, RouteRefusal>

export interface ToolAnswer {
  /** The route's JSON (or the routes', by name); the call adds batch_id. */
  readonly structured: Record<string, unknown>
  readonly summary: string
}

export interface Tool {
  readonly name: string
  readonly description: string
  /** The fields of the routes' params and query schemas the tool takes. */
  readonly input: Schema.Struct.Fields
  /** Parameters of which exactly one must be given (fund_portfolio: run or instrument_id). */
  readonly oneOf?: ReadonlyArray<string>
  readonly run: (args: Args, get: Get) => Effect.Effect<ToolAnswer, RouteRefusal>
}

/** The fields an endpoint declared for its params or query (the endpoint keeps them as a Struct, or a codec of one). */
// biome-ignore lint/suspicious/noExplicitAny: the endpoint's schema, typed per endpoint
const fieldsOf = (schema: any): Schema.Struct.Fields => (schema === undefined ? {} : ((schema.fields ?? schema.schema.fields) as Schema.Struct.Fields))
const optional = (fields: Schema.Struct.Fields): Schema.Struct.Fields =>
  // biome-ignore lint/suspicious/noExplicitAny: a required path parameter made optional for a tool that takes one of two
  Object.fromEntries(Object.entries(fields).map(([n, f]) => [n, Schema.optionalKey(f as any)]))

const enc = encodeURIComponent
const pct = (x: number | null | undefined) => (typeof x === "number" ? `${(x * 100).toFixed(2)} %` : "n/a")

const realAssets = CatalogApi.endpoints.realAssets
const returns = ReturnsApi.endpoints.returns
const fiInstruments = FiApi.endpoints.instruments
const fiHoldings = FiApi.endpoints.holdings

export const TOOLS: ReadonlyArray<Tool> = [
  {
    name: "search_funds",
    description:
      "Find mutual fund series (the screener, GET /api/screener): by name or RUN (q), administrator, category, currency, family, investor class, CMF spheres; sorted by TAC, spheres or a return window; paged.",
    input: fieldsOf(screener.query),
    run: (args, get) =>
      Effect.gen(function* () {
      const body = yield* get("/api/screener", args)
      const first = body.data[0]?.attributes
      return {
        structured: body,
        summary: `${body.meta.total} series match; ${body.data.length} shown from ${body.meta.offset}${first === undefined ? "" : `, first ${first.fundName} serie ${first.serie} (id ${body.data[0].id})`}.`,
      }
      }),
  },
  {
    name: "get_fund",
    description:
      "A mutual fund by id (concept_id, the fundId of search_funds): its catalog entry, its series with their latest quota value, and each series' latest TAC (GET /api/real_assets/{id}/expense_ratio) and risk (…/risk_metrics).",
    input: fieldsOf(realAssets.params),
    run: (args, get) =>
      Effect.gen(function* () {
      const id = args.concept_id ?? ""
      const series = yield* get(`/api/conceptual_assets/${enc(id)}/real_assets`)
      const ids: string[] = series.data.map((s: Json) => s.id)
      const expense_ratio = yield* Effect.forEach(ids, (s) => get(`/api/real_assets/${s}/expense_ratio`))
      const risk_metrics = yield* Effect.forEach(ids, (s) => get(`/api/real_assets/${s}/risk_metrics`))
      // The catalog entry: the screener's rows of the fund (its RUN as q), when it has current series.
      const run = series.data[0]?.attributes.run
      const rows = run === undefined ? [] : (yield* get("/api/screener", { q: run, limit: "200" })).data
      const row = rows.find((r: Json) => r.attributes.fundId === String(Number(id)))?.attributes
      const fund =
        row === undefined
          ? null
          : { fundId: row.fundId, fundName: row.fundName, run: row.run, agf: row.agf, category: row.category, fundFamily: row.fundFamily }
      return {
        structured: { concept_id: id, fund, series: series.data, expense_ratio, risk_metrics },
        summary: `${fund?.fundName ?? `fund ${id}`}${fund?.agf ? ` (${fund.agf})` : ""}: ${ids.length} series; ${series.data
          .map((s: Json, i: number) => `${s.attributes.serie} value ${s.attributes.last_day?.net_asset_value ?? "n/a"} TAC ${pct(expense_ratio[i]?.data?.attributes?.expense_ratio)}`)
          .join("; ")}.`,
      }
      }),
  },
  {
    name: "get_returns",
    description:
      "Returns of a series over eight windows (GET /api/real_assets/{asset_id}/returns): valuation (accounting, clp, real_uf), basis (price, total) and a past cutoff (as_of_date).",
    input: { ...fieldsOf(returns.params), ...fieldsOf(returns.query) },
    run: ({ asset_id, ...query }, get) =>
      Effect.gen(function* () {
      const body = yield* get(`/api/real_assets/${enc(asset_id ?? "")}/returns`, query)
      const a = body.data.attributes
      const periods = a.periods ?? {}
      return {
        structured: body,
        summary: `Series ${asset_id} as of ${a.as_of_date ?? "n/a"} (${a.valuation ?? "accounting"}, ${a.return_basis}): 1y ${pct(periods["1y"]?.value)}, ytd ${pct(periods.ytd?.value)}, 3y annualised ${pct(periods["3y_ann"]?.value)}.`,
      }
      }),
  },
  {
    name: "compare_funds",
    description:
      "Compare up to ten series side by side (GET /api/compare): catalog, returns, TAC, risk and CMF spheres, with per-window comparability and its reasons.",
    input: fieldsOf(compare.query),
    run: (args, get) =>
      Effect.gen(function* () {
      const body = yield* get("/api/compare", args)
      const comparable = Object.entries(body.meta.comparability)
        .filter(([, c]) => (c as Json).comparable)
        .map(([k]) => k)
      return {
        structured: body,
        summary: `${body.data.length} series compared; returns comparable over ${comparable.length === 0 ? "no window" : comparable.join(", ")}.`,
      }
      }),
  },
  {
    name: "market_summary",
    description:
      "The market at a date (GET /api/market-summary): AFM families as indices per currency, and the top daily and monthly movers. A past date is a backtest over today's funds.",
    input: fieldsOf(marketSummary.query),
    run: (args, get) =>
      Effect.gen(function* () {
      const body = yield* get("/api/market-summary", args)
      const top = body.topGainersDaily[0]
      return {
        structured: body,
        summary: `Market on ${body.meta.date}: ${body.families.length} families${top === undefined ? "" : `; top daily gainer ${top.fundName ?? top.name ?? top.serieId} ${pct(top.dailyChange ?? top.change)}`}.`,
      }
      }),
  },
  {
    name: "fund_portfolio",
    description:
      "A fund's holdings for a month, largest first: a mutual fund by RUN (GET /api/funds/{run}/cartera/holdings) or an investment fund or ETF by instrument_id (GET /api/fi/instruments/{id}/cartera/holdings). Give exactly one of run and instrument_id.",
    input: { ...optional({ ...fieldsOf(carteraHoldings.params), ...fieldsOf(fiHoldings.params) }), ...fieldsOf(carteraHoldings.query) },
    oneOf: ["run", "instrument_id"],
    run: ({ run, instrument_id, ...query }, get) =>
      Effect.gen(function* () {
      const body =
        run !== undefined
          ? yield* get(`/api/funds/${enc(run)}/cartera/holdings`, query)
          : yield* get(`/api/fi/instruments/${enc(instrument_id ?? "")}/cartera/holdings`, query)
      const m = body.meta
      return {
        structured: body,
        summary: `${m.fundName ?? m.name ?? run ?? instrument_id}: ${body.data.length} holdings in ${m.month ?? m.period ?? "the latest month"}.`,
      }
      }),
  },
  {
    name: "list_investment_funds",
    description:
      "Investment funds (FI) and ETFs (GET /api/fi/instruments): by administrator, ETF or not, regulatory type, status, name, ticker or RUN; paged.",
    input: fieldsOf(fiInstruments.query),
    run: (args, get) =>
      Effect.gen(function* () {
      const body = yield* get("/api/fi/instruments", args)
      return {
        structured: body,
        summary: `${body.total} investment funds and ETFs match; ${body.data.length} shown from ${body.offset}.`,
      }
      }),
  },
  {
    name: "tac_changes",
    description: "The largest TAC changes of a closed month against the month before, one series per fund (GET /api/reports/tac-changes).",
    input: fieldsOf(tacChanges.query),
    run: (args, get) =>
      Effect.gen(function* () {
      const body = yield* get("/api/reports/tac-changes", args)
      const top = body.data[0]
      return {
        structured: body,
        summary: `${body.meta.total} funds changed TAC (${body.meta.direction}) in ${body.meta.currentMonthKey}${top === undefined ? "" : `; largest: ${top.fundName} ${pct(top.tacPrevious)} → ${pct(top.tac)}`}.`,
      }
      }),
  },
  {
    name: "data_status",
    description: "The batch this service answers from, its date, the service's state and the freshness of each source (GET /health).",
    input: {},
    run: (_args, get) =>
      Effect.gen(function* () {
      const body = yield* get("/health")
      const late = body.sources.filter((s: Json) => s.state !== "fresh").map((s: Json) => `${s.data_set} ${s.state}`)
      return {
        structured: body,
        summary: `Batch of ${body.last_scraped_date}, ${body.status}; ${late.length === 0 ? "every source fresh" : late.join(", ")}.`,
      }
      }),
  },
]

/** A tool's input JSON Schema: its fields' own Schemas; parameters it does not know are refused. */
export const inputJsonSchema = (tool: Tool): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(Schema.Struct(tool.input), { onExcessProperty: "error" })
  // MCP wants an object schema even for a tool without parameters (effect gives `{}` for an empty Struct)
  const schema: Record<string, unknown> = { type: "object", properties: {}, additionalProperties: false, ...(document.schema as Record<string, unknown>) }
  if (Object.keys(document.definitions).length > 0) schema.$defs = document.definitions
  return schema
}
