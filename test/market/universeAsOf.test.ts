/**
 * universe=as_of (issue #31 item 6: history without survivorship bias) over real HTTP against the
 * compare fixture (the market fixture of fixtureFunds.ts, batch 2026-03-04, with returns). On AS_OF the fund 8300 (ended 2026-02-20)
 * was alive and the absorbed series 8043-C still reported; 8106-B began on 2026-03-03. Which
 * series were alive, and their values, are worked out here from the fixture's inputs alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import type { Json } from "./client.ts"
import { type CompareClient, startCompare } from "./compareFixture.ts"
import { marketFixtureData, sid } from "./fixtureFunds.ts"

const AS_OF = "2026-02-10"
const GRACE_WEEKDAYS = 10

/** Monday-to-Friday days after `from` up to and including `to` (ISO dates), counted one by one. */
const weekdaysBetween = (from: string, to: string): number => {
  let n = 0
  for (let d = new Date(`${from}T00:00:00Z`); d < new Date(`${to}T00:00:00Z`); ) {
    d = new Date(d.getTime() + 86_400_000)
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) n++
  }
  return n
}

/** The fixture's series alive on `date`, with their last quote on or before it: id → quote. */
const aliveOn = (date: string) => {
  const alive = new Map<string, { price: number; date: string }>()
  for (const fund of marketFixtureData().funds) {
    if (fund.endDate !== null && fund.endDate <= date) continue
    for (const s of fund.series) {
      const last = s.quotas.filter((q) => q.date <= date).at(-1)
      if (last === undefined || weekdaysBetween(last.date, date) > GRACE_WEEKDAYS) continue
      alive.set(String(s.assetId), { price: last.price, date: last.date })
    }
  }
  return alive
}

let c: CompareClient
beforeAll(async () => {
  c = await startCompare()
})
afterAll(async () => {
  await c?.close()
})

const ok = async (path: string): Promise<Json> => {
  const r = await c.call(path)
  expect(r.status, r.text).toBe(200)
  return r.body
}
const serieIds = (body: Json): string[] => body.data.map((row: Json) => row.serieId).sort()

describe("/api/all-funds", () => {
  it("as_of lists the series alive on the date, an ended fund included, at its value as of then", async () => {
    const expected = aliveOn(AS_OF)
    const ended = String(sid("8300:A"))
    expect(expected.has(ended)).toBe(true) // the fixture's premise: 8300 ended 2026-02-20, after AS_OF
    expect(expected.has(String(sid("8106:B")))).toBe(false) // began after AS_OF

    const body = await ok(`/api/all-funds?date=${AS_OF}&universe=as_of`)
    expect(body.meta.universe).toBe("as_of")
    expect(serieIds(body)).toEqual([...expected.keys()].sort())
    expect(serieIds(body)).not.toContain(String(sid("8106:B"))) // started after AS_OF
    for (const row of body.data) {
      const quote = expected.get(row.serieId)!
      expect({ id: row.serieId, price: row.price, on: row.price_as_of_date }).toEqual({ id: row.serieId, price: quote.price, on: quote.date })
    }
    expect(body.data.find((r: Json) => r.serieId === ended)).toMatchObject({ run: expect.stringMatching(/^8300-/), price: 300 })
  })

  it("the default leaves the ended fund out at the same date and names no universe (as before)", async () => {
    const plain = await c.call(`/api/all-funds?date=${AS_OF}`)
    expect(serieIds(plain.body)).not.toContain(String(sid("8300:A")))
    expect(serieIds(plain.body)).not.toContain(String(sid("8043:C")))
    expect("universe" in plain.body.meta).toBe(false)
    const latest = await ok("/api/all-funds")
    expect("universe" in latest.meta).toBe(false)
    expect(serieIds(latest)).not.toContain(String(sid("8300:A")))
  })

  it("universe=current gives the default's rows and names its universe", async () => {
    const plain = await ok(`/api/all-funds?date=${AS_OF}`)
    const current = await ok(`/api/all-funds?date=${AS_OF}&universe=current`)
    expect(current.meta.universe).toBe("current_vigente")
    expect(current.data).toEqual(plain.data)
    const { universe: _, ...meta } = current.meta
    expect(meta).toEqual(plain.meta)
  })

  it("as_of without date → 400 naming date; with an FI vehicle → 422 naming universe", async () => {
    const r = await c.call("/api/all-funds?universe=as_of")
    expect(r.status).toBe(400)
    expectErrorShape(r.body, 400, r)
    expect(r.body.parameter).toBe("date")
    const fi = await c.call(`/api/all-funds?universe=as_of&date=${AS_OF}&vehicle=all`)
    expect(fi.status).toBe(422)
    expect(fi.body.parameter).toBe("universe")
    const bad = await c.call(`/api/all-funds?universe=past&date=${AS_OF}`)
    expect(bad.status).toBe(422)
    expect(bad.body.parameter).toBe("universe")
  })
})

