/**
 * The mail limits keyed by mailbox, not by spelling: sub-addresses (`+tag`), case, Gmail's dots
 * and googlemail.com count as the one mailbox they reach (worked examples, then /register and the
 * magic link over HTTP with mail in data/outbox/); and the per-domain limit on every mail domain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mailboxKey, mailDomain } from "../../accounts/MailboxAddress.ts"
import { expectErrorShape } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, headerOf, ManualClock, type Reply, startAccountsServer } from "./support/accountsServer.ts"
import { outbox } from "./support/mail.ts"

describe("the mailbox and domain an address reaches", () => {
  it("drops case and a +tag; for Gmail also dots, and googlemail.com is gmail.com", () => {
    expect(mailboxKey("Victim+1@Example.CL")).toBe("victim@example.cl")
    expect(mailboxKey("victim+a+b@example.cl")).toBe("victim@example.cl")
    expect(mailboxKey("first.last@example.cl")).toBe("first.last@example.cl") // dots matter elsewhere
    expect(mailboxKey("First.Last+news@gmail.com")).toBe("firstlast@gmail.com")
    expect(mailboxKey("f.i.r.s.t.last@googlemail.com")).toBe("firstlast@gmail.com")
    expect(mailboxKey("first-last@yahoo.com")).toBe("first-last@yahoo.com") // other providers' rules are not guessed
    expect(mailDomain("a@Example.CL")).toBe("example.cl")
    expect(mailDomain("a@googlemail.com")).toBe("gmail.com")
    // one domain however it is spelled: Unicode or its ASCII (punycode) form, full-width letters
    expect(mailDomain("a@München.de")).toBe("xn--mnchen-3ya.de")
    expect(mailDomain("a@xn--mnchen-3ya.de")).toBe("xn--mnchen-3ya.de")
    expect(mailDomain("a@ｅxample.cl")).toBe("example.cl")
  })
})

describe("mail limits by mailbox and by domain (/register and magic links)", () => {
  const fx = makeFixtureA()
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 15, 0, 0))
  let server: AccountsServer
  let ip = 0
  /** Each request from another client address: only the per-address and per-domain limits apply. */
  const register = (email: string) =>
    call(`${server.url}/register`, { method: "POST", form: { email }, headers: { origin: server.url, "x-forwarded-for": `198.51.100.${++ip}` } })
  const magicLink = (email: string) =>
    call(`${server.url}/api/auth/magic-link`, {
      method: "POST",
      json: { email, return_url: `${server.url}/account` },
      headers: { origin: server.url, "x-forwarded-for": `198.51.100.${++ip}` },
    })
  const recipients = () => outbox(fx.dataDir).map((m) => /^To: (.*)$/m.exec(m)![1]!.trim())

  beforeAll(async () => {
    server = await startAccountsServer({
      dataDir: fx.dataDir,
      clock,
      trustedProxies: ["127.0.0.1"],
      env: { FDS_MAIL_PER_EMAIL_PER_HOUR: "5", FDS_MAIL_PER_IP_PER_HOUR: "100", FDS_MAIL_PER_DOMAIN_PER_HOUR: "8" },
    })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("victim+1 … victim+5 get their mail as typed; victim+6, the bare address and a magic link are refused (429, Retry-After)", async () => {
    for (let i = 1; i <= 5; i++) expect((await register(`victim+${i}@sub.example`)).status).toBe(200)
    expect(recipients().slice(-5)).toEqual([1, 2, 3, 4, 5].map((i) => `victim+${i}@sub.example`))
    const before = outbox(fx.dataDir).length
    refused(await register("victim+6@sub.example"))
    refused(await register("Victim@Sub.Example"))
    const magic = await magicLink("victim+7@sub.example")
    refused(magic)
    expectErrorShape(magic.body, 429)
    expect(outbox(fx.dataDir).length).toBe(before)
  })

  it("Gmail's dotted spellings and googlemail.com count as one mailbox", async () => {
    for (const email of ["j.doe@gmail.com", "jdoe+1@gmail.com", "J.D.O.E@googlemail.com", "jd.oe+x@gmail.com", "JDoe@gmail.com"]) {
      expect((await register(email)).status, email).toBe(200)
    }
    refused(await register("j.d.o.e+last@gmail.com"))
  })

  it("at most 8 mails per domain per hour (FDS_MAIL_PER_DOMAIN_PER_HOUR), whatever the addresses; other domains go on; an hour later it works again", async () => {
    for (let i = 0; i < 8; i++) expect((await register(`person${i}@bulk.example`)).status).toBe(200)
    const before = outbox(fx.dataDir).length
    const over = await register("person8@bulk.example")
    refused(over)
    expect(over.text).toMatch(/its mail domain/)
    const magic = await magicLink("someone@BULK.example")
    refused(magic)
    expect((magic.body as { message: string }).message).toMatch(/domain/)
    expect(outbox(fx.dataDir).length).toBe(before)
    expect((await register("person8@other.example")).status).toBe(200)
    clock.nowMs += 3600_000 + 1000
    expect((await register("person8@bulk.example")).status).toBe(200)
  })
})

describe("FDS_MAIL_PER_DOMAIN_PER_HOUR", () => {
  it("defaults to 50: the 51st mail to one domain in an hour is refused", async () => {
    const fx = makeFixtureA()
    const server = await startAccountsServer({ dataDir: fx.dataDir, trustedProxies: ["127.0.0.1"], env: { FDS_MAIL_PER_IP_PER_HOUR: "1000" } })
    try {
      const register = (email: string) => call(`${server.url}/register`, { method: "POST", form: { email }, headers: { origin: server.url } })
      for (let i = 0; i < 50; i++) expect((await register(`p${i}@default.example`)).status).toBe(200)
      refused(await register("p50@default.example"))
    } finally {
      await server.close()
      fx.cleanup()
    }
  })

  it("a limit under 1 is refused at start, naming the variable", async () => {
    for (const value of ["0", "-3"]) {
      const fx = makeFixtureA()
      try {
        const started = await startAccountsServer({ dataDir: fx.dataDir, env: { FDS_MAIL_PER_DOMAIN_PER_HOUR: value } }).then(
          (server) => server.close().then(() => "started"),
          (e: Error) => e.message,
        )
        expect(started).toMatch(/FDS_MAIL_PER_DOMAIN_PER_HOUR/)
      } finally {
        fx.cleanup()
      }
    }
  })
})

/** The mail limits' refusal: 429 with a Retry-After within the hour. */
function refused(reply: Reply): void {
  expect(reply.status).toBe(429)
  expect(Number(headerOf(reply, "retry-after"))).toBeGreaterThan(0)
  expect(Number(headerOf(reply, "retry-after"))).toBeLessThanOrEqual(3600)
}
