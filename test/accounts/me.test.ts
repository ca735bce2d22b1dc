/**
 * The signed-in user's routes over real HTTP: watchlist (published series only, ≤ 36 characters),
 * alert preferences (absent or null = unchanged), unsubscribe with signed expiring tokens (JSON and
 * RFC 8058 one-click), and account removal, checked in the database itself.
 */

import { readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signUnsubscribe, type UnsubscribeScope } from "../../accounts/UnsubscribeTokens.ts"
import { createKey, expectErrorShape } from "../support/server.ts"
import { makeFixtureA, testCrc32 } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, startAccountsServer } from "./support/accountsServer.ts"
import { signIn } from "./support/session.ts"

const A = String(testCrc32("fm:8043:A"))
const B = String(testCrc32("fm:8043:B"))

describe("/api/me", () => {
  const fx = makeFixtureA()
  let server: AccountsServer
  let cookie: string
  const as = (method: string, path: string, json?: unknown, who = cookie) =>
    call(server.url + path, { method, headers: { cookie: `fds_session=${who}` }, ...(json === undefined ? {} : { json }) })
  const rows = <T>(query: string, ...params: unknown[]): T[] => {
    const db = new Database(join(fx.dataDir, "accounts.sqlite"), { readonly: true })
    try {
      return db.prepare(query).all(...params) as T[]
    } finally {
      db.close()
    }
  }
  const userId = (email: string) => rows<{ id: number }>("SELECT id FROM users WHERE email = ?", email)[0]!.id
  const secret = () => Redacted.make(new Uint8Array(Buffer.from(readFileSync(join(fx.dataDir, "secret.key"), "utf8").trim(), "hex")))
  const token = (email: string, scope: UnsubscribeScope, expiresAt = Math.floor(Date.now() / 1000) + 3600) =>
    signUnsubscribe(secret(), { userId: userId(email), scope, expiresAt })

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir })
    cookie = await signIn(server.url, fx.dataDir, "me@example.cl")
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("watchlist: add published series (once each, leading zeros ignored), list, remove", async () => {
    expect((await as("GET", "/api/me/watchlist")).body).toEqual({ data: [] })
    expect((await as("POST", "/api/me/watchlist", { serie_id: A })).status).toBe(200)
    await as("POST", "/api/me/watchlist", { serie_id: `000${A}` })
    const listed = await as("POST", "/api/me/watchlist", { serie_id: B })
    expect((listed.body as { data: Array<{ serie_id: string }> }).data.map((d) => d.serie_id).sort()).toEqual([A, B].sort())
    expect((await as("DELETE", `/api/me/watchlist/${A}`)).status).toBe(204)
    expect((await as("DELETE", `/api/me/watchlist/${A}`)).status).toBe(204)
    const left = (await as("GET", "/api/me/watchlist")).body as { data: Array<{ serie_id: string; added_at: string }> }
    expect(left.data.map((d) => d.serie_id)).toEqual([B])
    expect(Number.isNaN(Date.parse(left.data[0]!.added_at))).toBe(false)
  })

  it("watchlist: a series outside the published batch or longer than 36 characters is refused (422)", async () => {
    for (const serie_id of ["12345", "1e3", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "x".repeat(37), ""]) {
      const res = await as("POST", "/api/me/watchlist", { serie_id })
      expect(res.status, serie_id).toBe(422)
      expectErrorShape(res.body, 422)
      expect((res.body as { parameter: string }).parameter).toBe("serie_id")
    }
    expect((await as("DELETE", `/api/me/watchlist/${"x".repeat(37)}`)).status).toBe(422)
    expect((await as("GET", "/api/me/watchlist")).body).toEqual({ data: [{ serie_id: B, added_at: expect.any(String) }] })
  })

  it("without Origin, a change is judged by its Referer (403 from another site or an unreadable one); a GET is not", async () => {
    const change = (headers: Record<string, string>) =>
      call(`${server.url}/api/me/alerts`, { method: "PATCH", json: { email_opt_in_alerts: false }, headers: { cookie: `fds_session=${cookie}`, ...headers } })
    for (const referer of ["https://evil.example/page", "not a url"]) {
      const refused = await change({ referer })
      expect(refused.status, referer).toBe(403)
      expectErrorShape(refused.body, 403)
    }
    expect((await change({ referer: `${server.url}/account` })).status).toBe(200)
    expect((await change({})).status).toBe(200) // neither header: not a browser
    // Origin, when present, decides (a same-site Referer does not rescue a foreign Origin)
    expect((await change({ origin: "https://evil.example", referer: `${server.url}/account` })).status).toBe(403)
    // reading is judged by Origin alone: a page linked from elsewhere (Referer) may open it
    expect((await call(`${server.url}/api/me`, { headers: { cookie: `fds_session=${cookie}`, referer: "https://mail.example/inbox" } })).status).toBe(200)
  })

  it("alert preferences: an absent or null field leaves the flag as it is", async () => {
    expect((await as("PATCH", "/api/me/alerts", { email_opt_in_alerts: true })).body).toEqual({
      email_opt_in_alerts: true,
      email_opt_in_monthly_summary: false,
    })
    expect((await as("PATCH", "/api/me/alerts", {})).body).toEqual({ email_opt_in_alerts: true, email_opt_in_monthly_summary: false })
    expect((await as("PATCH", "/api/me/alerts", { email_opt_in_alerts: null, email_opt_in_monthly_summary: true })).body).toEqual({
      email_opt_in_alerts: true,
      email_opt_in_monthly_summary: true,
    })
    expect((await as("PATCH", "/api/me/alerts", { email_opt_in_alerts: "yes" })).status).toBe(422)
    expect((await as("GET", "/api/me")).body).toMatchObject({ email_opt_in_alerts: true, email_opt_in_monthly_summary: true })
  })

  it("unsubscribe with a signed token, by JSON or RFC 8058 one-click (which needs no trusted Origin)", async () => {
    const off = await call(`${server.url}/api/alerts/unsubscribe`, { method: "POST", json: { token: token("me@example.cl", "alerts") } })
    expect(off.status).toBe(200)
    expect(off.body).toEqual({ email_opt_in_alerts: false, email_opt_in_monthly_summary: true })
    const oneClick = await call(
      `${server.url}/api/alerts/unsubscribe/one-click?token=${encodeURIComponent(token("me@example.cl", "monthly_summary"))}`,
      { method: "POST", form: { "List-Unsubscribe": "One-Click" }, headers: { origin: "https://mail.provider.example" } },
    )
    expect(oneClick.status).toBe(204)
    expect((await as("GET", "/api/me")).body).toMatchObject({ email_opt_in_alerts: false, email_opt_in_monthly_summary: false })
  })

  it("unsubscribe refuses forged, altered and expired tokens (422), and the JSON route keeps the Origin rule", async () => {
    await as("PATCH", "/api/me/alerts", { email_opt_in_alerts: true })
    const good = token("me@example.cl", "all")
    const expired = token("me@example.cl", "all", Math.floor(Date.now() / 1000) - 1)
    const forged = signUnsubscribe(Redacted.make(new Uint8Array(32)), { userId: userId("me@example.cl"), scope: "all", expiresAt: 4e9 })
    for (const t of [expired, forged, `${good}x`, "abc"]) {
      const res = await call(`${server.url}/api/alerts/unsubscribe`, { method: "POST", json: { token: t } })
      expect(res.status).toBe(422)
      expect((res.body as { parameter: string }).parameter).toBe("token")
      expect((await call(`${server.url}/api/alerts/unsubscribe/one-click?token=${encodeURIComponent(t)}`, { method: "POST" })).status).toBe(422)
    }
    const evil = await call(`${server.url}/api/alerts/unsubscribe`, { method: "POST", json: { token: good }, headers: { origin: "https://evil.example" } })
    expect(evil.status).toBe(403)
    expect((await as("GET", "/api/me")).body).toMatchObject({ email_opt_in_alerts: true })
    // the secret was generated once into data/secret.key, readable by its owner only
    expect(statSync(join(fx.dataDir, "secret.key")).mode & 0o077).toBe(0)
  })

  it("DELETE /api/me removes the user's data and revokes the address's free keys, not those the operator issued", async () => {
    const gone = await signIn(server.url, fx.dataDir, "gone@example.cl")
    const { key } = await createKey(fx.dataDir, { email: "Gone@Example.cl" })
    const agreed = await createKey(fx.dataDir, { email: "gone@example.cl", tier: "institutional", dailyQuota: 25000 })
    expect((await call(`${server.url}/api/key/info`, { headers: { "x-api-key": key } })).status).toBe(200)
    await as("POST", "/api/me/watchlist", { serie_id: A }, gone)
    const id = userId("gone@example.cl")
    const removed = await as("DELETE", "/api/me", undefined, gone)
    expect(removed.status).toBe(204)
    expect((await as("GET", "/api/me", undefined, gone)).status).toBe(401)
    expect(rows("SELECT * FROM users WHERE id = ?", id)).toEqual([])
    expect(rows("SELECT * FROM sessions WHERE user_id = ?", id)).toEqual([])
    expect(rows("SELECT * FROM watchlist WHERE user_id = ?", id)).toEqual([])
    expect(rows("SELECT * FROM login_tokens WHERE email = ?", "gone@example.cl")).toEqual([])
    // the free key is revoked and no longer names the address; the institutional one is untouched
    expect(rows("SELECT tier, revoked_at FROM api_keys WHERE lower(email) = ?", "gone@example.cl")).toEqual([{ tier: "institutional", revoked_at: null }])
    expect((await call(`${server.url}/api/key/info`, { headers: { "x-api-key": key } })).status).toBe(401)
    expect((await call(`${server.url}/api/key/info`, { headers: { "x-api-key": agreed.key } })).status).toBe(200)
    // the others are untouched
    expect((await as("GET", "/api/me")).status).toBe(200)
  })
})
