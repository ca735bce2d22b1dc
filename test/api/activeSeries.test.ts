/**
 * "Active" is one definition across routes: a series is active while its fund has no registry end
 * date on or before the batch date and it has gone at most FDS_SERIES_GRACE_DAYS weekdays (default
 * 10) without a value. Checked over HTTP on a hand-made snapshot, batch Tuesday 2026-03-17, where
 * each series' last value lies a chosen number of weekdays back (worked out by hand, weekends
 * skipped; the weekdays after the last value up to the batch date):
 *   2026-03-17 Tue  0 (on the batch date)
 *   2026-03-16 Mon  1: the 17th
 *   2026-03-12 Thu  3: 13 (Fri), 16 (Mon), 17 (Tue); 5 calendar days
 *   2026-03-03 Tue 10: 4, 5, 6, 9, 10, 11, 12, 13, 16, 17; 14 calendar days
 *   2026-03-02 Mon 11: the ten above and the 3rd
 * Funds (one administrator):
 *   8301  A last 03-16 (1 back)                     B last 03-02 (11 back)
 *   8302  A last 03-03 (10 back)
 *   8303  A last 03-02 (11 back): its only series
 *   8304  A last 03-16, registry end date 2026-03-16 (on or before the batch date)
 *   8305  A last 03-12 (3 back, across the weekend)
 *   8306  A last 03-17, registry end date 2026-03-31 (after the batch date: still current)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MARKET_COMPUTATIONS } from "../../pipeline/compute/MarketComputations.ts"
import { ReturnsComputation } from "../../pipeline/compute/ReturnsComputation.ts"
import {
  type CreatedKey,
  createKey,
  expectErrorShape,
  get,
  type JsonResponse,
  type RunningServer,
  startServer,
} from "../support/server.ts"
import {
  type FixtureData,
  type FixtureDir,
  type FixtureFund,
  type FixtureQuota,
  makeDataDir,
  publishSnapshot,
  testCrc32,
  weekdays,
} from "../support/snapshotFixture.ts"

const BATCH = "2026-03-17"
const RUT = 76111222
const PROVIDER = testCrc32(`agf:${RUT}`)

/** Weekday quotes from 2026-02-02 at 100, then the last one with its own price; one patrimony throughout. */
const history = (last: string, lastPrice: number, patrimony: number): FixtureQuota[] => [
  ...weekdays("2026-02-02", last)
    .slice(0, -1)
    .map((date) => ({ date, price: 100, patrimony, holders: 10 })),
  { date: last, price: lastPrice, patrimony, holders: 10 },
]

const fund = (run: number, name: string, endDate: string | null, series: Record<string, FixtureQuota[]>): FixtureFund => ({
  run,
  dv: "0", // not written to the snapshot
  providerRut: RUT,
  name,
  fundType: 1,
  currency: "$$",
  endDate,
  isCurrent: endDate === null || endDate > BATCH,
  conceptId: testCrc32(`fm:${run}`),
  series: Object.entries(series).map(([serie, quotas]) => ({
    run,
    serie,
    currency: "$$",
    assetId: testCrc32(`fm:${run}:${serie}`),
    quotas,
  })),
})

const data = (): FixtureData => ({
  batchDate: BATCH,
  administrators: [{ rut: RUT, dv: "0", name: "Gracia AGF S.A.", providerId: PROVIDER }],
  funds: [
    fund(8301, "Fondo Mutuo Gracia Uno", null, {
      A: history("2026-03-16", 1016.5, 1016e6),
      B: history("2026-03-02", 1002.5, 2e6),
    }),
    fund(8302, "Fondo Mutuo Gracia Diez", null, { A: history("2026-03-03", 1003.25, 3003e6) }),
    fund(8303, "Fondo Mutuo Gracia Once", null, { A: history("2026-03-02", 1302.75, 13e6) }),
    fund(8304, "Fondo Mutuo Gracia Terminado", "2026-03-16", { A: history("2026-03-16", 1416, 14e6) }),
    fund(8305, "Fondo Mutuo Gracia Tres", null, { A: history("2026-03-12", 1512.125, 5012e6) }),
    fund(8306, "Fondo Mutuo Gracia Futuro", "2026-03-31", { A: history("2026-03-17", 1617, 6017e6) }),
  ],
})

const id = (run: number, serie = "A") => String(testCrc32(`fm:${run}:${serie}`))

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back and assert on it
type Json = any

interface Api {
  readonly call: (path: string) => Promise<JsonResponse & { body: Json }>
  readonly close: () => Promise<void>
}

