/**
 * The MCP server of the official SDK with the tools of McpTools.ts, for one connection: the HTTP
 * endpoint makes one per request (stateless), `./fds mcp` one for its stdio.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import type { McpCalls } from "./McpCalls.ts"
import { inputJsonSchema, outputJsonSchema } from "./McpTool.ts"
import { TOOLS } from "./McpTools.ts"
import { withJsonLogs } from "../../snapshots/Log.ts"

const LISTED: ReadonlyArray<McpTool> = TOOLS.map((t) => ({
  name: t.name,
  description: t.description,
  inputSchema: inputJsonSchema(t) as McpTool["inputSchema"],
  outputSchema: outputJsonSchema(t) as McpTool["outputSchema"],
  annotations: { readOnlyHint: true, openWorldHint: false },
}))

export interface McpServerInfo {
  /** What this server reads and how it is reached (the HTTP endpoint or the local folder over stdio). */
  readonly description: string
}

export const makeMcpServer = (calls: McpCalls["Service"], info: McpServerInfo): Server => {
  const server = new Server(
    { name: "fund-data-service", title: "Fund Data Service", version: "1.0.0", description: info.description },
    { capabilities: { tools: { listChanged: false } }, instructions: info.description },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...LISTED] }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const result = await Effect.runPromise(withJsonLogs(calls.call(request.params.name, request.params.arguments ?? {})))
    if (result === null) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}`)
    return result
  })
  return server
}
