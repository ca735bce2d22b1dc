/**
 * The MCP tools about the data itself: the batch served and its sources' freshness, the published
 * batches, and what changed from one batch to another (with the funds' and series' names).
 */
import { Effect, Schema } from "effect"
import { ChangeList } from "../../schemas/Changes.ts"
import { Health } from "../../schemas/System.ts"
import { BatchesApi } from "../batches/BatchesApi.ts"
import { ChangesApi } from "../batches/ChangesApi.ts"
import { answerText, fieldsOf, type Get, type Json, num, pct, type RouteRefusal, successOf, type Tool, table } from "./McpTool.ts"

const batches = BatchesApi.endpoints.batches
const changes = ChangesApi.endpoints.changes

const dataStatus: Tool = {
  name: "data_status",
  description:
    "The batch this service answers from, its date, the service's state and the freshness of each source (GET /health). Text: one row per source.",
  input: {},
  output: Health,
  run: (_args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/health")
      const late = body.sources.filter((s: Json) => s.state !== "fresh").length
      return {
        structured: body,
        text: answerText(
          `Batch ${body.batch_id} of ${body.last_scraped_date}, ${body.status}${body.reasons.length === 0 ? "" : ` (${body.reasons.join("; ")})`}; ${late === 0 ? "every source fresh" : `${late} of ${body.sources.length} sources not fresh`}.`,
          table(
            ["source", "state", "cadence", "latest value date", "last received"],
            body.sources.map((s: Json) => [s.data_set, s.state, s.cadence, s.latest_value_date ?? "", s.last_received_at ?? ""]),
            40,
          ),
        ),
      }
    }),
}

const listBatches: Tool = {
  name: "list_batches",
  description:
    "The published batches (data vintages), newest first (GET /api/batches): each one's id, date, when it was published and replaced, whether it is the current one and whether this server still keeps it. A batch id is what list_changes_since_batch takes. Text: one row per batch.",
  input: fieldsOf(batches.query),
  output: successOf(batches),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/batches", args)
      return {
        structured: body,
        text: answerText(
          `${body.total} published batches; ${body.data.length} shown from ${body.offset}, newest first.`,
          body.data.length === 0
            ? undefined
            : table(
                ["batch id", "batch date", "published at", "superseded at", "current", "retained", "input files"],
                body.data.map((b: Json) => {
                  const a = b.attributes
                  return [b.id, a.batch_date, a.published_at, a.superseded_at ?? "", a.current ? "yes" : "no", a.retained ? "yes" : "no", a.input_count ?? ""]
                }),
              ),
        ),
      }
    }),
}

/** The fund and series an id of the feed names (an asset_id, a concept_id or an FI instrument's fund id). */
const NameOf = Schema.Struct({
  fund_name: Schema.String,
  run: Schema.String,
  serie: Schema.NullOr(Schema.String).annotate({ description: "The series label; null for a fund" }),
})

/** The ids of the page's items that a name can be found for: series (asset_id, entity_id) and funds (entity_id). */
const idsOf = (item: Json): ReadonlyArray<string> => {
  const a = item.attributes
  if (item.type === "registry_changed") return [a.entity_id]
  return [a.asset_id, a.previous_asset_id].filter((id): id is string => typeof id === "string")
}

/**
 * Names of the series and funds the page mentions, from the current funds' list (GET /api/all-funds,
 * every vehicle): a series or fund that is no longer active has none there (lifecycle items carry
 * their RUN and serie themselves).
 */
const namesOf = (items: ReadonlyArray<Json>, get: Get): Effect.Effect<Record<string, typeof NameOf.Type>, RouteRefusal> =>
  Effect.gen(function* () {
    const wanted = new Set(items.flatMap(idsOf))
    if (wanted.size === 0) return {}
    const all = yield* get("/api/all-funds", { vehicle: "all" })
    const names: Record<string, typeof NameOf.Type> = {}
    for (const row of all.data as Json[]) {
      if (row.serieId !== null && wanted.has(row.serieId)) names[row.serieId] = { fund_name: row.fundName, run: row.run, serie: row.serie }
      if (wanted.has(row.fundId) && names[row.fundId] === undefined) names[row.fundId] = { fund_name: row.fundName, run: row.run, serie: null }
    }
    return names
  })

/** One item as a row: what, which fund and series, the detail, old → new. */
const changeRow = (item: Json, names: Record<string, typeof NameOf.Type>) => {
  const a = item.attributes
  const id = a.asset_id ?? a.entity_id
  const name = names[id]
  const fund = name?.fund_name ?? (a.run === undefined ? "" : `RUN ${a.run}`)
  const serie = name?.serie ?? a.serie ?? a.current_serie ?? ""
  switch (item.type) {
    case "value_restated":
      return [item.type, id, fund, serie, a.date, num(a.old), num(a.new)]
    case "tac_changed":
      return [item.type, id, fund, serie, a.month ?? "fact sheet", pct(a.old), pct(a.new)]
    case "series_renamed":
      return [item.type, id, fund, a.current_serie, `from ${a.first_current_date}`, a.previous_serie, a.current_serie]
    case "registry_changed":
      return [`${a.entity} ${a.change}`, id, fund, serie, a.field ?? "", a.old ?? "", a.new ?? ""]
    default:
      return [item.type, id, fund, serie, `${a.first_date ?? ""} … ${a.last_date ?? ""}`, "", ""]
  }
}

const listChangesSinceBatch: Tool = {
  name: "list_changes_since_batch",
  description:
    "What changed from one published batch (from_batch, e.g. yesterday's: see list_batches) to another (to_batch, default the current one) (GET /api/changes): restated daily values, series appeared, ended, resumed or renamed, TAC and registry changes, each with its fund's and series' names where they are current; paged by cursor (meta.next_cursor). New dates are not changes: read them with get_price_history. Text: one row per change.",
  input: fieldsOf(changes.query),
  output: Schema.Struct({
    ...ChangeList.fields,
    names: Schema.Record(Schema.String, NameOf).annotate({
      description: "The fund and series of each id the page mentions (asset_id, previous_asset_id, entity_id), where the current funds' list has it",
    }),
  }),
  run: (args, get) =>
    Effect.gen(function* () {
      const body = yield* get("/api/changes", args)
      const names = yield* namesOf(body.data, get)
      const m = body.meta
      const counts = new Map<string, number>()
      for (const item of body.data as Json[]) counts.set(item.type, (counts.get(item.type) ?? 0) + 1)
      const byType = [...counts].map(([type, n]) => `${n} ${type}`).join(", ")
      return {
        structured: { ...body, names },
        text: answerText(
          `From ${m.from_batch} (${m.from_batch_date}) to ${m.to_batch} (${m.to_batch_date}): ${m.count === 0 ? "no change" : `${m.count} change${m.count === 1 ? "" : "s"} (${byType})`}${m.next_cursor === null ? "" : "; more on the next page (cursor: meta.next_cursor)"}.`,
          body.data.length === 0
            ? undefined
            : table(["change", "id", "fund", "serie", "date / month / field", "old", "new"], body.data.map((item: Json) => changeRow(item, names)), 40),
        ),
      }
    }),
}

export const BATCH_TOOLS: ReadonlyArray<Tool> = [dataStatus, listBatches, listChangesSinceBatch]