describe("/api/market-summary", () => {
  it("as_of is computed over the series alive on the date and says so", async () => {
    const expected = aliveOn(AS_OF)
    const body = await ok(`/api/market-summary?date=${AS_OF}&universe=as_of`)
    expect(body.meta).toMatchObject({ date: "2026-02-04", universe: "as_of", backtest: true, survivorshipBias: null })
    expect(body.meta.methodology.universe).toContain("alive on the requested date")
    const { classifiedSeries, unclassifiedSeries } = body.meta.classification
    expect(classifiedSeries + unclassifiedSeries).toBe(expected.size)
  })

  it("the default at the same date is a backtest over today's funds, fewer series", async () => {
    const body = await ok(`/api/market-summary?date=${AS_OF}`)
    expect(body.meta).toMatchObject({ universe: "current_vigente", backtest: true, survivorshipBias: expect.any(String) })
    const { classifiedSeries, unclassifiedSeries } = body.meta.classification
    // today's series with a quote by AS_OF: the alive ones but the ended 8300-A and the absorbed 8043-C
    expect(classifiedSeries + unclassifiedSeries).toBe(aliveOn(AS_OF).size - 2)
    const explicit = await c.call(`/api/market-summary?date=${AS_OF}&universe=current`)
    expect(explicit.text).toBe((await c.call(`/api/market-summary?date=${AS_OF}`)).text)
  })

  it("as_of without date → 400 naming date", async () => {
    const r = await c.call("/api/market-summary?universe=as_of")
    expect(r.status).toBe(400)
    expectErrorShape(r.body, 400, r)
    expect(r.body.parameter).toBe("date")
  })
})

describe("/api/screener", () => {
  const rowIds = (body: Json): string[] => body.data.map((d: Json) => d.id).sort()

  it("as_of with a date: the series alive then, the ended fund at its price as of then", async () => {
    const expected = aliveOn(AS_OF)
    const body = await ok(`/api/screener?date=${AS_OF}&universe=as_of&limit=200`)
    expect(body.meta).toMatchObject({ universe: "as_of", as_of_date: AS_OF, total: expected.size })
    expect(rowIds(body)).toEqual([...expected.keys()].sort())
    for (const item of body.data) {
      const quote = expected.get(item.id)!
      expect([item.id, item.attributes.price, item.attributes.price_as_of_date]).toEqual([item.id, quote.price, quote.date])
      expect(item.attributes.returns.requested_as_of_date).toBe(AS_OF)
    }
  })

  it("a date without universe is today's funds then: the ended fund and the absorbed series are left out", async () => {
    const body = await ok(`/api/screener?date=${AS_OF}&limit=200`)
    expect("universe" in body.meta).toBe(false)
    expect(rowIds(body)).not.toContain(String(sid("8300:A")))
    expect(rowIds(body)).not.toContain(String(sid("8043:C")))
    expect(rowIds(body)).toContain(String(sid("8106:B"))) // today's: listed, its price unavailable before its first quote
    expect(body.data.find((d: Json) => d.id === String(sid("8106:B"))).attributes.price).toBeNull()
  })

  it("the default names no universe; universe=current names it with the same rows", async () => {
    const plain = await ok("/api/screener?limit=200")
    expect("universe" in plain.meta).toBe(false)
    expect(rowIds(plain)).not.toContain(String(sid("8300:A")))
    const current = await ok("/api/screener?limit=200&universe=current")
    expect(current.meta.universe).toBe("current_vigente")
    expect(current.data).toEqual(plain.data)
  })

  it("as_of without date → 400 naming date", async () => {
    const r = await c.call("/api/screener?universe=as_of")
    expect(r.status).toBe(400)
    expectErrorShape(r.body, 400, r)
    expect(r.body.parameter).toBe("date")
  })
})
