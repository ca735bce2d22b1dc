/**
 * /api/market/flows on the pinned snapshot: one series', fund's, administrator's or AFM family's
 * net subscriptions by day or month (rows in MarketFlowsRows.ts), oldest first, a page at a time.
 */
import type Database from "better-sqlite3"
import { Effect } from "effect"
import { BadRequest, InvalidParameter, NotFound } from "../../schemas/ApiErrors.ts"
import { batchIdOfFile } from "../../schemas/Batches.ts"
import { dateToInt, isIsoDate } from "../../schemas/Dates.ts"
import { formatRun } from "../../schemas/Ids.ts"
import type { FlowLevel, FlowPeriod } from "../../schemas/MarketFlows.ts"
import { familyOf, isYearMonth } from "../../schemas/MarketParams.ts"
import { endOfMonth } from "../../snapshots/compute/Calendar.ts"
import { prepared } from "../../snapshots/readers/MarketDb.ts"
import { read } from "../snapshot/Pinned.ts"
import type { FlowsQuery } from "./MarketFlowsApi.ts"
import { flowRows } from "./MarketFlowsRows.ts"

export const FLOWS_METHODOLOGY =
  "A series-day flows (CUOTAS_APORTADAS − CUOTAS_RESCATADAS) × VALOR_CUOTA of that day's CMF cartola row, in the series' " +
  "accounting currency; every calendar day the cartola reports counts (weekends and holidays included). Funds, administrators " +
  "and AFM families sum their series per date and currency; months sum their days. In CLP: CLP as it is, USD × the observed " +
  "dollar of the same date (the last value published on or before it, at most 7 days old); EUR, or USD without a rate, is left " +
  "out and counted in unconverted_days. Fund mergers are not adjusted for (an absorption can show as a subscription into the " +
  "absorbing fund). See docs/methodology.md."

/** A bound as YYYYMMDD (a month: its first day for `from`, its last for `to`), or a 400 for a malformed one. */
const boundOf = (parameter: "from" | "to", text: string | undefined, period: FlowPeriod) => {
  if (text === undefined) return Effect.succeed(null)
  if (period === "day" && isIsoDate(text)) return Effect.succeed(dateToInt(text))
  if (period === "month" && isYearMonth(text)) {
    const first = dateToInt(`${text}-01`)
    return Effect.succeed(parameter === "from" ? first : endOfMonth(first))
  }
  return Effect.fail(
    new BadRequest({
      parameter,
      message: `malformed query parameter ${parameter}: ${JSON.stringify(text)} is not ${period === "day" ? "YYYY-MM-DD (period=day)" : "YYYY-MM (period=month)"}`,
    }),
  )
}

/** The entity as market_flows keys it, and its name; null when the batch has none. */
const entityOf = (db: Database.Database, level: FlowLevel, id: string): { readonly key: string; readonly name: string } | null => {
  if (level === "family") {
    const family = familyOf(id)
    return family === undefined ? null : { key: family.slug, name: family.familyRar }
  }
  if (!/^[0-9]{1,10}$/u.test(id)) return null
  const n = Number(id)
  switch (level) {
    case "series": {
      // a renamed series' previous id reads as the current one
      const current = (prepared(db, "SELECT asset_id FROM series_aliases WHERE alias_id = ?").pluck().get(n) as number | undefined) ?? n
      const s = prepared(db, "SELECT run, serie FROM series WHERE asset_id = ?").get(current) as { run: number; serie: string } | undefined
      return s === undefined ? null : { key: String(current), name: `${formatRun(s.run)} ${s.serie}` }
    }
    case "fund": {
      const name = prepared(db, "SELECT name FROM funds WHERE concept_id = ?").pluck().get(n) as string | undefined
      return name === undefined ? null : { key: String(n), name }
    }
    case "administrator": {
      const name = prepared(db, "SELECT name FROM administrators WHERE provider_id = ?").pluck().get(n) as string | undefined
      return name === undefined ? null : { key: String(n), name }
    }
  }
}

export const flowsAnswer = Effect.fn(function* (query: FlowsQuery) {
  const from = yield* boundOf("from", query.from, query.period)
  const to = yield* boundOf("to", query.to, query.period)
  if (from !== null && to !== null && from > to) {
    return yield* new InvalidParameter({ parameter: "from", message: `invalid query parameter from: ${query.from} is later than to ${query.to}` })
  }
  const entity = yield* read((r) => entityOf(r.db, query.level, query.id))
  if (entity === null) {
    return yield* new NotFound({ parameter: "id", message: `no ${query.level} ${JSON.stringify(query.id)} in the published batch` })
  }
  return yield* read((r) => {
    const rows = flowRows(r.db, query.level, entity.key, query.period, from ?? 0, to ?? 99_991_231, query.currency)
    return {
      data: rows.slice(query.offset, query.offset + query.limit),
      meta: {
        batch_id: batchIdOfFile(r.path),
        level: query.level,
        id: entity.key,
        name: entity.name,
        period: query.period,
        currency: query.currency,
        from: query.from ?? null,
        to: query.to ?? null,
        through_date: r.batchDate,
        total: rows.length,
        limit: query.limit,
        offset: query.offset,
        methodology: FLOWS_METHODOLOGY,
      },
    }
  })
})
