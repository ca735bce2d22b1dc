/**
 * The /api/webhooks routes on the real server (in-process, SQLite accounts store), with keys made
 * by the real KeyStore: the key is required; the secret is in the create answer only; a key sees,
 * tests and deletes its own endpoints only (another key's id is a 404, as an unknown one); the
 * test event reaches a real receiver that verifies it with the `standardwebhooks` library; URLs
 * and event types are checked (422 naming the field), loopback refused unless
 * FDS_WEBHOOKS_ALLOW_PRIVATE=1, by address and by name; the endpoints per key are bounded.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openAccountsDb } from "../../accounts/AccountsDb.ts"
import { insertKey } from "../../accounts/KeyStore.ts"
import { NOT_PUBLIC } from "../../accounts/WebhookAddress.ts"
import { type AccountsServer, call, startAccountsServer } from "../accounts/support/accountsServer.ts"
import { expectErrorShape } from "../support/server.ts"
import { type Receiver, startReceiver } from "./support/receiver.ts"

let work: string
let open: AccountsServer
let closed: AccountsServer
let receiver: Receiver
let alice: string
let bob: string

/** An error answer of `status` with `code`, in the one error shape. */
const expectError = (status: number, body: unknown, expected: number, code: string) => {
  expect(status).toBe(expected)
  expectErrorShape(body, expected)
  expect((body as { error: string }).error).toBe(code)
}

const as = (server: AccountsServer, key: string | null, method: string, path: string, json?: unknown) =>
  call(server.url + path, { method, headers: key === null ? {} : { authorization: `Bearer ${key}` }, ...(json === undefined ? {} : { json }) })

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-webhook-routes-"))
  const db = await openAccountsDb(join(work, "data", "accounts.sqlite"))
  alice = (await insertKey(db, { email: "alice@example.cl", tier: "free" }, Date.now())).key
  bob = (await insertKey(db, { email: "bob@example.cl", tier: "free" }, Date.now())).key
  await db.destroy()
  const env = { FDS_SECRET: "s".repeat(40), FDS_WEBHOOKS_MAX_ENDPOINTS: "3", FDS_WEBHOOKS_TIMEOUT_MS: "2000" }
  open = await startAccountsServer({ dataDir: join(work, "data"), env: { ...env, FDS_WEBHOOKS_ALLOW_PRIVATE: "1" } })
  closed = await startAccountsServer({ dataDir: join(work, "data"), env })
  receiver = await startReceiver()
}, 60_000)

afterAll(async () => {
  await open?.close()
  await closed?.close()
  await receiver?.close()
  rmSync(work, { recursive: true, force: true })
})

