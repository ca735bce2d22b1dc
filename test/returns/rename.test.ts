/**
 * A renamed series (8043 C → CPRIV from 2026-01-02, history stored under CPRIV): either id gives
 * the continuous history on /returns and /days, the requested id is kept, and /returns reports
 * the label current at the cutoff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectValue, periodOf, returnsBody } from "./bodies.ts"
import { type ReturnsHarness, startReturnsHarness } from "./fixture.ts"
import { ALL_WINDOWS, RENAMED, RENAMED_ALIAS_ID } from "./fixtureData.ts"

interface DaysBody {
  readonly data: ReadonlyArray<{ id: string; type: string; attributes: { date: string; price: number } }>
  readonly meta: { asset_id: string; count: number }
}

describe("renamed series", () => {
  let h: ReturnsHarness
  beforeAll(async () => {
    h = await startReturnsHarness()
  })
  afterAll(async () => {
    await h?.close()
  })
  const current = String(RENAMED.assetId)
  const previous = String(RENAMED_ALIAS_ID)

  it("/returns by the previous id: the continuous history, the requested id, today's label", async () => {
    const b = returnsBody(await h.call(`/api/real_assets/${previous}/returns`))
    expect(b.data.id).toBe(previous)
    expect(b.data.attributes.serie).toBe("CPRIV")
    expectValue(periodOf(b, "1m"), 0.05) // 54.6/52 − 1
    expectValue(periodOf(b, "ytd"), 0.092) // 54.6/50 − 1, base 2025-12-31 quoted under the old label
    expect(b.data.attributes.series_continuity).toEqual({
      type: "rename",
      previousSerie: "C",
      currentSerie: "CPRIV",
      firstCurrentDate: "2026-01-02",
      aliasIds: [current, previous],
    })
  })

  it("both ids give the same answer but for the id", async () => {
    const byPrevious = returnsBody(await h.call(`/api/real_assets/${previous}/returns`))
    const byCurrent = returnsBody(await h.call(`/api/real_assets/${current}/returns`))
    expect(byCurrent.data.id).toBe(current)
    expect({ ...byCurrent.data, id: "" }).toEqual({ ...byPrevious.data, id: "" })
  })

  it("the label is the one current at the cutoff: C until 2026-01-01, CPRIV from 2026-01-02", async () => {
    for (const [cutoff, label] of [["2025-12-31", "C"], ["2026-01-01", "C"], ["2026-01-02", "CPRIV"]] as const) {
      for (const id of [previous, current]) {
        const b = returnsBody(await h.call(`/api/real_assets/${id}/returns?as_of_date=${cutoff}`))
        expect(b.data.attributes.serie, `${id} at ${cutoff}`).toBe(label)
      }
    }
  })

  it("total coverage across the rename is reported per label", async () => {
    const b = returnsBody(await h.call(`/api/real_assets/${previous}/returns?return_basis=total`), "accounting", "total")
    const ytd = periodOf(b, "ytd")
    expectValue(ytd, 0.092) // no event: the same as the price return
    // 2025-12-31 → 2026-01-01 under C (1 day); 2026-01-02 → 2026-03-31 under CPRIV: 29 + 28 + 31 = 88 days
    expect(ytd.factor_coverage).toEqual([
      { run: "8043-8", serie: "C", start_date: "2025-12-31", end_date: "2026-01-01", calendar_days: 1 },
      { run: "8043-8", serie: "CPRIV", start_date: "2026-01-02", end_date: "2026-03-31", calendar_days: 88 },
    ])
  })

  it("/days: either id yields the same continuous sequence, each keeping its own id", async () => {
    const expected = RENAMED.quotas.map(([date, price]) => [date, price])
    for (const id of [previous, current]) {
      const res = await h.call(`/api/real_assets/${id}/days`)
      expect(res.status).toBe(200)
      const body = res.body as DaysBody
      expect(body.data.map((d) => [d.attributes.date, d.attributes.price])).toEqual(expected)
      expect(body.data.map((d) => d.id)).toEqual(RENAMED.quotas.map(([date]) => `${id}_${date}`))
      expect(body.meta).toMatchObject({ asset_id: id, count: RENAMED.quotas.length })
    }
    const from = (await h.call(`/api/real_assets/${previous}/days?from_date=2026-03-27`)).body as DaysBody
    expect(from.data.map((d) => d.id)).toEqual([`${previous}_2026-03-27`, `${previous}_2026-03-31`])
  })

  it("risk, expense ratio and its history answer by the previous id too", async () => {
    const risk = await h.call(`/api/real_assets/${previous}/risk_metrics`)
    expect(risk.status).toBe(200)
    expect(risk.body).toMatchObject({ data: { id: previous, type: "risk_metrics", attributes: { serie: "CPRIV" } } })
    const tac = await h.call(`/api/real_assets/${previous}/expense_ratio`)
    expect(tac.body).toMatchObject({ data: { id: previous, attributes: { expense_ratio: 0.0099, month: "2026-02" } } })
    const history = await h.call(`/api/real_assets/${previous}/expense_ratio/history`)
    expect(history.body).toEqual({
      data: [{ id: `${previous}_20260228`, type: "expense_ratio_month", attributes: { date: "20260228", expense_ratio: 0.0099 } }],
    })
  })

  it("a series without a rename has series_continuity null", async () => {
    const b = returnsBody(await h.call(`/api/real_assets/${ALL_WINDOWS.assetId}/returns`))
    expect(b.data.attributes.series_continuity).toBeNull()
  })
})
