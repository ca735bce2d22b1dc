/**
 * What an MCP tool is: a route of the API (or a few), called in-process on the call's snapshot
 * (RouteCaller). Parameters keep the routes' names and their own Schemas (the params and query
 * schemas of the endpoints), so a 422 of the route names the tool's parameter. The result's
 * structured content is the route's JSON (its success Schema is the tool's output schema) with
 * the call's batch_id; its text carries the answer's figures: a headline and a compact table.
 */
import { type Effect, Schema } from "effect"
import { ValidationIssue } from "../../schemas/ApiError.ts"

/** Tool arguments as the routes take them: text. */
export type Args = Readonly<Record<string, string>>

/** A route's JSON body (a tool reads a few of its fields for its text). */
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
  /** The answer's figures as text: a headline, then a table of what the question needs. */
  readonly text: string
}

export interface Tool {
  readonly name: string
  readonly description: string
  /** The fields of the routes' params and query schemas the tool takes. */
  readonly input: Schema.Struct.Fields
  /** The structured content without batch_id: the route's success Schema, or the routes' by name. */
  readonly output: Schema.Top
  /** Parameters of which exactly one must be given (fund_portfolio: run or instrument_id). */
  readonly oneOf?: ReadonlyArray<string>
  readonly run: (args: Args, get: Get) => Effect.Effect<ToolAnswer, RouteRefusal>
}

/** The fields an endpoint declared for its params or query (the endpoint keeps them as a Struct, or a codec of one). */
// biome-ignore lint/suspicious/noExplicitAny: the endpoint's schema, typed per endpoint
export const fieldsOf = (schema: any): Schema.Struct.Fields =>
  schema === undefined ? {} : ((schema.fields ?? schema.schema.fields) as Schema.Struct.Fields)

export const optional = (fields: Schema.Struct.Fields): Schema.Struct.Fields =>
  // biome-ignore lint/suspicious/noExplicitAny: a required path parameter made optional for a tool that takes one of two
  Object.fromEntries(Object.entries(fields).map(([n, f]) => [n, Schema.optionalKey(f as any)]))

/** An endpoint's success Schema (the JSON one when it also answers CSV). */
export const successOf = (endpoint: { readonly success: ReadonlySet<Schema.Top> }): Schema.Top => {
  const json = [...endpoint.success].filter((s) => s.ast._tag !== "String")
  return json.length === 1 ? json[0]! : Schema.Union(json)
}

export const enc = encodeURIComponent
export const pct = (x: number | null | undefined) => (typeof x === "number" ? `${(x * 100).toFixed(2)} %` : "n/a")
export const num = (x: number | null | undefined, digits = 4) =>
  typeof x === "number" ? String(Number(x.toFixed(digits))) : "n/a"

const cell = (value: unknown): string => (value === null || value === undefined ? "" : String(value).replaceAll("|", "/"))

/**
 * Rows as a pipe table under its header line; over `max` rows, the first `max` and a line saying
 * how many more the structured content holds.
 */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<unknown>>, max = 25): string => {
  const shown = rows.slice(0, max).map((r) => `| ${r.map(cell).join(" | ")} |`)
  const more = rows.length > max ? [`(${rows.length - max} more rows in structuredContent)`] : []
  return [`| ${header.join(" | ")} |`, ...shown, ...more].join("\n")
}

/** The headline and, when there are rows, their table. */
export const answerText = (headline: string, tableText?: string): string =>
  tableText === undefined ? headline : `${headline}\n${tableText}`

/** A tool's input JSON Schema: its fields' own Schemas; parameters it does not know are refused. */
export const inputJsonSchema = (tool: Tool): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(Schema.Struct(tool.input), { onExcessProperty: "error" })
  // MCP wants an object schema even for a tool without parameters (effect gives `{}` for an empty Struct)
  const schema: Record<string, unknown> = { type: "object", properties: {}, additionalProperties: false, ...(document.schema as Record<string, unknown>) }
  if (Object.keys(document.definitions).length > 0) schema.$defs = document.definitions
  return schema
}

/** The parameters a tool cannot do without (those of its input Schema that are not optional). */
export const requiredOf = (tool: Tool): ReadonlyArray<string> => (inputJsonSchema(tool).required as ReadonlyArray<string> | undefined) ?? []

/**
 * A tool error's structured content: the API's error shape without its RFC 9457 members (`type`,
 * `title`, `detail`, `instance`: HTTP's; schemas/ApiError.ts), whether
 * a retry can succeed (and when), and the batch the call read (null when it read none).
 */
export const ToolErrorBody = Schema.Struct({
  error: Schema.String,
  status: Schema.Int,
  message: Schema.String,
  parameter: Schema.optionalKey(Schema.String),
  issues: Schema.optionalKey(Schema.Array(ValidationIssue)),
  request_id: Schema.optionalKey(Schema.String),
  retryable: Schema.Boolean.annotate({ description: "A retry can succeed (the route answered 503)" }),
  retry_after: Schema.optionalKey(Schema.Int.annotate({ description: "Seconds to wait before the retry" })),
  batch_id: Schema.NullOr(Schema.String),
}).annotate({ identifier: "ToolError", description: "A tool error (isError: true): the API's error body" })

/**
 * A tool's output JSON Schema: its output Schema (the routes' own response models) with the call's
 * batch_id, or a tool error's body (the SDK's client checks an error's structured content against
 * the output schema too). MCP asks for an object schema at the top: both are under anyOf.
 */
export const outputJsonSchema = (tool: Tool): Record<string, unknown> => {
  const answer = Schema.toJsonSchemaDocument(tool.output)
  const error = Schema.toJsonSchemaDocument(ToolErrorBody)
  const batchId = "The batch the call read (<batch date>-<16 hex digits of its content hash>)"
  return {
    type: "object",
    properties: { batch_id: { type: ["string", "null"], description: `${batchId}; null on an error before any batch was read` } },
    required: ["batch_id"],
    anyOf: [
      { allOf: [answer.schema], properties: { batch_id: { type: "string", description: batchId } } },
      error.schema,
    ],
    $defs: { ...answer.definitions, ...error.definitions },
  }
}
