/**
 * One tool call: its arguments checked against the tool's parameters (names it does not take and
 * required ones missing are tool errors naming them), one snapshot pinned for the whole call
 * (every route it reads answers from that batch), the result as structured content with the
 * batch_id plus the answer's figures as text. What the routes refuse becomes a tool error with the
 * API's message: a 4xx names the parameter; a 503 (a swap crossed the call, nothing published
 * yet) is marked retryable, with the seconds to wait.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Context, Effect, Layer } from "effect"
import { SnapshotStore } from "../snapshot/SnapshotStore.ts"
import { type Args, RouteRefusal, requiredOf, type Tool } from "./McpTool.ts"
import { TOOLS } from "./McpTools.ts"
import { RouteCaller } from "./RouteCaller.ts"

const byName = new Map(TOOLS.map((t) => [t.name, t]))
const required = new Map(TOOLS.map((t) => [t.name, requiredOf(t)]))

/** The API's 503 when nothing is published (noSnapshot in api/snapshot/Pinned.ts says the same). */
const NOTHING_PUBLISHED = { error: "snapshot_unavailable", status: 503, message: "no published batch is available yet; retry later" }

/**
 * A tool error: the message as text, the API's error body (and whether a retry can succeed) as
 * structured content. The members RFC 9457 added to the routes' error bodies (`type`, `title`,
 * `detail`, `instance`) are HTTP's: a tool error keeps the members it always had (ToolErrorBody).
 */
const toolError = (answer: Record<string, unknown>, retryAfter: number | null, batchId: string | null): CallToolResult => {
  const { type: _type, title: _title, detail: _detail, instance: _instance, ...body } = answer
  const retryable = body.status === 503
  const message = String(body.message ?? body.error ?? "the call failed")
  return {
    isError: true,
    content: [{ type: "text", text: retryable ? `${message} (retryable: retry in ${retryAfter ?? 1} s)` : message }],
    structuredContent: { ...body, retryable, ...(retryable ? { retry_after: retryAfter ?? 1 } : {}), batch_id: batchId },
  }
}

const invalid = (parameter: string, message: string) =>
  toolError({ error: "invalid_parameter", status: 422, message: `invalid parameter ${parameter}: ${message}`, parameter }, null, null)

/** The arguments as the routes take them (text), or the tool error of the first one that cannot be. */
const routeArgs = (tool: Tool, raw: Record<string, unknown>): Args | CallToolResult => {
  const args: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    // own names only: `constructor` or `toString` are no parameter of any tool
    if (!Object.hasOwn(tool.input, name)) return invalid(name, `${tool.name} takes no parameter ${name} (it takes ${Object.keys(tool.input).join(", ") || "none"})`)
    if (value === undefined || value === null) continue
    // numbers and booleans are taken as the text a query string would carry
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return invalid(name, "expected text")
    args[name] = String(value)
  }
  const missing = required.get(tool.name)!.find((n) => !Object.hasOwn(args, n))
  if (missing !== undefined) return invalid(missing, `missing (${tool.name} needs it)`)
  // an empty id would make another path (`/api/conceptual_assets//real_assets`): refused by name
  const empty = [...required.get(tool.name)!, ...(tool.oneOf ?? [])].find((n) => args[n]?.trim() === "")
  if (empty !== undefined) return invalid(empty, "empty")
  if (tool.oneOf !== undefined) {
    const given = tool.oneOf.filter((n) => Object.hasOwn(args, n))
    if (given.length !== 1) {
      const parameter = given[1] ?? tool.oneOf[0]!
      return invalid(parameter, `give exactly one of ${tool.oneOf.join(" and ")}`)
    }
  }
  return args
}

/** Runs tool calls on the published snapshot through the API's routes. */
export class McpCalls extends Context.Service<
  McpCalls,
  {
    /** null: no such tool (a protocol error, not a tool error). */
    readonly call: (name: string, args: Record<string, unknown>) => Effect.Effect<CallToolResult | null>
  }
>()("fds/api/mcp/McpCalls") {
  static readonly layer = Layer.effect(
    McpCalls,
    Effect.gen(function* () {
      const store = yield* SnapshotStore
      const routes = yield* RouteCaller
      const call = (name: string, raw: Record<string, unknown>): Effect.Effect<CallToolResult | null> => {
        const tool = byName.get(name)
        if (tool === undefined) return Effect.succeed(null)
        const args = routeArgs(tool, raw)
        if ("content" in args) return Effect.succeed(args as CallToolResult)
        return Effect.scoped(
          Effect.matchEffect(store.lease, {
            onFailure: () => Effect.succeed(toolError(NOTHING_PUBLISHED, 5, null)),
            onSuccess: (lease) => {
              const batchId = lease.file.replace(/\.sqlite$/, "")
              const get = (path: string, query: Readonly<Record<string, string | undefined>> = {}) =>
                Effect.flatMap(routes.get(lease, path, query), (answer) =>
                  answer.status === 200
                    ? Effect.succeed(answer.body)
                    : Effect.fail(new RouteRefusal({ status: answer.status, body: answer.body, retryAfter: answer.retryAfter })),
                )
              return tool.run(args as Args, get).pipe(
                Effect.map(
                  (answer): CallToolResult => ({
                    content: [{ type: "text", text: answer.text }],
                    // the call's batch first, and it stands (data_status' /health body names the batch served now too)
                    structuredContent: Object.assign({ batch_id: batchId }, answer.structured, { batch_id: batchId }),
                  }),
                ),
                Effect.catchTag("RouteRefusal", (refusal) =>
                  Effect.succeed(toolError(refusal.body as Record<string, unknown>, refusal.retryAfter, batchId)),
                ),
              )
            },
          }),
        )
      }
      return McpCalls.of({ call })
    }),
  )
}
