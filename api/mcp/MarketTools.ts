/** The MCP tools about the market: its summary, a fund's holdings, investment funds and ETFs, TAC changes, fund flows. */
import { Effect, Schema } from "effect"
import { FiApi } from "../fi/FiApi.ts"
import { flows } from "../market/MarketFlowsApi.ts"
import { carteraHoldings } from "../market/MarketFundApi.ts"
import { tacChanges } from "../market/MarketStatsApi.ts"
import { marketSummary } from "../market/MarketViewsApi.ts"
import { answerText, enc, fieldsOf, type Json, num, optional, pct, successOf, type Tool, table } from "./McpTool.ts"

const fiInstruments = FiApi.endpoints.instruments
const fiHoldings = FiApi.endpoints.holdings

/** Movers shown per list in the text (the structured content has the route's ten). */
const MOVERS = 5

const moverRows = (rows: ReadonlyArray<Json>, change: "dailyChange" | "monthlyChange") =>
  rows.slice(0, MOVERS).map((m) => [m.serieId, m.fundName, m.serie, m.currency, pct(m[change])])

const marketSummaryTool: Tool = {
  name: "market_summary",
  description:
    "The market at a date (GET /api/market-summary): AFM families as indices per currency, and the top daily and monthly movers. A past date is a backtest over today's funds, unless universe=as_of (with date): the funds alive then, those closed since included. Text: each family's daily and monthly change, then the top five movers each way.",
  input: fieldsOf(marketSummary.query),
  output: successOf(marketSummary),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/market-summary", args)
      const m = body.meta
      const families = table(
        ["family", "index currency", "daily", "monthly", "series", "funds"],
        body.families.map((f: Json) => [f.name, f.indexCurrency, pct(f.dailyChange), pct(f.monthlyChange), f.seriesCount, f.fundCount]),
        40,
      )
      const movers = (title: string, rows: ReadonlyArray<Json>, change: "dailyChange" | "monthlyChange") =>
        `${title}:\n${rows.length === 0 ? "(none)" : table(["series id", "fund", "serie", "currency", "change"], moverRows(rows, change))}`
      return {
        structured: body,
        text: [
          `Market on ${m.date} (daily vs ${m.previousDate}, monthly vs ${m.monthlyBaseDate}; universe ${m.universe}): ${body.families.length} families.`,
          families,
          movers("Top daily gainers", body.topGainersDaily, "dailyChange"),
          movers("Top daily losers", body.topLosersDaily, "dailyChange"),
          movers("Top monthly gainers", body.topGainersMonthly, "monthlyChange"),
          movers("Top monthly losers", body.topLosersMonthly, "monthlyChange"),
        ].join("\n"),
      }
    }),
}

const fundPortfolio: Tool = {
  name: "fund_portfolio",
  description:
    "A fund's holdings for a month, largest first: a mutual fund by RUN (GET /api/funds/{run}/cartera/holdings) or an investment fund or ETF by instrument_id (GET /api/fi/instruments/{id}/cartera/holdings). Give exactly one of run and instrument_id. Text: instrument, issuer, country, type and weight of each holding.",
  input: { ...optional({ ...fieldsOf(carteraHoldings.params), ...fieldsOf(fiHoldings.params) }), ...fieldsOf(carteraHoldings.query) },
  output: Schema.Union([successOf(carteraHoldings), successOf(fiHoldings)]),
  oneOf: ["run", "instrument_id"],
  run: ({ run, instrument_id, ...query }, get) =>
    Effect.gen(function* () {
      const body =
        run !== undefined
          ? yield* get(`/api/funds/${enc(run)}/cartera/holdings`, query)
          : yield* get(`/api/fi/instruments/${enc(instrument_id ?? "")}/cartera/holdings`, query)
      const m = body.meta
      const rows =
        run !== undefined
          ? body.data.map((h: Json) => {
              const a = h.attributes
              return [a.nemotecnico, a.emisor, a.pais, a.tipo_instrumento, a.market, pct(a.weight), a.valorizacion]
            })
          : body.data.map((h: Json) => [h.nemotecnico, h.issuer_name ?? h.issuer_rut, h.issuer_country, h.instrument_type, h.market, pct(h.pct_fund_assets / 100), h.valuation_thousands])
      return {
        structured: body,
        text: answerText(
          `${m.fundName ?? m.name ?? `RUN ${m.run ?? run ?? instrument_id}`}: ${body.data.length} holdings in ${m.month ?? "the latest month"} (market ${m.market}; valuation in ${m.valuation_unit}).`,
          body.data.length === 0 ? undefined : table(["instrument", "issuer", "country", "type", "market", "weight", "valuation"], rows, 30),
        ),
      }
    }),
}

