/** The MCP tools about mutual fund series: find them, a fund, a series' returns, a comparison. */
import { Effect, Schema } from "effect"
import { RealAssetList } from "../../schemas/Catalog.ts"
import { MarketAttributes } from "../../schemas/MarketCompare.ts"
import { CatalogApi } from "../catalog/CatalogApi.ts"
import { compare, screener } from "../market/MarketCompareApi.ts"
import { ReturnsApi } from "../returns/ReturnsApi.ts"
import { answerText, enc, fieldsOf, type Json, num, pct, successOf, type Tool, table } from "./McpTool.ts"

const realAssets = CatalogApi.endpoints.realAssets
const returns = ReturnsApi.endpoints.returns
const expenseRatio = ReturnsApi.endpoints.expenseRatio
const riskMetrics = ReturnsApi.endpoints.riskMetrics

/** The return windows, in the order a reader expects them. */
const WINDOWS = ["1m", "3m", "6m", "ytd", "1y", "3y_ann", "5y_ann", "last_closed_month"] as const

/** A series row of the screener or the comparison (MarketAttributes) as a table row. */
const marketRow = (id: string, a: Json) => [
  id,
  a.fundName,
  a.serie,
  a.currency,
  pct(a.tac),
  pct(a.returns?.periods?.["1y"]?.value),
  pct(a.returns?.periods?.ytd?.value),
  pct(a.returns?.periods?.["3y_ann"]?.value),
  pct(a.volatility_annualized_12m),
  a.risk_level ?? "n/a",
]
const MARKET_HEADER = ["id", "fund", "serie", "currency", "TAC", "1y", "ytd", "3y ann.", "vol 12m ann.", "risk"]

const searchFunds: Tool = {
  name: "search_funds",
  description:
    "Find mutual fund series (the screener, GET /api/screener): by name or RUN (q), administrator, category, currency, family, investor class, CMF spheres; sorted by TAC, spheres or a return window; paged; at a past date (today's funds, or with universe=as_of the funds alive then). Text: one row per series with TAC, 1y, ytd and 3y returns, volatility and risk.",
  input: fieldsOf(screener.query),
  output: successOf(screener),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/screener", args)
      return {
        structured: body,
        text: answerText(
          `${body.meta.total} series match; ${body.data.length} shown from ${body.meta.offset} (as of ${body.meta.as_of_date}; returns are decimal changes of the quota shown as %).`,
          body.data.length === 0 ? undefined : table(MARKET_HEADER, body.data.map((r: Json) => marketRow(r.id, r.attributes))),
        ),
      }
    }),
}

const FundEntry = Schema.Struct({
  fundId: MarketAttributes.fields.fundId,
  fundName: MarketAttributes.fields.fundName,
  run: MarketAttributes.fields.run,
  agf: MarketAttributes.fields.agf,
  category: MarketAttributes.fields.category,
  fundFamily: MarketAttributes.fields.fundFamily,
})

const getFund: Tool = {
  name: "get_fund",
  description:
    "A mutual fund by id (concept_id, the fundId of search_funds): its catalog entry, its series with their latest quota value, and each series' latest TAC (GET /api/real_assets/{id}/expense_ratio) and risk (…/risk_metrics).",
  input: fieldsOf(realAssets.params),
  output: Schema.Struct({
    concept_id: Schema.String,
    fund: Schema.NullOr(FundEntry),
    series: RealAssetList.fields.data,
    expense_ratio: Schema.Array(successOf(expenseRatio)),
    risk_metrics: Schema.Array(successOf(riskMetrics)),
  }),
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
      const headline = fund === null ? `Fund ${id}` : `${fund.fundName} (RUN ${fund.run}, ${fund.agf}; ${fund.category ?? "no category"}, ${fund.fundFamily ?? "no family"})`
      return {
        structured: { concept_id: id, fund, series: series.data, expense_ratio, risk_metrics },
        text: answerText(
          `${headline}: ${ids.length} series.`,
          table(
            ["series id", "serie", "investor class", "currency", "last date", "quota value", "TAC", "TAC month", "vol 12m ann.", "risk", "ended"],
            series.data.map((s: Json, i: number) => {
              const a = s.attributes
              const er = expense_ratio[i]?.data?.attributes
              const risk = risk_metrics[i]?.data?.attributes
              return [s.id, a.serie, a.investor_class, a.currency, a.last_day?.date, num(a.last_day?.net_asset_value), pct(er?.expense_ratio), er?.month, pct(risk?.volatility_annualized_12m), risk?.risk_level ?? "n/a", a.end_date ?? "no"]
            }),
          ),
        ),
      }
    }),
}

const getReturns: Tool = {
  name: "get_returns",
  description:
    "Returns of a series over eight windows (GET /api/real_assets/{asset_id}/returns): valuation (accounting, clp, real_uf), basis (price, total) and a past cutoff (as_of_date). Text: one row per window with its dates and status.",
  input: { ...fieldsOf(returns.params), ...fieldsOf(returns.query) },
  output: successOf(returns),
  run: ({ asset_id, ...query }, get) =>
    Effect.gen(function* () {
      const body = yield* get(`/api/real_assets/${enc(asset_id ?? "")}/returns`, query)
      const a = body.data.attributes
      const periods = a.periods ?? {}
      return {
        structured: body,
        text: answerText(
          `Series ${asset_id} (RUN ${a.run} serie ${a.serie}, ${a.currency}) as of ${a.as_of_date ?? "n/a"}, ${a.valuation ?? "accounting"} valuation, ${a.return_basis} basis:`,
          table(
            ["window", "return", "annualised", "from", "to", "status"],
            WINDOWS.filter((w) => periods[w] !== undefined).map((w) => {
              const p = periods[w]
              return [w, pct(p.value), p.annualized ? "yes" : "no", p.effective_start_date, p.effective_end_date, p.reason === null ? p.status : `${p.status}: ${p.reason}`]
            }),
          ),
        ),
      }
    }),
}

const compareFunds: Tool = {
  name: "compare_funds",
  description:
    "Compare up to ten series side by side (GET /api/compare): catalog, returns, TAC, risk and CMF spheres, with per-window comparability and its reasons. Text: one row per series, then which windows compare.",
  input: fieldsOf(compare.query),
  output: successOf(compare),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/compare", args)
      const windows = Object.entries(body.meta.comparability as Record<string, Json>)
      const comparable = windows.filter(([, c]) => c.comparable).map(([k]) => k)
      const not = windows.filter(([, c]) => !c.comparable).map(([k, c]) => `${k} (${(c.reasons ?? []).join("; ") || "no reason given"})`)
      return {
        structured: body,
        text: answerText(
          `${body.data.length} series compared as of ${body.meta.as_of_date}; returns comparable over ${comparable.length === 0 ? "no window" : comparable.join(", ")}${not.length === 0 ? "" : `; not comparable: ${not.join(", ")}`}.`,
          table(MARKET_HEADER, body.data.map((r: Json) => marketRow(r.id, r.attributes))),
        ),
      }
    }),
}

export const FUND_TOOLS: ReadonlyArray<Tool> = [searchFunds, getFund, getReturns, compareFunds]
