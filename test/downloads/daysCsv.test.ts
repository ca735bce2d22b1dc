/**
 * GET /api/real_assets/{asset_id}/days as CSV (`?format=csv`, `Accept: text/csv`): read back with
 * a CSV parser, it equals the JSON /days item for item (FM and FI/ETF ids) and the values the
 * fixtures chose; a header line, ISO dates, `.` decimals; from_date; the same 404 and 422 (JSON
 * bodies); JSON stays the answer to no Accept, to `*\/*` and to a tie; the CSV has its own ETag and
 * `Vary: Accept`. Every answer is checked against the served /openapi.json.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PRICES, SERIES } from "../fi/fiData.ts"
import { makeFiFixture } from "../fi/fiFixture.ts"
import { type ContractValidator, contractValidator } from "../support/openApiValidator.ts"
import { createKey, expectErrorShape, get, type JsonResponse, type RunningServer, startServer } from "../support/server.ts"
import { fixtureA } from "../support/snapshotFixture.ts"
import { csvHeader, parseCsv } from "./csv.ts"

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any

const DAYS = "/api/real_assets/{asset_id}/days"
const ISO = /^\d{4}-\d{2}-\d{2}$/
const DECIMAL = /^\d+(\.\d+)?$/

describe("GET /api/real_assets/{asset_id}/days as CSV", () => {
  const fx = makeFiFixture("available")
  let server: RunningServer
  let key: string
  let validator: ContractValidator

  const days = async (assetId: string, query = "", headers: Record<string, string> = {}): Promise<JsonResponse> => {
    const res = await get(`${server.url}/api/real_assets/${assetId}/days${query}`, { "x-api-key": key, ...headers })
    expect(validator.problems("get", DAYS, res)).toEqual([])
    return res
  }

  const fmSeries = fixtureA().funds.flatMap((f) => f.series)
  const fiSeries = SERIES.filter((s) => PRICES.some((p) => p.serie_id === s.serie_id))

  beforeAll(async () => {
    server = await startServer({ dataDir: fx.dataDir })
    key = (await createKey(fx.dataDir, { email: "csv@example.cl", tier: "internal" })).key
    validator = contractValidator((await get(`${server.url}/openapi.json`)).body)
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("FM series: the CSV equals the JSON /days and the fixture's values, by ?format=csv and by Accept", async () => {
    for (const s of fmSeries) {
      const id = String(s.assetId)
      const json = (await days(id)).body as Json
      for (const csv of [await days(id, "?format=csv"), await days(id, "", { accept: "text/csv" })]) {
        expect(csv.status).toBe(200)
        expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8; header=present")
        expect(csvHeader(csv.text)).toEqual(["date", "price"])
        const rows = parseCsv(csv.text)
        expect(rows.map((r) => ({ date: r.date, price: Number(r.price) }))).toEqual(
          json.data.map((d: Json) => ({ date: d.attributes.date, price: d.attributes.price })),
        )
        expect(rows.map((r) => ({ date: r.date, price: Number(r.price) }))).toEqual(s.quotas.map((q) => ({ date: q.date, price: q.price })))
        for (const r of rows) {
          expect(r.date).toMatch(ISO)
          expect(r.price).toMatch(DECIMAL)
        }
      }
    }
  })

  it("FI/ETF series: the CSV equals the JSON /days, currency and price kind included", async () => {
    expect(fiSeries.length).toBeGreaterThan(3)
    for (const s of fiSeries) {
      const json = (await days(s.serie_id)).body as Json
      const csv = await days(s.serie_id, "?format=csv")
      expect(csv.status).toBe(200)
      expect(csvHeader(csv.text)).toEqual(["date", "price", "currency", "price_source", "price_basis"])
      const rows = parseCsv(csv.text)
      expect(rows.map((r) => ({ ...r, price: Number(r.price) }))).toEqual(
        json.data.map((d: Json) => ({
          date: d.attributes.date,
          price: d.attributes.price,
          currency: d.attributes.currency,
          price_source: d.attributes.price_source,
          price_basis: d.attributes.price_basis,
        })),
      )
      const chosen = PRICES.filter((p) => p.serie_id === s.serie_id)
      expect(rows.map((r) => Number(r.price))).toEqual(chosen.map((p) => p.book_value))
      expect(rows.every((r) => r.currency === s.currency)).toBe(true)
    }
  })

  it("from_date keeps the later days, as in JSON", async () => {
    const s = fmSeries[0]!
    const from = s.quotas[2]!.date
    const csv = parseCsv((await days(String(s.assetId), `?format=csv&from_date=${from}`)).text)
    expect(csv.map((r) => r.date)).toEqual(s.quotas.slice(2).map((q) => q.date))
    const none = await days(String(s.assetId), "?format=csv&from_date=2030-01-01")
    expect(none.text).toBe("date,price\n")
  })

  it("the same 404 and 422 as JSON, with JSON error bodies", async () => {
    for (const [id, query, status] of [
      ["4294967295", "?format=csv", 404],
      ["0badc0de-0000-4000-8000-000000000000", "?format=csv", 404],
      ["abc", "?format=csv", 422],
      [String(fmSeries[0]!.assetId), "?format=xml", 422],
      [String(fmSeries[0]!.assetId), "?format=csv&from_date=2026-13-01", 422],
    ] as const) {
      const res = await days(id, query)
      expect(res.status, `${id}${query}`).toBe(status)
      expectErrorShape(res.body, status)
    }
    expect(((await days(String(fmSeries[0]!.assetId), "?format=xml")).body as Json).parameter).toBe("format")
    const unknown = await days("4294967295", "", { accept: "text/csv" })
    expect(unknown.status).toBe(404)
    expectErrorShape(unknown.body, 404)
  })

  it("JSON for no Accept, */*, a tie or a lower q for text/csv; format=json wins over Accept", async () => {
    const id = String(fmSeries[0]!.assetId)
    for (const headers of [{}, { accept: "*/*" }, { accept: "text/csv;q=0.5, application/json" }, { accept: "application/json, text/csv" }]) {
      const res = await days(id, "", headers)
      expect(res.headers["content-type"], JSON.stringify(headers)).toBe("application/json")
    }
    expect((await days(id, "?format=json", { accept: "text/csv" })).headers["content-type"]).toBe("application/json")
    expect((await days(id, "", { accept: "text/csv, application/json;q=0.9" })).headers["content-type"]).toMatch(/^text\/csv/)
  })

  it("the CSV has its own ETag (the same by format or Accept), Vary: Accept, and answers its own If-None-Match", async () => {
    const id = String(fmSeries[0]!.assetId)
    const json = await days(id)
    const byFormat = await days(id, "?format=csv")
    const byAccept = await days(id, "", { accept: "text/csv" })
    expect(byFormat.headers.etag).toBeDefined()
    expect(byFormat.headers.etag).not.toBe(json.headers.etag)
    expect(byAccept.headers.etag).toBe(byFormat.headers.etag)
    for (const res of [json, byFormat, byAccept]) expect(String(res.headers.vary)).toMatch(/(^|, )Accept(,|$)/)
    expect((await days(id, "?format=csv", { "if-none-match": String(byFormat.headers.etag) })).status).toBe(304)
    expect((await days(id, "?format=csv", { "if-none-match": String(json.headers.etag) })).status).toBe(200)
    expect((await days(id, "", { "if-none-match": String(byFormat.headers.etag) })).status).toBe(200)
  })
})
