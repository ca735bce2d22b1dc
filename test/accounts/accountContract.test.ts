/** The account routes and models in /openapi.json, as the spec and the peer contract name them. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, startAccountsServer } from "./support/accountsServer.ts"

interface Doc {
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, { headers?: Record<string, { required?: boolean }> }> }>>
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>>; required?: string[] }> }
}

describe("account contract in OpenAPI", () => {
  const fx = makeFixtureA()
  let server: AccountsServer
  let doc: Doc

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir })
    doc = (await call(`${server.url}/openapi.json`)).body as Doc
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("publishes the five request models with the peer's field names", () => {
    const s = doc.components.schemas
    expect(Object.keys(s.MagicLinkRequest!.properties).sort()).toEqual(["email", "return_url"])
    expect(s.MagicLinkRequest!.required?.sort()).toEqual(["email", "return_url"])
    expect(Object.keys(s.LoginCallbackRequest!.properties).sort()).toEqual(["code", "token"])
    expect(s.LoginCallbackRequest!.required ?? []).toEqual([])
    expect(Object.keys(s.UnsubscribeRequest!.properties)).toEqual(["token"])
    expect(s.WatchlistRequest!.properties.serie_id).toMatchObject({ type: "string", maxLength: 36 })
    const alerts = s.AlertPreferenceRequest!
    expect(Object.keys(alerts.properties).sort()).toEqual(["email_opt_in_alerts", "email_opt_in_monthly_summary"])
    expect(alerts.required ?? []).toEqual([])
    expect(alerts.properties.email_opt_in_alerts).toMatchObject({ anyOf: [{ type: "boolean" }, { type: "null" }] })
  })

  it("lists the 13 account operations of the spec, none with the API key, each with its 403", () => {
    const expected: Array<[string, string]> = [
      ["post", "/api/auth/magic-link"],
      ["get", "/api/auth/google"],
      ["get", "/api/auth/google/callback"],
      ["post", "/api/auth/callback"],
      ["post", "/api/auth/logout"],
      ["get", "/api/me"],
      ["delete", "/api/me"],
      ["get", "/api/me/watchlist"],
      ["post", "/api/me/watchlist"],
      ["delete", "/api/me/watchlist/{serie_id}"],
      ["patch", "/api/me/alerts"],
      ["post", "/api/alerts/unsubscribe"],
      ["post", "/api/alerts/unsubscribe/one-click"],
    ]
    for (const [method, path] of expected) {
      const op = doc.paths[path]?.[method]
      expect(op, `${method} ${path}`).toBeDefined()
      expect(op!.security ?? []).toEqual([])
      if (path !== "/api/alerts/unsubscribe/one-click") expect(Object.keys(op!.responses)).toContain("403")
    }
  })

  it("the 429 of data routes documents the quota headers as present only on the quota 429", () => {
    const r429 = doc.paths["/api/asset_providers"]!.get!.responses["429"]!
    const quotaHeaders = Object.entries(r429.headers ?? {}).filter(([n]) => n.toLowerCase().startsWith("x-ratelimit-"))
    expect(quotaHeaders.length).toBe(3)
    for (const [, h] of quotaHeaders) expect(h.required).toBe(false)
    expect(r429.headers?.["Retry-After"]?.required).toBe(true)
  })
})
