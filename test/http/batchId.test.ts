/**
 * Every answer names its batch, over real HTTP: nothing published, then fixture A, then fixture B
 * published into the served folder. The expected ids are the fixture files' own names (what the
 * writer named them), never read from the API. Data answers carry `Batch-Id` (on 200, 304 and
 * HEAD too; not on an error), equal to `meta.batch_id`, and browsers may read it (CORS); /health
 * says the batch served (null before any); /mcp names the batch of a tool call's result. The
 * stamping of stored market answers (api/market/StampBatchId.ts) on its two shapes.
 */
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { stampBatchId } from "../../api/market/StampBatchId.ts"
import { createKey, get, header, type RunningServer, startServer, waitFor } from "../support/server.ts"
import { type FixtureDir, fixtureA, makeDataDir, publishFixtureB, publishSnapshot, testCrc32 } from "../support/snapshotFixture.ts"

// biome-ignore lint/suspicious/noExplicitAny: answers are plain JSON
type Json = any

const SERIE_8043_A = String(testCrc32("fm:8043:A"))
const idOf = (file: string) => file.replace(/\.sqlite$/, "")

let dir: FixtureDir
let server: RunningServer
let key: string
let health0: Json
let batchA = ""
let batchB = ""

const call = (path: string, headers: Record<string, string> = {}) => get(`${server.url}${path}`, { "x-api-key": key, ...headers })
const servedBatch = async (): Promise<string | null> => ((await get(`${server.url}/health`)).body as Json).batch_id

beforeAll(async () => {
  dir = makeDataDir()
  server = await startServer({ dataDir: dir.dataDir, pollMillis: 50 })
  key = (await createKey(dir.dataDir, { email: "batch-id@example.cl", tier: "internal" })).key
  health0 = (await get(`${server.url}/health`)).body
  batchA = idOf(publishSnapshot(dir.snapshotsDir, fixtureA()).finished.file)
  expect(await waitFor(async () => (await servedBatch()) === batchA, 10_000)).toBe(true)
})

afterAll(async () => {
  await server?.close()
  dir?.cleanup()
})