let dir: FixtureDir
let key: CreatedKey
const servers: RunningServer[] = []

const start = async (env?: Record<string, string>): Promise<Api> => {
  const server = await startServer({ dataDir: dir.dataDir, ...(env === undefined ? {} : { env }) })
  servers.push(server)
  return { call: (path) => get(server.url + path, { "x-api-key": key.key }), close: server.close }
}

let byDefault: Api
let graceThree: Api

beforeAll(async () => {
  dir = makeDataDir()
  // the pipeline's market and returns computations, as a build runs them (compare needs returns)
  publishSnapshot(dir.snapshotsDir, data(), (writer) => {
    for (const c of MARKET_COMPUTATIONS) c.run(writer.db, BATCH)
    ReturnsComputation.run(writer.db, BATCH)
  })
  key = await createKey(dir.dataDir, { email: "active@example.cl", tier: "internal" })
  byDefault = await start()
  graceThree = await start({ FDS_SERIES_GRACE_DAYS: "3" })
}, 30_000)
afterAll(async () => {
  for (const s of servers) await s.close()
  dir?.cleanup()
})

/** end_date of each series of a fund, by series label. */
const endDates = async (api: Api, run: number): Promise<Record<string, string | null>> => {
  const res = await api.call(`/api/conceptual_assets/${testCrc32(`fm:${run}`)}/real_assets`)
  expect(res.status).toBe(200)
  return Object.fromEntries(res.body.data.map((s: Json) => [s.attributes.serie, s.attributes.end_date]))
}

const lastDay = async (api: Api, run: number, serie = "A") => {
  const res = await api.call(`/api/conceptual_assets/${testCrc32(`fm:${run}`)}/real_assets`)
  return res.body.data.find((s: Json) => s.attributes.serie === serie).attributes.last_day
}

const conceptualIds = async (api: Api): Promise<string[]> => {
  const res = await api.call(`/api/asset_providers/${PROVIDER}/conceptual_assets`)
  expect(res.status).toBe(200)
  return res.body.data.map((f: Json) => f.id)
}
const fundIds = (...runs: number[]) => runs.map((run) => String(testCrc32(`fm:${run}`)))

const allFundsIds = async (api: Api, query = ""): Promise<string[]> => {
  const res = await api.call(`/api/all-funds${query}`)
  expect(res.status).toBe(200)
  return res.body.data.map((r: Json) => r.serieId).sort()
}

const screenerIds = async (api: Api): Promise<string[]> => {
  const res = await api.call("/api/screener?limit=200")
  expect(res.status).toBe(200)
  expect(res.body.meta.total).toBe(res.body.data.length)
  return res.body.data.map((r: Json) => r.id)
}

const byId = (ids: string[]) => [...ids].sort((a, b) => Number(a) - Number(b))

