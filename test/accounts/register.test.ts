/**
 * The /register flow over plain HTTP, mail written to data/outbox/ (no FDS_SMTP_URL): the form, the
 * Origin check, the verification link that shows a free key once, rotation by registering again,
 * link expiry (server clock set by the test), and the per-e-mail and per-client mail limits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, headerOf, ManualClock, openRegistrationLink, startAccountsServer } from "./support/accountsServer.ts"
import { linkIn, outbox } from "./support/mail.ts"

const KEY = /fds_[0-9A-Za-z]{8}_[0-9A-Za-z]{49}/

describe("/register with mail in data/outbox/", () => {
  const fx = makeFixtureA()
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 15, 0, 0))
  let server: AccountsServer
  const register = (email: string, headers: Record<string, string> = {}) =>
    call(`${server.url}/register`, { method: "POST", form: { email }, headers: { origin: server.url, ...headers } })
  /** Registers, and returns the verification link of the mail it caused. */
  const linkFor = async (email: string, headers: Record<string, string> = {}): Promise<string> => {
    const before = outbox(fx.dataDir).length
    const res = await register(email, headers)
    expect(res.status).toBe(200)
    const mails = outbox(fx.dataDir)
    expect(mails.length).toBe(before + 1)
    expect(mails.at(-1)).toMatch(new RegExp(`^To: ${email.toLowerCase()}`, "mi"))
    return linkIn(mails.at(-1)!, `${server.url}/register/verify?token=`)
  }
  const keyFrom = async (link: string): Promise<string> => {
    const page = await openRegistrationLink(link)
    expect(page.status).toBe(200)
    return KEY.exec(page.text)![0]
  }
  const info = (key: string) => call(`${server.url}/api/key/info`, { headers: { "x-api-key": key } })

  beforeAll(async () => {
    server = await startAccountsServer({
      dataDir: fx.dataDir,
      clock,
      trustedProxies: ["127.0.0.1"],
      env: { FDS_MAIL_PER_EMAIL_PER_HOUR: "5", FDS_MAIL_PER_IP_PER_HOUR: "3" },
    })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("GET /register is a small page with a labelled e-mail field, no script allowed", async () => {
    const page = await call(`${server.url}/register`)
    expect(page.status).toBe(200)
    expect(headerOf(page, "content-type")).toMatch(/^text\/html/)
    expect(headerOf(page, "content-security-policy")).toMatch(/default-src 'none'/)
    expect(page.text).toMatch(/<html lang="en">/)
    expect(page.text).toMatch(/<label for="email">/)
    expect(page.text).toMatch(/<input id="email" name="email" type="email" required/)
    expect(page.text).toMatch(/<form method="post" action="register">/)
    expect(page.text).not.toMatch(/<script/)
  })

  it("a POST from another origin is refused (403) and sends nothing", async () => {
    const before = outbox(fx.dataDir).length
    for (const origin of ["https://evil.example", "null"]) {
      const res = await register("victim@example.cl", { origin, "x-forwarded-for": "203.0.113.50" })
      expect(res.status).toBe(403)
    }
    // a browser that leaves Origin out: its Referer decides
    const noOrigin = await call(`${server.url}/register`, {
      method: "POST",
      form: { email: "victim@example.cl" },
      headers: { referer: "https://evil.example/form", "x-forwarded-for": "203.0.113.50" },
    })
    expect(noOrigin.status).toBe(403)
    expect(outbox(fx.dataDir).length).toBe(before)
  })

  it("an invalid address shows the form again with the error (422)", async () => {
    const res = await register("not-an-address", { "x-forwarded-for": "203.0.113.51" })
    expect(res.status).toBe(422)
    expect(res.text).toMatch(/role="alert"/)
    expect(res.text).toMatch(/aria-invalid="true"/)
    expect(res.text).toContain('value="not-an-address"')
    // characters mail software drops would make another address of the same mailbox
    for (const email of ["ana@example.cl\u0000", "ana@example.cl\u200b", "ana@example.cl.", "ana@example..cl"]) {
      expect((await register(email, { "x-forwarded-for": "203.0.113.52" })).status, JSON.stringify(email)).toBe(422)
    }
  })

  it("the link shows a new free key once; opening it again shows no key", async () => {
    const link = await linkFor("Ana@Example.cl", { "x-forwarded-for": "203.0.113.1" })
    const page = await openRegistrationLink(link)
    expect(page.status).toBe(200)
    expect(headerOf(page, "cache-control")).toBe("no-store")
    expect(headerOf(page, "referrer-policy")).toBe("same-origin")
    const key = KEY.exec(page.text)![0]
    expect((await info(key)).body).toMatchObject({ tier: "free", daily_quota: 300, name: "ana@example.cl" })
    const again = await openRegistrationLink(link)
    expect(again.status).toBe(410)
    expect(again.text).not.toMatch(KEY)
    // the mail carries the link, never a key
    for (const mail of outbox(fx.dataDir)) expect(mail).not.toMatch(KEY)
  })

  it("opening the link (as a mail scanner does: HEAD, GET) issues nothing; its button's POST shows the key", async () => {
    const link = await linkFor("scanned@example.cl", { "x-forwarded-for": "203.0.113.9" })
    const head = await call(link, { method: "HEAD" })
    expect(head.status).toBe(405)
    expect(headerOf(head, "allow")).toBe("GET, POST, OPTIONS")
    for (let i = 0; i < 2; i++) {
      const page = await call(link)
      expect(page.status).toBe(200)
      expect(page.text).not.toMatch(KEY)
      expect(page.text).toMatch(/<form method="post" action="verify">/)
    }
    // the button's POST from another site is refused, and uses nothing up either
    const token = new URL(link).searchParams.get("token")!
    const foreign = await call(`${server.url}/register/verify`, { method: "POST", form: { token }, headers: { origin: "https://evil.example" } })
    expect(foreign.status).toBe(403)
    const key = await keyFrom(link)
    expect((await info(key)).body).toMatchObject({ tier: "free", name: "scanned@example.cl" })
  })

  it("registering again with the same address issues a new key and revokes the previous one", async () => {
    const first = await keyFrom(await linkFor("rot@example.cl", { "x-forwarded-for": "203.0.113.2" }))
    const institutional = await createKey(fx.dataDir, { email: "rot@example.cl", tier: "institutional" })
    expect((await info(first)).status).toBe(200)
    for (let i = 0; i < 3; i++) expect((await call(`${server.url}/api/asset_providers`, { headers: { "x-api-key": first } })).status).toBe(200)
    const link = await linkFor("ROT@example.cl", { "x-forwarded-for": "203.0.113.2" })
    // asking is not enough: the old key works until the new link is opened
    expect((await info(first)).status).toBe(200)
    const second = await keyFrom(link)
    expect(second).not.toBe(first)
    expect((await info(first)).status).toBe(401)
    expect((await call(`${server.url}/api/asset_providers`, { headers: { "x-api-key": first } })).status).toBe(401)
    // today's 3 requests stay counted on the new key (a new key is not a new quota); the institutional key's are its own
    expect((await info(second)).body).toMatchObject({ requests_today: 3, daily_quota: 300 })
    // keys the operator issued to the address (other tiers) are not touched
    expect((await info(institutional.key)).status).toBe(200)
  })

  it("using one link of an address ends its other links: the older answers as a used link does, the new key stays", async () => {
    const older = await linkFor("twice@example.cl", { "x-forwarded-for": "203.0.113.4" })
    const newer = await linkFor("twice@example.cl", { "x-forwarded-for": "203.0.113.4" })
    const key = await keyFrom(newer)
    const late = await openRegistrationLink(older)
    const used = await openRegistrationLink(newer)
    expect(late.status).toBe(410)
    expect(late.text).not.toMatch(KEY)
    expect(late.text).toBe(used.text)
    expect((await info(key)).body).toMatchObject({ tier: "free", name: "twice@example.cl" })
    // and the other way round: the older link used first ends the newer one
    const first = await linkFor("twice2@example.cl", { "x-forwarded-for": "203.0.113.5" })
    const second = await linkFor("twice2@example.cl", { "x-forwarded-for": "203.0.113.5" })
    const key2 = await keyFrom(first)
    expect((await openRegistrationLink(second)).status).toBe(410)
    expect((await info(key2)).status).toBe(200)
  })

  it("a link expires after 24 hours", async () => {
    const link = await linkFor("late@example.cl", { "x-forwarded-for": "203.0.113.3" })
    clock.nowMs += 24 * 3600_000
    expect((await openRegistrationLink(link)).status).toBe(410)
    clock.nowMs -= 24 * 3600_000
    expect((await openRegistrationLink(`${server.url}/register/verify?token=made-up`)).status).toBe(410)
  })

  it("at most 5 mails per address per hour, from any client; a rolling hour later it works again", async () => {
    for (let i = 0; i < 5; i++) await linkFor("flood@example.cl", { "x-forwarded-for": `198.51.100.${i}` })
    const refused = await register("flood@example.cl", { "x-forwarded-for": "198.51.100.9" })
    expect(refused.status).toBe(429)
    expect(Number(headerOf(refused, "retry-after"))).toBeGreaterThan(0)
    // magic links count against the same address
    const magic = await call(`${server.url}/api/auth/magic-link`, {
      method: "POST",
      json: { email: "flood@example.cl", return_url: `${server.url}/account` },
      headers: { origin: server.url, "x-forwarded-for": "198.51.100.10" },
    })
    expect(magic.status).toBe(429)
    clock.nowMs += 3600_000 + 1000
    await linkFor("flood@example.cl", { "x-forwarded-for": "198.51.100.11" })
  })

  it("at most 3 mails per client address per hour (FDS_MAIL_PER_IP_PER_HOUR)", async () => {
    for (let i = 0; i < 3; i++) await linkFor(`many${i}@example.cl`, { "x-forwarded-for": "192.0.2.77" })
    const before = outbox(fx.dataDir).length
    expect((await register("many3@example.cl", { "x-forwarded-for": "192.0.2.77" })).status).toBe(429)
    expect(outbox(fx.dataDir).length).toBe(before)
    await linkFor("many3@example.cl", { "x-forwarded-for": "192.0.2.78" })
  })
})