describe("/api/webhooks", () => {
  it("needs a key", async () => {
    for (const [method, path] of [
      ["GET", "/api/webhooks"],
      ["POST", "/api/webhooks"],
      ["DELETE", "/api/webhooks/whk_0000000000000000"],
      ["POST", "/api/webhooks/whk_0000000000000000/test"],
      ["GET", "/api/webhooks/whk_0000000000000000/deliveries"],
    ] as const) {
      const r = await as(open, null, method, path, method === "POST" ? { url: receiver.url, events: ["batch.published"] } : undefined)
      expect([method, path, r.status]).toEqual([method, path, 401])
    }
  })

  it("create (the secret once), list, test (verified by the receiver), deliveries, delete; another key sees nothing of it", async () => {
    const created = await as(open, alice, "POST", "/api/webhooks", { url: receiver.url, events: ["tac.changed", "batch.published"] })
    expect(created.status).toBe(201)
    expect(created.headers["cache-control"]).toBe("no-store")
    const body = created.body as { id: string; secret: string; events: string[]; url: string }
    expect(body.id).toMatch(/^whk_[0-9a-f]{16}$/)
    expect(body.secret).toMatch(/^whsec_/)
    expect(body.events).toEqual(["batch.published", "tac.changed"])
    receiver.secret = body.secret

    const listed = await as(open, alice, "GET", "/api/webhooks")
    expect(listed.status).toBe(200)
    expect(listed.headers["cache-control"]).toBe("no-store")
    expect(listed.body).toEqual({
      data: [{ id: body.id, url: receiver.url, events: ["batch.published", "tac.changed"], created_at: expect.any(String), disabled_at: null }],
    })
    expect(listed.text).not.toContain(body.secret.slice(6))

    const tested = await as(open, alice, "POST", `/api/webhooks/${body.id}/test`)
    expect(tested.status).toBe(200)
    expect(tested.body).toMatchObject({ type: "webhook.test", state: "delivered", attempts: 1, last_status: 200, last_error: null })
    expect(receiver.delivered()).toHaveLength(1)
    expect(receiver.delivered()[0]!.body).toMatchObject({ type: "webhook.test", data: { endpoint_id: body.id } })
    expect(receiver.delivered()[0]!.id).toBe((tested.body as { event_id: string }).event_id)

    const deliveries = await as(open, alice, "GET", `/api/webhooks/${body.id}/deliveries`)
    expect(deliveries.body).toEqual({ data: [tested.body] })

    // bob: none of it
    expect((await as(open, bob, "GET", "/api/webhooks")).body).toEqual({ data: [] })
    for (const [method, path] of [
      ["DELETE", `/api/webhooks/${body.id}`],
      ["POST", `/api/webhooks/${body.id}/test`],
      ["GET", `/api/webhooks/${body.id}/deliveries`],
    ] as const) {
      const r = await as(open, bob, method, path)
      expectError(r.status, r.body, 404, "not_found")
      // named as the path parameter is (its 422 says webhook_id too)
      expect((r.body as { parameter: string }).parameter).toBe("webhook_id")
      expect(r.text).not.toContain(receiver.url)
    }
    expect(receiver.requests).toHaveLength(1)

    expect((await as(open, alice, "DELETE", `/api/webhooks/${body.id}`)).status).toBe(204)
    expect((await as(open, alice, "GET", "/api/webhooks")).body).toEqual({ data: [] })
    const again = await as(open, alice, "DELETE", `/api/webhooks/${body.id}`)
    expectError(again.status, again.body, 404, "not_found")
  })

  it("checks the URL and the event types (422 naming the field)", async () => {
    const cases: Array<[unknown, string]> = [
      [{ url: "not a url", events: ["batch.published"] }, "url"],
      [{ url: "ftp://example.com/x", events: ["batch.published"] }, "url"],
      [{ url: "https://user:pw@example.com/x", events: ["batch.published"] }, "url"],
      [{ url: receiver.url, events: [] }, "events"],
      [{ url: receiver.url, events: ["batch.exploded"] }, "events"],
      [{ url: "https://does-not-resolve.invalid/hook", events: ["batch.published"] }, "url"],
    ]
    for (const [payload, field] of cases) {
      const r = await as(open, alice, "POST", "/api/webhooks", payload)
      expectError(r.status, r.body, 422, "invalid_parameter")
      expect([JSON.stringify(payload), (r.body as { parameter: string }).parameter]).toEqual([JSON.stringify(payload), field])
    }
  })

  it("refuses loopback and http:// without FDS_WEBHOOKS_ALLOW_PRIVATE, by address and by a name that resolves to it", async () => {
    const port = new URL(receiver.url).port
    for (const url of [`https://127.0.0.1:${port}/hook`, `https://localhost:${port}/hook`, `https://[::1]:${port}/hook`, `https://10.0.0.1/hook`, receiver.url]) {
      const r = await as(closed, alice, "POST", "/api/webhooks", { url, events: ["batch.published"] })
      expectError(r.status, r.body, 422, "invalid_parameter")
      expect([url, (r.body as { parameter: string }).parameter]).toEqual([url, "url"])
    }
  })

  it("a refusal never says what the host resolved to, nor whether it resolved (no oracle for the service's DNS)", async () => {
    const port = new URL(receiver.url).port
    const refusal = `invalid body field url: ${NOT_PUBLIC}`
    for (const url of [`https://localhost:${port}/hook`, `https://localhost/hook`, `https://does-not-resolve.invalid/hook`, `https://127.0.0.1/hook`, `https://[::1]/hook`]) {
      const r = await as(closed, alice, "POST", "/api/webhooks", { url, events: ["batch.published"] })
      expectError(r.status, r.body, 422, "invalid_parameter")
      expect([url, (r.body as { parameter: string; message: string }).parameter, (r.body as { message: string }).message]).toEqual([url, "url", refusal])
    }
    // a name that resolves to loopback: the body names no address
    const byName = await as(closed, alice, "POST", "/api/webhooks", { url: `https://localhost:${port}/hook`, events: ["batch.published"] })
    expect(byName.status).toBe(422)
    expect(byName.text).toContain("not a public address")
    expect(byName.text).not.toContain("127.0.0.1")
    expect(byName.text).not.toContain("::1")
  })

  it("an endpoint that answers 410 Gone is listed as disabled", async () => {
    const created = await as(open, alice, "POST", "/api/webhooks", { url: `${receiver.url}/gone`, events: ["batch.published"] })
    expect(created.status).toBe(201)
    const { id, secret } = created.body as { id: string; secret: string; disabled_at: null }
    expect((created.body as { disabled_at: unknown }).disabled_at).toBeNull()
    receiver.secret = secret
    receiver.behaviour = { answer: 410 }
    try {
      const tested = await as(open, alice, "POST", `/api/webhooks/${id}/test`)
      expect(tested.status).toBe(200)
      expect(tested.body).toMatchObject({ type: "webhook.test", state: "failed", attempts: 1, last_status: 410, next_attempt_at: null })
    } finally {
      receiver.behaviour = {}
    }
    const listed = (await as(open, alice, "GET", "/api/webhooks")).body as { data: Array<{ id: string; disabled_at: string | null }> }
    const gone = listed.data.find((e) => e.id === id)
    expect(gone?.disabled_at).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/))
    expect((await as(open, alice, "DELETE", `/api/webhooks/${id}`)).status).toBe(204)
  })

  it("bounds the endpoints of a key (FDS_WEBHOOKS_MAX_ENDPOINTS)", async () => {
    for (let i = 0; i < 3; i++) expect((await as(open, bob, "POST", "/api/webhooks", { url: `${receiver.url}/${i}`, events: ["source.late"] })).status).toBe(201)
    const fourth = await as(open, bob, "POST", "/api/webhooks", { url: receiver.url, events: ["source.late"] })
    expectError(fourth.status, fourth.body, 422, "invalid_parameter")
    expect(fourth.text).toContain("delete one first")
  })
})
