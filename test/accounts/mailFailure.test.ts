/** When mail cannot be handed over (SMTP down), the mailing routes say so (503) instead of pretending. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorShape } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, headerOf, startAccountsServer } from "./support/accountsServer.ts"
import { outbox } from "./support/mail.ts"

describe("SMTP server down", () => {
  const fx = makeFixtureA()
  let server: AccountsServer

  beforeAll(async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    server = await startAccountsServer({ dataDir: fx.dataDir, env: { FDS_SMTP_URL: "smtp://127.0.0.1:1" } })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("/register answers 503 with Retry-After, and nothing lands in the outbox instead", async () => {
    const res = await call(`${server.url}/register`, { method: "POST", form: { email: "down@example.cl" } })
    expect(res.status).toBe(503)
    expect(headerOf(res, "retry-after")).toBe("60")
    expect(res.text).toMatch(/Try again later/)
    expect(outbox(fx.dataDir)).toEqual([])
  })

  it("a magic link answers 503 mail_unavailable", async () => {
    const res = await call(`${server.url}/api/auth/magic-link`, {
      method: "POST",
      json: { email: "down@example.cl", return_url: `${server.url}/account` },
    })
    expect(res.status).toBe(503)
    expectErrorShape(res.body, 503)
    expect(res.body).toMatchObject({ error: "mail_unavailable" })
  })
})
