/**
 * The floor for the MCP part of the bench: the official SDK's stateless Streamable HTTP transport
 * on plain node:http, answering one tool whose result is fixed (a route's JSON read from a file,
 * as structured content, with a short text), beside GET /plain sending the same JSON bytes. No
 * key, no quota, no route, no snapshot: what is left of a tool call is the SDK's own cost (a
 * transport per request, as the SDK asks; its server reused, as /mcp does).
 *
 *   node test/bench/mcpFloorServer.ts <body.json>
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"

const bytes = readFileSync(process.argv[2]!)
const structured = JSON.parse(bytes.toString("utf8"))

const makeServer = () => {
  const server = new Server({ name: "floor", version: "1.0.0" }, { capabilities: { tools: { listChanged: false } } })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "fixed", inputSchema: { type: "object" } }] }))
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text", text: "fixed" }], structuredContent: structured }))
  return server
}
const idle: Server[] = []

const http = createServer((req, res) => {
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length })
    res.end(bytes)
    return
  }
  const chunks: Buffer[] = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", async () => {
    const text = Buffer.concat(chunks).toString("utf8")
    const server = idle.pop() ?? makeServer()
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    const headers = Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === "string")
    const answer = await transport.handleRequest(new Request("http://floor.invalid/mcp", { method: "POST", headers, body: text }), {
      parsedBody: JSON.parse(text),
    })
    const body = Buffer.from(await answer.arrayBuffer())
    await server.close()
    idle.push(server)
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "content-length": body.length })
    res.end(body)
  })
})
http.listen(0, "127.0.0.1", () => {
  console.log(`Listening on http://127.0.0.1:${(http.address() as AddressInfo).port}`)
})
