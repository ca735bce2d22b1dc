/**
 * Catalog routes over real HTTP against the fixture snapshot: every expected value is the
 * fixture's own (test/support/snapshotFixture.ts), ids computed with the test's CRC32.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type CreatedKey,
  createKey,
  expectErrorShape,
  get,
  type JsonResponse,
  type RunningServer,
  startServer,
} from "../support/server.ts"
import { type FixtureFund, type FixtureSeries, makeFixtureA, testCrc32 } from "../support/snapshotFixture.ts"

interface Resource<A> {
  readonly id: string
  readonly type: string
  readonly attributes: A
}
interface ListBody<A> {
  readonly data: ReadonlyArray<Resource<A>>
}
interface DaysBody {
  readonly data: ReadonlyArray<Resource<{ date: string; price: number }>>
  readonly meta: { asset_id: string; batch_date: string; count: number }
}

describe("catalog routes", () => {
  const fx = makeFixtureA()
  const data = fx.snapshot.data
  /** The fixture file's name without .sqlite: the id every answer names. */
  const batchId = fx.snapshot.finished.file.replace(/\.sqlite$/, "")
  let server: RunningServer
  let key: CreatedKey
  const call = (path: string): Promise<JsonResponse> => get(server.url + path, { "x-api-key": key.key })

  const fundByRun = (run: number): FixtureFund => data.funds.find((f) => f.run === run)!
  const seriesOf = (run: number, serie: string): FixtureSeries =>
    fundByRun(run).series.find((s) => s.serie === serie)!
  const beta = data.administrators.find((a) => a.rut === 97004000)!

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "catalog@example.cl" })
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  describe("/api/asset_providers", () => {
    it("lists both administrators with id = crc32('agf:' + RUT)", async () => {
      const res = await call("/api/asset_providers")
      expect(res.status).toBe(200)
      const body = res.body as ListBody<{ name: string }>
      const got = body.data.map((p) => ({ id: p.id, type: p.type, name: p.attributes.name }))
      expect(got).toHaveLength(2)
      expect(got).toEqual(
        expect.arrayContaining([
          { id: String(testCrc32("agf:96639280")), type: "asset_provider", name: "Alfa AGF S.A." },
          { id: String(testCrc32("agf:97004000")), type: "asset_provider", name: "Beta AGF S.A." },
        ]),
      )
    })
  })

  describe("/api/asset_providers/{provider_id}/conceptual_assets", () => {
    it("lists only the provider's current funds, RUN with check digit", async () => {
      const res = await call(`/api/asset_providers/${testCrc32("agf:96639280")}/conceptual_assets`)
      expect(res.status).toBe(200)
      const body = res.body as ListBody<Record<string, unknown>>
      // Alfa has 8043 (current) and 8106 (terminated): only 8043
      expect(body.data).toHaveLength(1)
      const f = body.data[0]!
      expect(f.id).toBe(String(testCrc32("fm:8043")))
      expect(f.type).toBe("conceptual_asset")
      expect(f.attributes).toMatchObject({
        name: "Fondo Mutuo Alfa Ahorro",
        run: "8043-8",
        symbol: "8043-8",
        currency: "CLP", // CMF "$$"
        cmf_fund_type: 1,
        category: "money_market_90d", // CMF type 1
      })
      expect(body.data.map((x) => x.id)).not.toContain(String(testCrc32("fm:8106")))
    })

    it("the other provider's fund, in dollars", async () => {
      const res = await call(`/api/asset_providers/${beta.providerId}/conceptual_assets`)
      expect(res.status).toBe(200)
      const body = res.body as ListBody<Record<string, unknown>>
      expect(body.data.map((x) => x.id)).toEqual([String(testCrc32("fm:9105"))])
      expect(body.data[0]!.attributes).toMatchObject({
        name: "Fondo Mutuo Beta Dólar",
        run: "9105-7",
        currency: "USD", // CMF "PROM"
        cmf_fund_type: 5,
        category: "equity",
      })
    })

    it("an unknown provider → 404 in the error shape", async () => {
      const unknown = testCrc32("agf:1")
      const res = await call(`/api/asset_providers/${unknown}/conceptual_assets`)
      expect(res.status).toBe(404)
      expectErrorShape(res.body, 404)
    })

    it("a provider_id that is not an unsigned 32-bit integer → 422 naming provider_id", async () => {
      for (const bad of ["abc", "1.5", "-1", "4294967296"]) {
        const res = await call(`/api/asset_providers/${bad}/conceptual_assets`)
        expect(res.status, bad).toBe(422)
        expectErrorShape(res.body, 422)
        expect((res.body as { parameter: string }).parameter, bad).toBe("provider_id")
      }
    })
  })

  describe("/api/conceptual_assets/{concept_id}/real_assets", () => {
    it("lists every series of a fund with its last day from the fixture", async () => {
      const fund = fundByRun(8043)
      const res = await call(`/api/conceptual_assets/${testCrc32("fm:8043")}/real_assets`)
      expect(res.status).toBe(200)
      const body = res.body as ListBody<Record<string, unknown>>
      expect(body.data.map((s) => s.id).sort()).toEqual(
        [String(testCrc32("fm:8043:A")), String(testCrc32("fm:8043:B"))].sort(),
      )
      for (const s of fund.series) {
        const item = body.data.find((x) => x.id === String(s.assetId))!
        const last = s.quotas[s.quotas.length - 1]!
        expect(item.type).toBe("real_asset")
        expect(item.attributes).toMatchObject({
          serie: s.serie,
          run: "8043-8",
          currency: "CLP",
          start_date: s.quotas[0]!.date,
          end_date: null, // still reporting on the batch date
          last_day: {
            net_asset_value: last.price,
            total_net_assets: last.patrimony,
            shareholders: last.holders,
            date: last.date,
            quota_source: "cartola",
          },
        })
      }
    })

    it("series B's last day is the fixture's 2026-02-06 row", async () => {
      const res = await call(`/api/conceptual_assets/${testCrc32("fm:8043")}/real_assets`)
      const b = (res.body as ListBody<{ last_day: unknown }>).data.find(
        (x) => x.id === String(testCrc32("fm:8043:B")),
      )!
      expect(b.attributes.last_day).toEqual({
        net_asset_value: 2502.375,
        total_net_assets: 751_500_000,
        shareholders: 90,
        date: "2026-02-06",
        quota_source: "cartola",
      })
    })

    it("a terminated fund still lists its series, with its end date", async () => {
      const s = seriesOf(8106, "A")
      const res = await call(`/api/conceptual_assets/${testCrc32("fm:8106")}/real_assets`)
      expect(res.status).toBe(200)
      const body = res.body as ListBody<Record<string, unknown>>
      expect(body.data).toHaveLength(1)
      expect(body.data[0]!.id).toBe(String(s.assetId))
      expect(body.data[0]!.attributes).toMatchObject({
        run: "8106-K",
        start_date: "2026-01-13",
        end_date: "2026-01-15",
        last_day: { net_asset_value: 1498.5, total_net_assets: 1_000_000, shareholders: 1, date: "2026-01-15", quota_source: "cartola" },
      })
    })

    it("investor class from the series label (APV) and USD currency", async () => {
      const res = await call(`/api/conceptual_assets/${testCrc32("fm:9105")}/real_assets`)
      const body = res.body as ListBody<Record<string, unknown>>
      const apv = body.data.find((x) => x.id === String(testCrc32("fm:9105:APV")))!
      expect(apv.attributes).toMatchObject({ serie: "APV", investor_class: "APV", currency: "USD", run: "9105-7" })
      const a = body.data.find((x) => x.id === String(testCrc32("fm:9105:A")))!
      expect(a.attributes).toMatchObject({ serie: "A", investor_class: "Retail" })
    })

    it("an unknown fund → 404; a non-integer id → 422 naming concept_id", async () => {
      const missing = await call(`/api/conceptual_assets/${testCrc32("fm:1")}/real_assets`)
      expect(missing.status).toBe(404)
      expectErrorShape(missing.body, 404)
      const bad = await call("/api/conceptual_assets/x1/real_assets")
      expect(bad.status).toBe(422)
      expectErrorShape(bad.body, 422)
      expect((bad.body as { parameter: string }).parameter).toBe("concept_id")
    })
  })

  describe("/api/real_assets/{asset_id}/days", () => {
    it("whole history, ascending, values equal to the fixture's", async () => {
      for (const s of data.funds.flatMap((f) => f.series)) {
        const res = await call(`/api/real_assets/${s.assetId}/days`)
        expect(res.status).toBe(200)
        const body = res.body as DaysBody
        expect(body.data.map((d) => [d.attributes.date, d.attributes.price])).toEqual(
          s.quotas.map((q) => [q.date, q.price]),
        )
        expect(body.data.every((d) => d.type === "real_asset_day")).toBe(true)
        expect(body.data.map((d) => d.id)).toEqual(s.quotas.map((q) => `${s.assetId}_${q.date}`))
        expect(body.meta).toEqual({ batch_id: batchId, asset_id: String(s.assetId), batch_date: data.batchDate, count: s.quotas.length })
      }
    })

    it("from_date is inclusive", async () => {
      const a = seriesOf(8043, "A")
      const res = await call(`/api/real_assets/${a.assetId}/days?from_date=2026-02-04`)
      expect(res.status).toBe(200)
      expect((res.body as DaysBody).data.map((d) => [d.attributes.date, d.attributes.price])).toEqual([
        ["2026-02-04", 1002],
        ["2026-02-05", 1002.75],
        ["2026-02-06", 1003.5],
      ])
    })

    it("from_date between two quota dates starts at the next one; after the last, an empty list", async () => {
      const b = seriesOf(8043, "B") // dates 02-03, 02-05, 02-06
      const between = await call(`/api/real_assets/${b.assetId}/days?from_date=2026-02-04`)
      expect((between.body as DaysBody).data.map((d) => d.attributes.date)).toEqual(["2026-02-05", "2026-02-06"])
      const after = await call(`/api/real_assets/${b.assetId}/days?from_date=2026-03-01`)
      expect(after.status).toBe(200)
      expect((after.body as DaysBody).data).toEqual([])
      expect((after.body as DaysBody).meta.count).toBe(0)
    })

    it("to_date is inclusive, alone or with from_date; cached renderings answer the same ranges", async () => {
      const a = seriesOf(8043, "A")
      const dates = (body: unknown) => (body as DaysBody).data.map((d) => [d.attributes.date, d.attributes.price])
      const all = a.quotas.map((q) => [q.date, q.price])
      for (const [query, expected] of [
        ["to_date=2026-02-04", all.filter(([d]) => String(d) <= "2026-02-04")],
        ["from_date=2026-02-04&to_date=2026-02-05", [["2026-02-04", 1002], ["2026-02-05", 1002.75]]],
        ["from_date=2026-02-05&to_date=2026-02-05", [["2026-02-05", 1002.75]]],
        ["to_date=2099-12-31", all],
        ["to_date=2000-01-01", []],
      ] as const) {
        const res = await call(`/api/real_assets/${a.assetId}/days?${query}`)
        expect(res.status, query).toBe(200)
        expect(dates(res.body), query).toEqual(expected)
        expect((res.body as DaysBody).meta.count, query).toBe(expected.length)
        // the CSV takes the same range
        const csv = await call(`/api/real_assets/${a.assetId}/days?${query}&format=csv`)
        expect(csv.text, query).toBe(`date,price\n${expected.map(([d, p]) => `${d},${p}\n`).join("")}`)
      }
      expect(all.filter(([d]) => String(d) <= "2026-02-04").length).toBeGreaterThan(1)
    })

    it("from_date after to_date → 422 naming from_date, as on FI prices", async () => {
      const a = seriesOf(8043, "A")
      const res = await call(`/api/real_assets/${a.assetId}/days?from_date=2026-02-05&to_date=2026-02-04`)
      expect(res.status).toBe(422)
      expectErrorShape(res.body, 422)
      expect(res.body).toMatchObject({
        parameter: "from_date",
        message: "invalid query parameter from_date: 2026-02-05 is later than to_date 2026-02-04",
      })
      const bad = await call(`/api/real_assets/${a.assetId}/days?to_date=2026-02-30`)
      expect(bad.status).toBe(422)
      expect((bad.body as { parameter: string }).parameter).toBe("to_date")
    })

    it("leading zeros in the id name the same series", async () => {
      const a = seriesOf(9105, "A") // a 10-digit id; two leading zeros make 12 characters
      const res = await call(`/api/real_assets/00${a.assetId}/days`)
      expect(res.status).toBe(200)
      expect((res.body as DaysBody).data.map((d) => d.attributes.price)).toEqual(a.quotas.map((q) => q.price))
      // ids as the series' own (`<id>_<date>`), not as the path spelled it
      expect((res.body as DaysBody).data.map((d) => d.id)).toEqual(a.quotas.map((q) => `${a.assetId}_${q.date}`))
      expect((res.body as { meta: { asset_id: string } }).meta.asset_id).toBe(String(a.assetId))
    })

    it("from_date that is not a real YYYY-MM-DD date → 422 naming from_date", async () => {
      const a = seriesOf(8043, "A")
      for (const bad of ["2026-02-30", "2026-2-3", "20260203", "2026-13-01"]) {
        const res = await call(`/api/real_assets/${a.assetId}/days?from_date=${bad}`)
        expect(res.status, bad).toBe(422)
        expectErrorShape(res.body, 422)
        expect((res.body as { parameter: string }).parameter, bad).toBe("from_date")
      }
    })

    it("an unknown series → 404; a non-numeric id → 422 naming asset_id", async () => {
      const unknown = await call(`/api/real_assets/${testCrc32("fm:8043:Z")}/days`)
      expect(unknown.status).toBe(404)
      expectErrorShape(unknown.body, 404)
      for (const bad of ["abc", "12x", "-5", "4294967296"]) {
        const res = await call(`/api/real_assets/${bad}/days`)
        expect(res.status, bad).toBe(422)
        expectErrorShape(res.body, 422)
        expect((res.body as { parameter: string }).parameter, bad).toBe("asset_id")
      }
    })
  })

  it("path ids are plain decimal: exponent or fraction forms → 422 naming the parameter", async () => {
    const provider = String(testCrc32("agf:96639280"))
    for (const [path, parameter] of [
      ["/api/asset_providers/1e3/conceptual_assets", "provider_id"],
      [`/api/asset_providers/${provider}.0/conceptual_assets`, "provider_id"],
      ["/api/conceptual_assets/0x10/real_assets", "concept_id"],
      ["/api/conceptual_assets/99999999999/real_assets", "concept_id"],
    ] as const) {
      const res = await call(path)
      expect(res.status, path).toBe(422)
      expectErrorShape(res.body, 422)
      expect((res.body as { parameter: string }).parameter, path).toBe(parameter)
    }
  })

  it("leading zeros do not distinguish ids, however many", async () => {
    const provider = String(testCrc32("agf:96639280"))
    const plain = await call(`/api/asset_providers/${provider}/conceptual_assets`)
    const padded = await call(`/api/asset_providers/000000${provider}/conceptual_assets`)
    expect(plain.status).toBe(200)
    expect(padded.status).toBe(200)
    expect(padded.body).toEqual(plain.body)
  })

  it("an unknown path → 404 in the JSON error shape", async () => {
    for (const path of ["/nope", "/api/nothing/here", "/api/asset_providers/1/conceptual_assets/extra"]) {
      const res = await call(path)
      expect(res.status, path).toBe(404)
      expectErrorShape(res.body, 404)
    }
    const noKey = await get(server.url + "/api/unknown")
    expect(noKey.status).toBe(404)
    expectErrorShape(noKey.body, 404)
  })

  it("/health reports the fixture's batch date and record count", async () => {
    const res = await get(server.url + "/health")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: "ok",
      last_scraped_date: data.batchDate,
      batch_id: batchId,
      total_records: fx.snapshot.totalRecords,
      reasons: [],
      sources: [],
    })
    // 2 administrators + 3 funds + 5 series + (5+3+3+3+2) quota rows, counted by hand
    expect(fx.snapshot.totalRecords).toBe(2 + 3 + 5 + 16)
  })
})
