/**
 * Failures on our side, over real HTTP against the real server on fixture A, with real faults:
 * a route that dies (the snapshot file it renders from replaced by something SQLite cannot open)
 * answers 500 in the one error shape (an RFC 9457 problem document) with its request id, and the error log has a line with
 * the cause; a route's 503 (the accounts store lost a table) carries the request id too, in the
 * shape the contract declares for it. Both used
 * to come with an empty body (the 500 also without a content type) and no log line.
 */
import Database from "better-sqlite3"
import { mkdirSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AccessLogLine } from "../../api/http/RequestLog.ts"
import type { ErrorLogLine } from "../../api/http/ServerErrors.ts"
import { mismatches } from "../support/openApiSchema.ts"
import { type CreatedKey, createKey, expectErrorShape, get, header, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"

describe("5xx answers", () => {
  const fx = makeFixtureA()
  const access: Array<AccessLogLine> = []
  const errors: Array<ErrorLogLine> = []
  let server: RunningServer
  let key: CreatedKey

  // The data folder as the server opened it; the first test moves it (see there) and the second uses its accounts file.
  let opened = ""
  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "faults@example.cl" })
    opened = fx.dataDir
    // No poll within the test: the fault below must reach the route before the store re-checks the file.
    server = await startServer({ dataDir: fx.dataDir, pollMillis: 600_000, accessLog: (l) => access.push(l), errorLog: (l) => errors.push(l) })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
    rmSync(`${opened}.moved`, { recursive: true, force: true })
  })

  it("a route that dies answers 500 as a problem document with its request id, and the error log has the cause", async () => {
    // The market summary renders on another thread, which opens the snapshot file by its path on its
    // first task: that path is now a folder. The data folder moved away whole (the server's open files
    // and its watch go with it, so the store sees no change of the served file and does not re-check
    // it: the route itself meets the fault), and a folder stands at the file's old path.
    renameSync(opened, `${opened}.moved`)
    mkdirSync(join(fx.snapshotsDir, fx.snapshot.finished.file), { recursive: true })

    const res = await get(`${server.url}/api/market-summary`, { "x-api-key": key.key })
    expect(res.status).toBe(500)
    expect(header(res, "content-type")).toBe("application/problem+json")
    expectErrorShape(res.body, 500, res)
    const id = header(res, "x-request-id")!
    expect(res.body).toMatchObject({
      type: "/docs#error-internal_error",
      title: "Internal error",
      instance: `urn:fds:request:${id}`,
      error: "internal_error",
      status: 500,
      request_id: id,
    })

    // a sane id the client sent is the one quoted
    const traced = await get(`${server.url}/api/market-summary`, { "x-api-key": key.key, "x-request-id": "trace-500.a_1" })
    expect([traced.status, (traced.body as { request_id?: string }).request_id]).toEqual([500, "trace-500.a_1"])

    expect(await waitFor(async () => errors.length >= 2 && access.length >= 2)).toBe(true)
    const line = errors.find((l) => l.request_id === id)!
    expect(line).toMatchObject({ level: "error", msg: "request failed", method: "GET", path: "/api/market-summary", status: 500 })
    // the cause: SQLite's own words and where it was raised
    expect(line.cause).toMatch(/SqliteError/)
    expect(line.cause).toMatch(/RenderWorker\.ts/)
    expect(errors.find((l) => l.request_id === "trace-500.a_1")?.status).toBe(500)
    expect(access.find((l) => l.request_id === id)?.status).toBe(500)
    expect(JSON.stringify(errors)).not.toContain(key.key)
  }, 30_000)

  it("a route's 503 (the key store cannot answer) carries the request id in its body, as the contract declares", async () => {
    const doc = (await get(`${server.url}/openapi.json`)).body as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }
    const declared = (doc.paths["/api/asset_providers"]!.get.responses["503"] as { content: Record<string, { schema: unknown }> })
      .content["application/problem+json"]!.schema
    const db = new Database(join(`${opened}.moved`, "accounts.sqlite"))
    try {
      db.exec("DROP TABLE usage")
    } finally {
      db.close()
    }
    const res = await get(`${server.url}/api/asset_providers`, { "x-api-key": key.key, "x-request-id": "trace-503" })
    expect(res.status).toBe(503)
    expect(header(res, "content-type")).toBe("application/problem+json")
    expectErrorShape(res.body, 503, res)
    expect(res.body).toMatchObject({
      type: "/docs#error-key_check_unavailable",
      title: "API key cannot be checked",
      instance: "urn:fds:request:trace-503",
      error: "key_check_unavailable",
      status: 503,
      request_id: "trace-503",
    })
    expect(header(res, "retry-after")).toBe("5")
    expect(mismatches(doc, declared, res.body)).toEqual([])
  })
})
