/**
 * The errors answered outside the contract's operations (the contract sweep,
 * test/http/contractSweep.test.ts, checks those of every operation) are RFC 9457 problem documents
 * too, over real HTTP on fixture A: an unknown path, a wrong method, a body refused, /mcp's
 * HTTP-level refusals, /metrics refused, and errors asked for in another format (Accept). Each is
 * checked by test/support/problemDocument.ts against /docs's catalogue; the probes' and /mcp's
 * JSON-RPC answers stay what they were.
 */
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { errorAnchorsOf, problemDocumentIssues, titlesNotFixed } from "../support/problemDocument.ts"
import { type CreatedKey, createKey, type RunningServer, startServer } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"

interface Sent {
  readonly method?: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

describe("errors outside the operations are RFC 9457 problem documents", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let free: CreatedKey
  let anchors: ReadonlySet<string>

  const send = async (s: Sent) => {
    const res = await request(`${server.url}${s.path}`, {
      method: s.method ?? "GET",
      headers: s.headers ?? {},
      ...(s.body === undefined ? {} : { body: s.body }),
    })
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() }
  }

  beforeAll(async () => {
    // loopback is not allowed to read /metrics here: a request without a key is refused
    server = await startServer({ dataDir: fx.dataDir, metricsAllow: ["10.0.0.0/8"] })
    free = await createKey(fx.dataDir, { email: "problems@example.cl" })
    const docs = await send({ path: "/docs" })
    expect(docs.status).toBe(200)
    anchors = errorAnchorsOf(docs.text)
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }
  const CASES: ReadonlyArray<readonly [string, Sent, number, string]> = [
    ["an unknown path", { path: "/api/nowhere" }, 404, "not_found"],
    ["an unknown path asked as XML", { path: "/nowhere", headers: { accept: "application/xml" } }, 404, "not_found"],
    ["a wrong method", { method: "DELETE", path: "/api/benchmarks" }, 405, "method_not_allowed"],
    ["an invalid percent-encoding", { path: "/api/real_assets/%ZZ/days" }, 400, "bad_request"],
    ["no key, asked as CSV", { path: "/api/real_assets/1/days", headers: { accept: "text/csv" } }, 401, "unauthorized"],
    [
      "a body over 16 KiB",
      { method: "POST", path: "/api/auth/magic-link", headers: { "content-type": "application/json" }, body: `"${"x".repeat(20_000)}"` },
      413,
      "payload_too_large",
    ],
    ["a body of another type", { method: "POST", path: "/api/auth/magic-link", headers: { "content-type": "text/plain" }, body: "{}" }, 415, "unsupported_media_type"],
    ["/mcp without a key", { method: "POST", path: "/mcp", headers: mcpHeaders, body: "{}" }, 401, "unauthorized"],
    [
      "/mcp from another site",
      { method: "POST", path: "/mcp", headers: { ...mcpHeaders, origin: "https://evil.example" }, body: "{}" },
      403,
      "untrusted_origin",
    ],
    ["/mcp with a body over 16 KiB", { method: "POST", path: "/mcp", headers: mcpHeaders, body: `"${"x".repeat(20_000)}"` }, 413, "payload_too_large"],
    ["/metrics without a key from an address not allowed", { path: "/metrics" }, 404, "not_found"],
  ]

  it.each(CASES)("%s: a problem document", async (_, sent, status, error) => {
    const res = await send(sent)
    expect(res.status, res.text).toBe(status)
    const { issues, seen } = problemDocumentIssues(res, anchors)
    expect(issues).toEqual([])
    expect(seen?.error).toBe(error)
  })

  it("an invalid value asked as CSV: 422, a problem document", async () => {
    const res = await send({ path: "/api/real_assets/1/days?from_date=2026-02-30", headers: { "x-api-key": free.key, accept: "text/csv" } })
    expect(res.status, res.text).toBe(422)
    const { issues, seen } = problemDocumentIssues(res, anchors)
    expect(issues).toEqual([])
    expect(seen?.error).toBe("invalid_parameter")
  })

  it("/metrics with a key not of the internal tier: 403 forbidden, a problem document", async () => {
    const res = await send({ path: "/metrics", headers: { "x-api-key": free.key } })
    expect(res.status).toBe(403)
    const { issues, seen } = problemDocumentIssues(res, anchors)
    expect(issues).toEqual([])
    expect(seen?.error).toBe("forbidden")
  })

  it("one title per code, and the same document whatever the request id", async () => {
    const answers = await Promise.all(
      ["a", "b.1", "c_2"].map((id) => send({ path: "/api/nowhere", headers: { "x-request-id": id } })),
    )
    const bodies = answers.map((a) => JSON.parse(a.text))
    expect(bodies.map((b) => b.instance)).toEqual(["urn:fds:request:a", "urn:fds:request:b.1", "urn:fds:request:c_2"])
    expect(titlesNotFixed(bodies.map((b) => ({ error: b.error, title: b.title })))).toEqual({})
    expect(bodies.map(({ instance: _, ...rest }) => rest)).toEqual([bodies[0], bodies[0], bodies[0]].map(({ instance: _, ...rest }) => rest))
  })

  it("the docs list each code under its anchor, with its status and title", async () => {
    const html = (await send({ path: "/docs" })).text
    for (const [error, status, title] of [
      ["not_found", 404, "Not found"],
      ["invalid_parameter", 422, "Invalid parameter"],
      ["quota_exceeded", 429, "Daily quota exhausted"],
      ["snapshot_changed", 503, "Batch changed during the request"],
    ] as const) {
      expect(html).toContain(`<dt id="error-${error}"><code>${error}</code> · ${status} · ${title}</dt>`)
    }
  })

  it("a JSON-RPC error of /mcp stays JSON-RPC (an MCP client reads it), in application/json", async () => {
    const res = await send({
      method: "POST",
      path: "/mcp",
      headers: { ...mcpHeaders, "x-api-key": free.key },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a", arguments: {} } },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "b", arguments: {} } },
      ]),
    })
    expect(res.status).toBe(400)
    expect(res.headers["content-type"]).toMatch(/^application\/json/)
    expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } })
  })
})