const listInvestmentFunds: Tool = {
  name: "list_investment_funds",
  description:
    "Investment funds (FI) and ETFs (GET /api/fi/instruments): by administrator, ETF or not, regulatory type, status, name, ticker or RUN; paged. Text: one row per instrument with its id, vehicle, ticker, status and last price date.",
  input: fieldsOf(fiInstruments.query),
  output: successOf(fiInstruments),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/fi/instruments", args)
      return {
        structured: body,
        text: answerText(
          `${body.total} investment funds and ETFs match; ${body.data.length} shown from ${body.offset}.`,
          body.data.length === 0
            ? undefined
            : table(
                ["instrument_id", "name", "RUN", "vehicle", "ticker", "status", "last price date", "series"],
                body.data.map((i: Json) => [i.instrument_id, i.name, i.run, i.vehicle, i.ticker ?? "", i.status, i.last_price_date ?? "none", i.series.length]),
              ),
        ),
      }
    }),
}

const tacChangesTool: Tool = {
  name: "tac_changes",
  description:
    "The largest TAC changes of a closed month against the month before, one series per fund (GET /api/reports/tac-changes). Text: one row per fund with the previous and new TAC.",
  input: fieldsOf(tacChanges.query),
  output: successOf(tacChanges),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/reports/tac-changes", args)
      const m = body.meta
      return {
        structured: body,
        text: answerText(
          `${m.total} funds changed TAC (${m.direction}) from ${m.previousDate} to ${m.date}; ${body.data.length} shown.`,
          body.data.length === 0
            ? undefined
            : table(
                ["series id", "fund", "serie", "currency", "TAC before", "TAC now", "change (points)"],
                body.data.map((t: Json) => [t.serieId, t.fundName, t.serie, t.currency, pct(t.tacPrevious), pct(t.tac), num(t.tacDelta * 100, 2)]),
              ),
        ),
      }
    }),
}

const fundFlows: Tool = {
  name: "fund_flows",
  description:
    "Net subscriptions (units subscribed − units redeemed, × the day's quota value) of a series (asset_id), fund (concept_id), administrator (provider_id) or AFM family (name or slug), by day or month, in the accounting currency or in CLP (GET /api/market/flows). Text: one row per date and currency with subscriptions, redemptions and the net.",
  input: fieldsOf(flows.query),
  output: successOf(flows),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/market/flows", args)
      const m = body.meta
      return {
        structured: body,
        text: answerText(
          `Flows of ${m.level} ${m.name} (${m.id}) by ${m.period}, ${m.currency === "CLP" ? "in CLP" : "in its accounting currency"}: ${m.total} rows, ${body.data.length} shown from ${m.offset} (data through ${m.through_date}).`,
          body.data.length === 0
            ? undefined
            : table(
                ["date", "currency", "subscribed", "redeemed", "net", "series", "series-days"],
                body.data.map((f: Json) => [f.date, f.currency, num(f.subscribed, 2), num(f.redeemed, 2), num(f.net, 2), f.series_count, f.series_days]),
                40,
              ),
        ),
      }
    }),
}

export const MARKET_TOOLS: ReadonlyArray<Tool> = [marketSummaryTool, fundPortfolio, listInvestmentFunds, tacChangesTool, fundFlows]
