/**
 * GET /api/market/flows over HTTP, on the batch the real pipeline builds from real cartola rows
 * (test/support/realFlows.ts): values against sums worked out here from the file rows, currency
 * conversion, paging, the stored months against the days, and the errors (400, 422, 404).
 */
import { rmSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildFlowBatch, type HandRow, handRows, testDollar } from "../support/realFlows.ts"
import { createKey, expectErrorShape, get, header, type JsonResponse, type RunningServer, startServer } from "../support/server.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"

let work: string
let server: RunningServer
let apiKey: string
const rows = handRows()

beforeAll(async () => {
  const built = await buildFlowBatch()
  work = built.work
  apiKey = (await createKey(built.dataDir, { email: "flows@example.cl", tier: "internal" })).key
  server = await startServer({ dataDir: built.dataDir })
}, 60_000)
afterAll(async () => {
  await server?.close()
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

interface Row {
  date: string
  currency: string
  subscribed: number | null
  redeemed: number | null
  net: number | null
  series_count: number
  series_days: number
  unreported_days: number
  unconverted_days: number
}
interface Body {
  data: Row[]
  meta: { level: string; id: string; name: string; period: string; currency: string; total: number; limit: number; offset: number; batch_id: string }
}
const flows = (query: string): Promise<JsonResponse> => get(`${server.url}/api/market/flows?${query}`, { "x-api-key": apiKey })
const ok = async (query: string): Promise<Body> => {
  const res = await flows(query)
  expect(res.status, res.text).toBe(200)
  expect(header(res, "batch-id")).toBe((res.body as Body).meta.batch_id)
  return res.body as Body
}
const handNet = (of: ReadonlyArray<HandRow>, dollar = false) =>
  of.reduce((sum, r) => sum + (r.aportadas - r.rescatadas) * r.valorCuota * (dollar ? testDollar(r.date) : 1), 0)

describe("GET /api/market/flows", () => {
  it("a peso series by day, a Sunday included: RUN 8011 serie H", async () => {
    const id = testCrc32("fm:8011:H")
    const body = await ok(`level=series&id=${id}&from=2026-02-01&to=2026-02-07`)
    // RUN 8011's check digit by hand: 1·2 + 1·3 + 0·4 + 8·5 = 45; 45 mod 11 = 1; 11 − 1 = 10 → K
    expect(body.meta).toMatchObject({ level: "series", id: String(id), name: "8011-K H", period: "day", currency: "native", total: 7 })
    const sunday = body.data[0]!
    // by hand: (0 − 15389.6511) × 1832.3562 = −28,199,322.6089 CLP
    expect(sunday).toMatchObject({ date: "2026-02-01", currency: "CLP", subscribed: 0, series_days: 1 })
    expect(sunday.net).toBeCloseTo(-28_199_322.60892182, 4)
    const h = rows.filter((r) => r.run === 8011 && r.serie === "H")
    expect(body.data.map((d) => d.date)).toEqual(h.map((r) => r.date))
    for (const [i, r] of h.entries()) expect(body.data[i]!.net).toBeCloseTo(handNet([r]), 4)
  })

  it("a dollar fund by day, natively and in CLP at each day's dollar (Saturday: Friday's)", async () => {
    const id = testCrc32("fm:9932")
    const native = await ok(`level=fund&id=${id}&from=2026-01-09&to=2026-01-12`)
    expect(native.data.map((d) => [d.date, d.currency, d.series_days])).toEqual([
      ["2026-01-09", "USD", 4], ["2026-01-10", "USD", 4], ["2026-01-11", "USD", 4], ["2026-01-12", "USD", 4],
    ])
    // by hand: F1 alone moves on 01-09: (2559.6257 − 43048.3026) × 1.0685 = −43,262.1513 USD
    expect(native.data[0]!.net).toBeCloseTo(-43_262.15126765, 6)
    const clp = await ok(`level=fund&id=${id}&from=2026-01-09&to=2026-01-12&currency=clp`)
    // × 905.50, the fixture's dollar of 2026-01-09 = −39,173,877.97 CLP
    expect(clp.data[0]).toMatchObject({ date: "2026-01-09", currency: "CLP", unconverted_days: 0 })
    expect(clp.data[0]!.net).toBeCloseTo(-39_173_877.972857, 3)
    const monday = rows.filter((r) => r.run === 9932 && r.date === "2026-01-12")
    expect(clp.data[3]!.net).toBeCloseTo(handNet(monday, true), 3)
    expect(clp.meta.currency).toBe("CLP")
  })

  it("a month of a fund is the sum of its days; an administrator's month, of its funds'", async () => {
    const fund = testCrc32("fm:8011")
    const days = await ok(`level=fund&id=${fund}&from=2026-02-01&to=2026-02-28`)
    const month = await ok(`level=fund&id=${fund}&period=month&from=2026-02&to=2026-02`)
    expect(month.data).toHaveLength(1)
    expect(month.data[0]).toMatchObject({ date: "2026-02", currency: "CLP", series_count: 11, series_days: 77 })
    expect(month.data[0]!.net).toBeCloseTo(days.data.reduce((s, d) => s + d.net!, 0), 2)
    expect(month.data[0]!.net).toBeCloseTo(handNet(rows.filter((r) => r.run === 8011)), 2)
    const principal = await ok(`level=administrator&id=${testCrc32("agf:91999000")}&period=month`)
    expect(principal.data.map((d) => d.date)).toEqual(["2026-02"])
    expect(principal.data[0]!.net).toBeCloseTo(handNet(rows.filter((r) => r.agf === 91999000)), 2)
  })

  it("a family by day, named by display name or slug", async () => {
    const bySlug = await ok("level=family&id=accionario-eeuu&from=2026-01-09&to=2026-01-09")
    const byName = await ok("level=family&id=Accionario%20eeuu&from=2026-01-09&to=2026-01-09")
    expect(byName.data).toEqual(bySlug.data)
    expect(bySlug.meta).toMatchObject({ id: "accionario-eeuu", name: "Accionario eeuu" })
    expect(bySlug.data[0]!.net).toBeCloseTo(-43_262.15126765, 6)
  })

  it("pages oldest first", async () => {
    const id = testCrc32("fm:9932")
    const all = await ok(`level=fund&id=${id}`)
    expect(all.meta.total).toBe(new Set(rows.filter((r) => r.run === 9932).map((r) => r.date)).size)
    const page = await ok(`level=fund&id=${id}&limit=3&offset=2`)
    expect(page.data).toEqual(all.data.slice(2, 5))
    expect(page.meta).toMatchObject({ total: all.meta.total, limit: 3, offset: 2 })
  })

  it("400 for a malformed date, 422 for an unknown level or reversed range, 404 for an unknown id", async () => {
    const malformed = await flows(`level=fund&id=${testCrc32("fm:8011")}&from=2026-02`)
    expect(malformed.status).toBe(400)
    expectErrorShape(malformed.body, 400, malformed)
    expect((malformed.body as { parameter: string }).parameter).toBe("from")
    const monthAsDay = await flows(`level=fund&id=${testCrc32("fm:8011")}&period=month&to=2026-02-01`)
    expect(monthAsDay.status).toBe(400)

    const level = await flows("level=planet&id=1")
    expect(level.status).toBe(422)
    expectErrorShape(level.body, 422, level)
    const reversed = await flows(`level=fund&id=${testCrc32("fm:8011")}&from=2026-02-10&to=2026-02-01`)
    expect(reversed.status).toBe(422)
    const unknownParameter = await flows(`level=fund&id=${testCrc32("fm:8011")}&currencies=CLP`)
    expect(unknownParameter.status).toBe(422)

    const unknown = await flows("level=administrator&id=123")
    expect(unknown.status).toBe(404)
    expectErrorShape(unknown.body, 404, unknown)
  })
})
