/**
 * Signing in by magic link and the session cookie, over real HTTP against the in-process server,
 * mail in data/outbox/: the cookie's attributes, single-use tokens, the Origin rule (403), the
 * return_url rule (422), logout, and the session stored only as a hash.
 */
import Database from "better-sqlite3"
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, startAccountsServer } from "./support/accountsServer.ts"
import { linkIn, outbox } from "./support/mail.ts"
import { setCookie, signIn } from "./support/session.ts"

describe("sign-in by magic link (http public URL)", () => {
  const fx = makeFixtureA()
  let server: AccountsServer
  const me = (cookie: string, headers: Record<string, string> = {}) =>
    call(`${server.url}/api/me`, { headers: { cookie: `fds_session=${cookie}`, ...headers } })
  const magicLink = (body: unknown, headers: Record<string, string> = {}) =>
    call(`${server.url}/api/auth/magic-link`, { method: "POST", json: body, headers: { origin: server.url, ...headers } })
  const callback = (body: unknown, headers: Record<string, string> = {}) =>
    call(`${server.url}/api/auth/callback`, { method: "POST", json: body, headers: { origin: server.url, ...headers } })

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("the mailed link leads to return_url with a token; the callback sets an HttpOnly, SameSite=Lax session cookie", async () => {
    const asked = await magicLink({ email: "Maria@Example.cl", return_url: `${server.url}/account?tab=watchlist` })
    expect(asked.status).toBe(202)
    expect(asked.body).toEqual({ status: "sent" })
    const link = new URL(linkIn(outbox(fx.dataDir).at(-1)!, `${server.url}/account?`))
    expect(link.searchParams.get("tab")).toBe("watchlist")
    const token = link.searchParams.get("token")!
    const done = await callback({ token }, {})
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ email: "maria@example.cl", email_opt_in_alerts: false, email_opt_in_monthly_summary: false })
    const cookie = setCookie(done, "fds_session")!
    // 30 days in seconds, as the session lives in the store (Max-Age is in seconds: 30 × 86,400)
    expect(cookie.attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/", `Max-Age=${30 * 86_400}`]))
    expect(cookie.attributes).not.toContain("Secure") // the public URL is http here
    expect((await me(cookie.value)).body).toMatchObject({ email: "maria@example.cl" })

    const reused = await callback({ token }, {})
    expect(reused.status).toBe(422)
    expectErrorShape(reused.body, 422)
    expect(setCookie(reused, "fds_session")).toBeUndefined()
  })

  it("the callback takes exactly one of code and token, and refuses unknown ones", async () => {
    for (const body of [{}, { code: null, token: null }, { code: "a", token: "b" }, { token: "made-up" }, { code: "made-up" }]) {
      const res = await callback(body, {})
      expect(res.status, JSON.stringify(body)).toBe(422)
      expectErrorShape(res.body, 422)
    }
  })

  it("return_url must be on the public origin (no open redirect): 422", async () => {
    for (const bad of ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]) {
      const res = await magicLink({ email: "x@example.cl", return_url: bad })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({ error: "invalid_parameter", parameter: "return_url" })
      const google = await call(`${server.url}/api/auth/google?return_url=${encodeURIComponent(bad)}`)
      expect(google.status).toBe(422)
      expect(google.body).toMatchObject({ parameter: "return_url" })
    }
    expect((await magicLink({ email: "not-an-address", return_url: `${server.url}/` })).status).toBe(422)
  })

  it("without OIDC settings, social login answers 503 (login_unavailable)", async () => {
    const res = await call(`${server.url}/api/auth/google?return_url=${encodeURIComponent(`${server.url}/account`)}`)
    expect(res.status).toBe(503)
    expect(res.body).toMatchObject({ error: "login_unavailable" })
  })

  it("an untrusted Origin gets 403 on account routes, signed in or not; no Origin (not a browser) passes", async () => {
    const cookie = await signIn(server.url, fx.dataDir, "origin@example.cl")
    for (const origin of ["https://evil.example", "null", server.url.replace("127.0.0.1", "localhost")]) {
      const res = await me(cookie, { origin })
      expect(res.status).toBe(403)
      expectErrorShape(res.body, 403)
      expect((res.body as { error: string }).error).toBe("untrusted_origin")
      expect((await magicLink({ email: "o@example.cl", return_url: `${server.url}/` }, { origin })).status).toBe(403)
      expect((await callback({ token: "x" }, { origin })).status).toBe(403)
    }
    expect((await me(cookie)).status).toBe(200)
    expect((await me(cookie, { origin: server.url })).status).toBe(200)
  })

  it("no session or an unknown one: 401", async () => {
    for (const res of [await call(`${server.url}/api/me`), await me("made-up"), await call(`${server.url}/api/me/watchlist`)]) {
      expect(res.status).toBe(401)
      expectErrorShape(res.body, 401)
    }
  })

  it("logout ends the session and expires the cookie", async () => {
    const cookie = await signIn(server.url, fx.dataDir, "bye@example.cl")
    const out = await call(`${server.url}/api/auth/logout`, { method: "POST", headers: { cookie: `fds_session=${cookie}` } })
    expect(out.status).toBe(204)
    expect(setCookie(out, "fds_session")?.attributes).toContain("Max-Age=0")
    expect((await me(cookie)).status).toBe(401)
  })

  it("the store keeps only the session's SHA-256, never the cookie", async () => {
    const cookie = await signIn(server.url, fx.dataDir, "hash@example.cl")
    const base = join(fx.dataDir, "accounts.sqlite")
    const bytes = Buffer.concat([base, `${base}-wal`].filter(existsSync).map((p) => readFileSync(p)))
    expect(bytes.includes(cookie)).toBe(false)
    const db = new Database(base, { readonly: true })
    try {
      const sha = createHash("sha256").update(cookie).digest("hex")
      expect(db.prepare("SELECT count(*) AS n FROM sessions WHERE token_hash = ?").get(sha)).toEqual({ n: 1 })
    } finally {
      db.close()
    }
  })
})

describe("sign-in with an https public URL", () => {
  const fx = makeFixtureA()
  const PUBLIC = "https://fds.example.cl"
  let server: AccountsServer

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir, env: { FDS_PUBLIC_URL: PUBLIC } })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("links use FDS_PUBLIC_URL, its origin is the trusted one, and the cookie is Secure", async () => {
    const asked = await call(`${server.url}/api/auth/magic-link`, {
      method: "POST",
      json: { email: "tls@example.cl", return_url: "/account" },
      headers: { origin: PUBLIC },
    })
    expect(asked.status).toBe(202)
    const token = new URL(linkIn(outbox(fx.dataDir).at(-1)!, `${PUBLIC}/account?token=`)).searchParams.get("token")!
    const fromLocal = await call(`${server.url}/api/auth/callback`, { method: "POST", json: { token }, headers: { origin: server.url } })
    expect(fromLocal.status).toBe(403)
    const done = await call(`${server.url}/api/auth/callback`, { method: "POST", json: { token }, headers: { origin: PUBLIC } })
    expect(done.status).toBe(200)
    expect(setCookie(done, "fds_session")?.attributes).toEqual(expect.arrayContaining(["Secure", "HttpOnly", "SameSite=Lax"]))
  })
})