describe("Batch-Id", () => {
  it("/health gives the batch served: null before any, then the published file's id", async () => {
    expect([health0.status, health0.batch_id]).toEqual(["unavailable", null])
    expect(batchA).toMatch(/^2026-02-06-[0-9a-f]{16}$/)
    const health = (await get(`${server.url}/health`)).body as Json
    expect([health.last_scraped_date, health.batch_id]).toEqual(["2026-02-06", batchA])
  })

  it("data answers carry it, equal to meta.batch_id; 304 and HEAD too; an error does not", async () => {
    const days = await call(`/api/real_assets/${SERIE_8043_A}/days`)
    expect(days.status, days.text).toBe(200)
    expect([header(days, "batch-id"), (days.body as Json).meta.batch_id, (days.body as Json).meta.batch_date]).toEqual([batchA, batchA, "2026-02-06"])
    const providers = await call("/api/asset_providers")
    expect([providers.status, header(providers, "batch-id")]).toEqual([200, batchA])
    const csv = await call(`/api/real_assets/${SERIE_8043_A}/days?format=csv`)
    expect([csv.status, header(csv, "content-type")?.split(";")[0], header(csv, "batch-id")]).toEqual([200, "text/csv", batchA])
    const again = await call(`/api/real_assets/${SERIE_8043_A}/days`, { "if-none-match": header(days, "etag")! })
    expect([again.status, header(again, "batch-id")]).toEqual([304, batchA])
    const head = await request(`${server.url}/api/asset_providers`, { method: "HEAD", headers: { "x-api-key": key } })
    await head.body.dump()
    expect([head.statusCode, head.headers["batch-id"]]).toEqual([200, batchA])
    const missing = await call("/api/real_assets/4294967295/days")
    expect([missing.status, header(missing, "batch-id")]).toEqual([404, undefined])
    const unkeyed = await get(`${server.url}/api/asset_providers`)
    expect([unkeyed.status, header(unkeyed, "batch-id")]).toEqual([401, undefined])
    // not data answers: the key's own details, the health check, the document
    for (const path of ["/api/key/info", "/health", "/openapi.json"]) expect(header(await call(path), "batch-id"), path).toBeUndefined()
  })

  it("browsers may read it: CORS exposes Batch-Id on data answers", async () => {
    const res = await call("/api/asset_providers", { origin: "https://app.example.org" })
    expect([res.status, header(res, "access-control-allow-origin"), header(res, "batch-id")]).toEqual([200, "*", batchA])
    const exposed = (header(res, "access-control-expose-headers") ?? "").toLowerCase().split(/,\s*/)
    expect(exposed).toContain("batch-id")
    expect(exposed).toContain("etag")
  })

  it("a tool call over /mcp names its result's batch in Batch-Id, as the result does; the others name none", async () => {
    const mcp = (body: Json) =>
      request(`${server.url}/mcp`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      })
    const listed = await mcp({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    const tools = ((await listed.body.json()) as Json).result.tools.map((t: Json) => t.name)
    expect([listed.statusCode, listed.headers["batch-id"]]).toEqual([200, undefined])
    expect(tools).toContain("get_fund")
    const call = (id: number, concept_id: string) =>
      mcp({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_fund", arguments: { concept_id } } })
    const res = await mcp({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "data_status", arguments: {} } })
    const result = ((await res.body.json()) as Json).result
    expect([res.statusCode, res.headers["batch-id"], result.isError ?? false]).toEqual([200, batchA, false])
    expect([result.structuredContent.batch_id, result.structuredContent.last_scraped_date]).toEqual([batchA, "2026-02-06"])
    // a fund the batch does not have: the tool's error was read from the batch too
    const unknown = await call(3, "4294967295")
    const refused = ((await unknown.body.json()) as Json).result
    expect([refused.isError, refused.structuredContent.status, unknown.headers["batch-id"], refused.structuredContent.batch_id]).toEqual([true, 404, batchA, batchA])
    // arguments refused before any batch is read name none
    const bad = await mcp({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "get_fund", arguments: { nope: "1" } } })
    const badResult = ((await bad.body.json()) as Json).result
    expect([badResult.isError, bad.headers["batch-id"], badResult.structuredContent.batch_id]).toEqual([true, undefined, null])
  })

  it("after B is published, the same requests name B, and ?batch= naming the current batch names it too", async () => {
    batchB = idOf(publishFixtureB(dir.snapshotsDir).finished.file)
    expect(batchB).toMatch(/^2026-02-09-[0-9a-f]{16}$/)
    expect(await waitFor(async () => (await servedBatch()) === batchB, 10_000)).toBe(true)
    const days = await call(`/api/real_assets/${SERIE_8043_A}/days`)
    expect([header(days, "batch-id"), (days.body as Json).meta.batch_id, (days.body as Json).meta.batch_date]).toEqual([batchB, batchB, "2026-02-09"])
    const named = await call(`/api/real_assets/${SERIE_8043_A}/days?batch=${batchB}`)
    expect([named.status, header(named, "batch-id"), header(named, "cache-control")]).toEqual([200, batchB, "private, max-age=31536000, immutable"])
  })
})

describe("stampBatchId", () => {
  const id = "2026-11-20-0123456789abcdef"
  it("writes batch_id first in the top-level meta, whether meta comes first or last, empty or not", () => {
    expect(JSON.parse(stampBatchId('{"meta":{"date":"2026-11-20"},"families":[{"meta":1}]}', id))).toEqual({
      meta: { batch_id: id, date: "2026-11-20" },
      families: [{ meta: 1 }],
    })
    expect(stampBatchId('{"data":[{"x":"\\"meta\\":{"}],"meta":{"count":1}}', id)).toBe(`{"data":[{"x":"\\"meta\\":{"}],"meta":{"batch_id":"${id}","count":1}}`)
    expect(stampBatchId('{"data":[],"meta":{}}', id)).toBe(`{"data":[],"meta":{"batch_id":"${id}"}}`)
  })
  it("refuses an answer without a meta object", () => {
    expect(() => stampBatchId('{"data":[]}', id)).toThrow(/without a top-level meta/)
    expect(() => stampBatchId('{"data":[],"meta":null}', id)).toThrow(/without a top-level meta/)
  })
})
