/** The MCP tool "who holds this": the portfolios holding an instrument or an issuer in a month (GET /api/holders). */
import { Effect } from "effect"
import { HoldersApi } from "../holders/HoldersApi.ts"
import { answerText, fieldsOf, type Json, num, pct, successOf, type Tool, table } from "./McpTool.ts"

const holders = HoldersApi.endpoints.holders

/** Rows shown in the text (the structured content has them all). */
const SHOWN = 25

const whoHolds: Tool = {
  name: "who_holds",
  description:
    "Which mutual fund (monthly) and investment fund or ETF (quarterly) portfolios hold an instrument or an issuer in a month, largest weight first (GET /api/holders). Give exactly one of instrument (nemotécnico), isin and issuer_rut; month YYYY-MM (default: the latest). Text: fund, RUN, vehicle, instrument, weight and value as CMF reports it (thousands of each fund's currency).",
  input: fieldsOf(holders.query),
  output: successOf(holders),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/holders", args)
      const m = body.meta
      const rows = body.data as ReadonlyArray<{ readonly attributes: Json }>
      return {
        structured: body,
        text: answerText(
          `${m.total} portfolios hold ${m.by} ${m.value} (mutual funds in ${m.month ?? "no month"}, investment funds in ${m.fi_period ?? "no quarter"})${rows.length > SHOWN ? `; the ${SHOWN} largest shown` : ""}.`,
          rows.length === 0
            ? undefined
            : table(
                ["fund", "RUN", "vehicle", "month", "instrument", "weight", "value (thousands)"],
                rows
                  .slice(0, SHOWN)
                  .map(({ attributes: h }) => [h.fund_name, h.run, h.vehicle, h.month, h.nemotecnico ?? h.isin, pct(h.weight), num(h.valorizacion, 0)]),
              ),
        ),
      }
    }),
}

export const HOLDERS_TOOLS: ReadonlyArray<Tool> = [whoHolds]
