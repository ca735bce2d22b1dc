/** The MCP tools about a series' history: its prices (every day or monthly) and its monthly TAC. */
import { Effect, Schema } from "effect"
import { RealAssetDay, RealAssetDays } from "../../schemas/Catalog.ts"
import { IsoDate } from "../../schemas/Dates.ts"
import { CatalogApi } from "../catalog/CatalogApi.ts"
import { ReturnsApi } from "../returns/ReturnsApi.ts"
import { answerText, enc, fieldsOf, type Json, num, pct, RouteRefusal, successOf, type Tool, table } from "./McpTool.ts"

const days = CatalogApi.endpoints.days
const expenseRatioHistory = ReturnsApi.endpoints.expenseRatioHistory

/** A refusal of the tool's own parameters (those no route takes), in the routes' 422 shape. */
const invalid = (parameter: string, message: string) =>
  new RouteRefusal({
    status: 422,
    body: { error: "invalid_parameter", status: 422, message: `invalid parameter ${parameter}: ${message}`, parameter },
    retryAfter: null,
  })

const PriceHistoryInput = {
  ...fieldsOf(days.params),
  from_date: Schema.optionalKey(IsoDate.annotate({ description: "First date, inclusive (YYYY-MM-DD); default: the series' first" })),
  to_date: Schema.optionalKey(IsoDate.annotate({ description: "Last date, inclusive (YYYY-MM-DD); default: the series' last" })),
  sampling: Schema.optionalKey(
    Schema.Literals(["daily", "monthly"]).annotate({ description: "daily (default): every value; monthly: the last value of each month" }),
  ),
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

const getPriceHistory: Tool = {
  name: "get_price_history",
  description:
    "The price history of a series (GET /api/real_assets/{asset_id}/days): quota values (mutual funds) or CMF book values (investment funds and ETFs, by their series UUID), ascending, between from_date and to_date, every value or the last of each month (sampling=monthly). Text: the first and last value and their change, then a date/price table.",
  input: PriceHistoryInput,
  output: Schema.Struct({
    data: Schema.Array(RealAssetDay),
    meta: Schema.Struct({
      ...RealAssetDays.fields.meta.fields,
      from_date: Schema.NullOr(Schema.String).annotate({ description: "The from_date asked for; null: the series' first" }),
      to_date: Schema.NullOr(Schema.String).annotate({ description: "The to_date asked for; null: the series' last" }),
      sampling: Schema.Literals(["daily", "monthly"]),
    }),
  }),
  run: ({ asset_id, from_date, to_date, sampling = "daily" }, get) =>
    Effect.gen(function* () {
      if (to_date !== undefined && !ISO_DATE.test(to_date)) return yield* invalid("to_date", `expected YYYY-MM-DD (got ${to_date})`)
      if (sampling !== "daily" && sampling !== "monthly") return yield* invalid("sampling", `expected daily or monthly (got ${sampling})`)
      if (from_date !== undefined && to_date !== undefined && to_date < from_date) {
        return yield* invalid("to_date", `${to_date} is before from_date ${from_date}`)
      }
      const body = yield* get(`/api/real_assets/${enc(asset_id ?? "")}/days`, { from_date })
      const inRange: Json[] = body.data.filter((d: Json) => to_date === undefined || d.attributes.date <= to_date)
      // monthly: a day is kept when the next one is in another month (the last value of its month)
      const kept =
        sampling === "monthly"
          ? inRange.filter((d, i) => i === inRange.length - 1 || inRange[i + 1].attributes.date.slice(0, 7) !== d.attributes.date.slice(0, 7))
          : inRange
      const first = kept[0]?.attributes
      const last = kept.at(-1)?.attributes
      const change = first !== undefined && last !== undefined && first.price !== 0 ? last.price / first.price - 1 : null
      return {
        structured: {
          data: kept,
          meta: { ...body.meta, count: kept.length, from_date: from_date ?? null, to_date: to_date ?? null, sampling },
        },
        text: answerText(
          kept.length === 0
            ? `Series ${asset_id}: no value between ${from_date ?? "its first date"} and ${to_date ?? "its last date"}.`
            : `Series ${asset_id}: ${kept.length} ${sampling} values from ${first.date} (${num(first.price)}) to ${last.date} (${num(last.price)}), change ${pct(change)}.`,
          kept.length === 0 ? undefined : table(["date", "price"], kept.map((d) => [d.attributes.date, num(d.attributes.price)]), 60),
        ),
      }
    }),
}

/** YYYYMMDD (the route's compact month-end date) as YYYY-MM. */
const month = (compact: string) => `${compact.slice(0, 4)}-${compact.slice(4, 6)}`

const getTacHistory: Tool = {
  name: "get_tac_history",
  description:
    "The monthly TAC (total expense ratio, decimal fraction) history of a mutual fund series (GET /api/real_assets/{asset_id}/expense_ratio/history), oldest first. Text: the first and last month and each month the TAC changed.",
  input: { ...fieldsOf(expenseRatioHistory.params), ...fieldsOf(expenseRatioHistory.query) },
  output: successOf(expenseRatioHistory),
  run: ({ asset_id, ...query }, get) =>
    Effect.gen(function* () {
      const body = yield* get(`/api/real_assets/${enc(asset_id ?? "")}/expense_ratio/history`, query)
      const rows: Json[] = body.data
      const first = rows[0]?.attributes
      const last = rows.at(-1)?.attributes
      // the first month, each month the TAC differs from the one before, and the last (every month is in structuredContent)
      const moves = rows.filter((r, i) => i === 0 || i === rows.length - 1 || r.attributes.expense_ratio !== rows[i - 1].attributes.expense_ratio)
      return {
        structured: body,
        text: answerText(
          rows.length === 0
            ? `Series ${asset_id}: no TAC published.`
            : `Series ${asset_id}: ${rows.length} monthly TACs from ${month(first.date)} (${pct(first.expense_ratio)}) to ${month(last.date)} (${pct(last.expense_ratio)}); the first month, each change, the last:`,
          rows.length === 0 ? undefined : table(["month", "TAC"], moves.map((r) => [month(r.attributes.date), pct(r.attributes.expense_ratio)]), 60),
        ),
      }
    }),
}

export const HISTORY_TOOLS: ReadonlyArray<Tool> = [getPriceHistory, getTacHistory]
