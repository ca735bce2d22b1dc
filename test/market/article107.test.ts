/** /api/funds/{run}/article107 against the fixture's declarations (8043 eligible except series APV, 9105 not eligible). */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"
import { type MarketClient, startMarket } from "./client.ts"
import { APV_SENTENCE, ELIGIBLE_SENTENCE, FI_INSTRUMENT_ID, NOT_ELIGIBLE_SENTENCE } from "./fixtureExtras.ts"

let c: MarketClient
beforeAll(async () => {
  c = await startMarket()
})
afterAll(async () => {
  await c?.close()
})

describe("/api/funds/{run}/article107", () => {
  it("eligible with a series exception: evidence with the sentences, seriesException true and the excepted label", async () => {
    const res = await c.call("/api/funds/8043-8/article107")
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      run: "8043-8",
      fundId: String(testCrc32("fm:8043")),
      article107RegulationStatus: "declares_eligible",
      regulationDate: "2025-11-30",
      review: { status: null, reviewedAt: null, reviewedBy: null, note: null },
      disclaimer: expect.stringContaining("article 107"),
    })
    expect(res.body.evidence).toEqual({
      text: ELIGIBLE_SENTENCE,
      page: null,
      offset: null,
      line: 12,
      section: null,
      seriesException: true,
      exceptedSeries: ["APV"],
      sentences: [
        { line: 12, text: ELIGIBLE_SENTENCE },
        { line: 15, text: APV_SENTENCE },
      ],
      ruleId: "positive_with_series_exceptions",
      parserVersion: expect.any(String),
      classifierVersion: expect.any(String),
    })
  })

  it("not eligible, no exception: seriesException is present and false", async () => {
    const res = await c.call("/api/funds/9105/article107")
    expect(res.body.article107RegulationStatus).toBe("declares_not_eligible")
    expect(res.body.evidence).toMatchObject({ text: NOT_ELIGIBLE_SENTENCE, line: 8, seriesException: false, exceptedSeries: [], ruleId: "negative_only" })
  })

  it("a fund without a regulation in the batch: unknown, evidence null", async () => {
    const res = await c.call("/api/funds/8106-K/article107")
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ run: "8106-K", article107RegulationStatus: "unknown", sourceFreshness: "unknown", evidence: null })
  })

  it("an FI RUN or an unknown RUN → 404", async () => {
    const fi = await c.call("/api/funds/9500/article107")
    expect(fi.status).toBe(404)
    expectErrorShape(fi.body, 404)
    expect(fi.body.message).toContain(FI_INSTRUMENT_ID)
    expect((await c.call("/api/funds/77/article107")).status).toBe(404)
  })
})
