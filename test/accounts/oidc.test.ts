/**
 * Social login against a real OpenID Connect provider (oidc-provider) started here on loopback:
 * /api/auth/google → the provider's login → /api/auth/google/callback → the return URL with a
 * one-time code → POST /api/auth/callback → session. PKCE, state and nonce are checked by
 * openid-client; the test checks what a client sees.
 */
import Database from "better-sqlite3"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, startAccountsServer } from "./support/accountsServer.ts"
import { type OidcProvider, signInAtProvider, startOidcProvider } from "./support/oidcProvider.ts"
import { setCookie } from "./support/session.ts"

describe("social login through an OIDC provider", () => {
  const fx = makeFixtureA()
  let provider: OidcProvider
  let server: AccountsServer
  const login = (who: string) =>
    signInAtProvider(
      `${server.url}/api/auth/google?return_url=${encodeURIComponent(`${server.url}/account?from=google`)}`,
      provider.issuer,
      who,
      `${server.url}/account`,
    )
  const exchange = (code: string) =>
    call(`${server.url}/api/auth/callback`, { method: "POST", json: { code }, headers: { origin: server.url } })

  beforeAll(async () => {
    provider = await startOidcProvider()
    server = await startAccountsServer({
      dataDir: fx.dataDir,
      env: { FDS_OIDC_ISSUER: provider.issuer, FDS_OIDC_CLIENT_ID: "fds-test", FDS_OIDC_CLIENT_SECRET: "s3cret-for-tests" },
    })
    provider.start({ clientId: "fds-test", clientSecret: "s3cret-for-tests", redirectUri: `${server.url}/api/auth/google/callback` })
  })
  afterAll(async () => {
    await server?.close()
    await provider?.close()
    fx.cleanup()
  })

  it("/api/auth/google redirects to the issuer with PKCE (S256), state and nonce", async () => {
    const res = await call(`${server.url}/api/auth/google?return_url=${encodeURIComponent(`${server.url}/account`)}`)
    expect(res.status).toBe(302)
    const to = new URL(String(res.headers.location))
    expect(to.origin).toBe(provider.issuer)
    expect(to.searchParams.get("client_id")).toBe("fds-test")
    expect(to.searchParams.get("redirect_uri")).toBe(`${server.url}/api/auth/google/callback`)
    expect(to.searchParams.get("code_challenge_method")).toBe("S256")
    for (const p of ["state", "nonce", "code_challenge"]) expect(to.searchParams.get(p)?.length).toBeGreaterThan(20)
    expect(to.searchParams.get("scope")).toBe("openid email")
  })

  it("signs in: the return URL gets a one-time code; the callback turns it into a session", async () => {
    const back = await login("ana")
    const url = new URL(back.url)
    expect(url.pathname).toBe("/account")
    expect(url.searchParams.get("from")).toBe("google")
    const code = url.searchParams.get("code")!
    const done = await exchange(code)
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ email: "ana@example.cl" })
    const cookie = setCookie(done, "fds_session")!.value
    const me = await call(`${server.url}/api/me`, { headers: { cookie: `fds_session=${cookie}` } })
    expect(me.body).toMatchObject({ email: "ana@example.cl" })

    const again = await exchange(code)
    expect(again.status).toBe(422)
    expectErrorShape(again.body, 422)

    const db = new Database(join(fx.dataDir, "accounts.sqlite"), { readonly: true })
    try {
      expect(db.prepare("SELECT oidc_subject FROM users WHERE email = ?").get("ana@example.cl")).toEqual({
        oidc_subject: `${provider.issuer} ana`,
      })
    } finally {
      db.close()
    }
  })

  it("an account whose e-mail the issuer does not vouch for is refused at the callback (422)", async () => {
    const back = await login("unverified-bob")
    expect(back.url).toMatch(`${server.url}/api/auth/google/callback`)
    expect(back.status).toBe(422)
    expectErrorShape(JSON.parse(back.body), 422)
  })

  it("a callback with a state this server never issued, or without a code, is refused (422)", async () => {
    const forged = await call(`${server.url}/api/auth/google/callback?code=abc&state=never-issued`)
    expect(forged.status).toBe(422)
    expectErrorShape(forged.body, 422)
    expect((await call(`${server.url}/api/auth/google/callback?state=x`)).status).toBe(422)
  })
})

describe("social login with the issuer out of reach", () => {
  const fx = makeFixtureA()
  let server: AccountsServer

  beforeAll(async () => {
    server = await startAccountsServer({
      dataDir: fx.dataDir,
      env: { FDS_OIDC_ISSUER: "http://127.0.0.1:1", FDS_OIDC_CLIENT_ID: "x", FDS_OIDC_CLIENT_SECRET: "y" },
    })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("answers 503 login_unavailable with Retry-After, and the rest of the API still serves", async () => {
    const res = await call(`${server.url}/api/auth/google?return_url=${encodeURIComponent(`${server.url}/`)}`)
    expect(res.status).toBe(503)
    expect(res.body).toMatchObject({ error: "login_unavailable" })
    expect(res.headers["retry-after"]).toBe("30")
    expect((await call(`${server.url}/health`)).status).toBe(200)
  })
})
