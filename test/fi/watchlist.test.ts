/** The watchlist accepts a published FI/ETF serie UUID (stored in lower case), not an instrument UUID nor an unknown one. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AccountsServer, call, startAccountsServer } from "../accounts/support/accountsServer.ts"
import { signIn } from "../accounts/support/session.ts"
import { makeFiFixture } from "./fiFixture.ts"
import { testInstrumentId, testSerieId, testUuidV5 } from "./fiIds.ts"

describe("watchlist with FI/ETF series", () => {
  const fx = makeFiFixture()
  let server: AccountsServer
  let cookie: string
  const as = (method: string, path: string, json?: unknown) =>
    call(server.url + path, { method, headers: { cookie: `fds_session=${cookie}` }, ...(json === undefined ? {} : { json }) })

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir })
    cookie = await signIn(server.url, fx.dataDir, "fi-watch@example.cl")
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("a published serie UUID is added in lower case and removed in any case", async () => {
    const serie = testSerieId(7003, "UNICA")
    const added = await as("POST", "/api/me/watchlist", { serie_id: serie.toUpperCase() })
    expect(added.status).toBe(200)
    expect((added.body as { data: Array<{ serie_id: string }> }).data.map((d) => d.serie_id)).toEqual([serie])
    expect((await as("DELETE", `/api/me/watchlist/${serie.toUpperCase()}`)).status).toBe(204)
    expect((await as("GET", "/api/me/watchlist")).body).toEqual({ data: [] })
  })

  it("an instrument UUID or an unknown UUID → 422 serie_id", async () => {
    for (const serie_id of [testInstrumentId(9251), testUuidV5("fi:1234:A")]) {
      const res = await as("POST", "/api/me/watchlist", { serie_id })
      expect(res.status, serie_id).toBe(422)
      expect((res.body as { parameter: string }).parameter).toBe("serie_id")
    }
  })
})
