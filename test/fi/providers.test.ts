/** `/api/asset_providers?scope=all` over real HTTP; without `scope` the FM answer is unchanged. */
import { describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"
import { ALFA, BETA, DELTA, DELTA_NAME, EPSILON, GAMMA, GAMMA_NAME } from "./fiData.ts"
import { useFiServer } from "./fiServer.ts"

const api = useFiServer()

describe("/api/asset_providers?scope=all", () => {
  it("lists FM and FI-only administrators by name, with coverage, and the FI fields only for those with FI/ETF", async () => {
    const res = await api.call("/api/asset_providers?scope=all")
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      {
        id: String(ALFA),
        type: "asset_provider",
        attributes: {
          name: "Alfa AGF S.A.",
          coverage: ["FM", "FI"],
          rut: "96639280-0",
          displayName: "Alfa",
          slug: "alfa",
          instrument_count: 1,
          fund_count: 1, // 8043 current; 8106 terminated
        },
      },
      {
        id: String(BETA),
        type: "asset_provider",
        attributes: {
          name: "Beta AGF S.A.",
          coverage: ["FM", "FI"],
          rut: "97004000-5",
          displayName: "Beta",
          slug: "beta",
          instrument_count: 1,
          fund_count: 1,
        },
      },
      {
        id: String(DELTA),
        type: "asset_provider",
        attributes: {
          name: DELTA_NAME,
          coverage: ["FI"],
          rut: null,
          displayName: "Delta Inversiones",
          slug: "delta-inversiones",
          instrument_count: 2, // inactive and unknown count too
          fund_count: 0,
        },
      },
      { id: String(EPSILON.providerId), type: "asset_provider", attributes: { name: "Epsilon AGF S.A.", coverage: ["FM"] } },
      {
        id: String(GAMMA),
        type: "asset_provider",
        attributes: {
          name: GAMMA_NAME,
          coverage: ["ETF", "FI"],
          rut: null,
          displayName: "Gamma Capital",
          slug: "gamma-capital",
          instrument_count: 2,
          fund_count: 0,
        },
      },
    ])
    expect(res.body.meta).toEqual({ batch_id: api.batchId, generated_at: "2026-02-07T03:00:00Z", expires_at: "2026-02-10T03:00:00Z" })
  })

  it("without scope answers exactly as before: FM administrators, only their name, no meta", async () => {
    const res = await api.call("/api/asset_providers")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      data: [
        { id: String(testCrc32("agf:96639280")), type: "asset_provider", attributes: { name: "Alfa AGF S.A." } },
        { id: String(testCrc32("agf:97004000")), type: "asset_provider", attributes: { name: "Beta AGF S.A." } },
        { id: String(EPSILON.providerId), type: "asset_provider", attributes: { name: "Epsilon AGF S.A." } },
      ],
    })
  })

  it("an administrator known only from the FI lists has no mutual funds: its conceptual_assets are 200 and empty", async () => {
    for (const id of [DELTA, GAMMA]) {
      const res = await api.call(`/api/asset_providers/${id}/conceptual_assets`)
      expect(res.status, String(id)).toBe(200)
      expect(res.body).toEqual({ data: [] })
    }
    const unknown = await api.call("/api/asset_providers/12345/conceptual_assets")
    expect(unknown.status).toBe(404)
    expectErrorShape(unknown.body, 404)
  })

  it.each(["ALL", "fm", "", "all,fm"])("answers 422 for scope=%s", async (scope) => {
    const res = await api.call(`/api/asset_providers?scope=${scope}`)
    expect(res.status).toBe(422)
    expectErrorShape(res.body, 422)
    expect(res.body.parameter).toBe("scope")
  })
})