describe("default grace (10 weekdays)", () => {
  it("real_assets: a series 1, 3 or 10 weekdays late is active (end_date null); 11 late, or its fund ended in the registry, it ends at its last value", async () => {
    expect(await endDates(byDefault, 8301)).toEqual({ A: null, B: "2026-03-02" })
    expect(await endDates(byDefault, 8302)).toEqual({ A: null })
    expect(await endDates(byDefault, 8303)).toEqual({ A: "2026-03-02" })
    expect(await endDates(byDefault, 8304)).toEqual({ A: "2026-03-16" })
    expect(await endDates(byDefault, 8305)).toEqual({ A: null })
    // an end date after the batch date: the fund is still current
    expect(await endDates(byDefault, 8306)).toEqual({ A: null })
  })

  it("a late active series answers its last value with that value's date", async () => {
    expect(await lastDay(byDefault, 8301)).toEqual({ net_asset_value: 1016.5, total_net_assets: 1016e6, shareholders: 10, date: "2026-03-16", quota_source: "cartola" })
    expect(await lastDay(byDefault, 8302)).toEqual({ net_asset_value: 1003.25, total_net_assets: 3003e6, shareholders: 10, date: "2026-03-03", quota_source: "cartola" })
  })

  it("conceptual_assets lists the funds with an active series, not the one whose only series ended nor the one the registry ended", async () => {
    // by name: Diez, Futuro, Tres, Uno
    expect(await conceptualIds(byDefault)).toEqual(fundIds(8302, 8306, 8305, 8301))
  })

  it("all-funds, screener and compare hold the same active series", async () => {
    const active = [id(8301), id(8302), id(8305), id(8306)]
    expect(await allFundsIds(byDefault)).toEqual([...active].sort())
    // a filtered request is rendered live: the same universe
    expect(await allFundsIds(byDefault, "?category=money_market_90d")).toEqual([...active].sort())
    expect(await screenerIds(byDefault)).toEqual(byId(active))
    const compared = await byDefault.call(`/api/compare?series=${active.join(",")}`)
    expect(compared.status).toBe(200)
    expect(compared.body.meta.series_count).toBe(4)
    for (const ended of [id(8301, "B"), id(8303), id(8304)]) {
      const res = await byDefault.call(`/api/compare?series=${ended}`)
      expect(res.status, ended).toBe(404)
      expectErrorShape(res.body, 404)
    }
  })

  it("all-funds and compare give a late series' last value with price_as_of_date", async () => {
    const rows = (await byDefault.call("/api/all-funds")).body.data
    const ten = rows.find((r: Json) => r.serieId === id(8302))
    expect(ten).toMatchObject({ price: 1003.25, price_as_of_date: "2026-03-03", dailyChange: null })
    const one = rows.find((r: Json) => r.serieId === id(8301))
    expect(one).toMatchObject({ price: 1016.5, price_as_of_date: "2026-03-16", dailyChange: null })
    const compared = await byDefault.call(`/api/compare?series=${id(8302)}`)
    expect(compared.body.data[0].attributes).toMatchObject({ price: 1003.25, price_as_of_date: "2026-03-03" })
  })

  it("agf_stats ranking counts the active series at the date: 1016 + 3003 + 5012 + 6017 millions, four funds", async () => {
    const res = await byDefault.call("/api/agf_stats/ranking")
    expect(res.status).toBe(200)
    expect(res.body.data.map((d: Json) => [d.attributes.total_patrimony, d.attributes.fund_count])).toEqual([[15_048e6, 4]])
  })

  it("at an earlier date the ranking counts what was active then, a fund the registry ended later included", async () => {
    // 2026-03-03: every series had a value on 03-02 or 03-03 and 8304 ended only on 03-16:
    // 1016 + 2 + 3003 + 13 + 14 + 5012 + 6017 = 15077 millions, six funds
    const res = await byDefault.call("/api/agf_stats/ranking?date=2026-03-03")
    expect(res.body.data.map((d: Json) => [d.attributes.total_patrimony, d.attributes.fund_count])).toEqual([[15_077e6, 6]])
  })
})

describe("FDS_SERIES_GRACE_DAYS=3", () => {
  it("real_assets: 3 weekdays late (across a weekend) is still active, 10 late has ended", async () => {
    expect(await endDates(graceThree, 8301)).toEqual({ A: null, B: "2026-03-02" })
    expect(await endDates(graceThree, 8302)).toEqual({ A: "2026-03-03" })
    expect(await endDates(graceThree, 8305)).toEqual({ A: null })
    expect(await endDates(graceThree, 8306)).toEqual({ A: null })
  })

  it("the lists agree: conceptual_assets, all-funds (stored answer and live), screener, compare, ranking", async () => {
    expect(await conceptualIds(graceThree)).toEqual(fundIds(8306, 8305, 8301))
    const active = [id(8301), id(8305), id(8306)]
    expect(await allFundsIds(graceThree)).toEqual([...active].sort())
    expect(await allFundsIds(graceThree, "?category=money_market_90d")).toEqual([...active].sort())
    expect(await screenerIds(graceThree)).toEqual(byId(active))
    const res = await graceThree.call(`/api/compare?series=${id(8302)}`)
    expect(res.status).toBe(404)
    const ranking = await graceThree.call("/api/agf_stats/ranking")
    // 1016 + 5012 + 6017 millions
    expect(ranking.body.data.map((d: Json) => [d.attributes.total_patrimony, d.attributes.fund_count])).toEqual([[12_045e6, 3]])
  })
})

describe("a bad FDS_SERIES_GRACE_DAYS", () => {
  it("the server does not start, and says which variable and why", async () => {
    for (const bad of ["ten", "-1"]) {
      const failed = await startServer({ dataDir: dir.dataDir, env: { FDS_SERIES_GRACE_DAYS: bad } }).then(
        (s) => {
          servers.push(s)
          return null
        },
        (e: unknown) => String(e),
      )
      expect(failed, bad).toContain(`FDS_SERIES_GRACE_DAYS must be a whole number of weekdays from 0 to 260, got "${bad}"`)
    }
  })
})
