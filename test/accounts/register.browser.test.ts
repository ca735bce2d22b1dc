/**
 * The registration flow end to end in Debian's Chromium, with JavaScript turned off (the pages need
 * none), mail through a real SMTP server (FDS_SMTP_URL → smtp-server started here): the form,
 * driven by keyboard → the mail → the link shows the key once → the key works → opening the link
 * again shows no key → registering again rotates the key.
 */
import { existsSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, startAccountsServer } from "./support/accountsServer.ts"
import { type Browser, CHROMIUM, openBrowser } from "./support/browser.ts"
import { linkIn, outbox, type SmtpSink, startSmtpSink } from "./support/mail.ts"

const KEY = /^fds_[0-9A-Za-z]{8}_[0-9A-Za-z]{49}$/

describe("registration in Chromium, mail over SMTP", () => {
  const fx = makeFixtureA()
  let smtp: SmtpSink
  let server: AccountsServer
  let browser: Browser

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), "make test installs Debian's chromium").toBe(true)
    smtp = await startSmtpSink()
    server = await startAccountsServer({ dataDir: fx.dataDir, env: { FDS_SMTP_URL: smtp.url } })
    browser = await openBrowser({ javaScriptEnabled: false })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await smtp?.close()
    fx.cleanup()
  })

  const info = (key: string) => call(`${server.url}/api/key/info`, { headers: { "x-api-key": key } })

  /** Fills the form by keyboard only and returns the verification link that arrives by mail. */
  const requestLink = async (email: string, nth: number): Promise<string> => {
    const page = await browser.context.newPage()
    await page.goto(`${server.url}/register`)
    expect(await page.title()).toBe("Get an API key · Fund Data Service")
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Get an API key")
    // the field is reachable by Tab, announced by its label, and Enter sends the form
    await page.keyboard.press("Tab")
    const focused = page.locator(":focus")
    expect(await focused.getAttribute("id")).toBe("email")
    expect(await page.getByLabel("E-mail address").getAttribute("type")).toBe("email")
    await page.keyboard.type(email)
    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.keyboard.press("Enter"),
    ])
    expect(posted.status()).toBe(200)
    await page.waitForLoadState()
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Check your inbox")
    expect(await page.getByRole("status").textContent()).toContain(email)
    await page.close()
    const mail = await smtp.next(email, nth)
    return linkIn(mail.raw, `${server.url}/register/verify?token=`)
  }

  /** Opens the mailed link and presses its button (the link alone issues nothing). */
  const openLink = async (link: string) => {
    const page = await browser.context.newPage()
    await page.goto(link)
    const [response] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Show my new key" }).click()])
    const key = (await page.locator("#api-key").count()) === 1 ? await page.locator("#api-key").textContent() : null
    const text = (await page.locator("body").textContent()) ?? ""
    await page.close()
    return { status: response?.status(), key, text }
  }

  it("form → mail → the page shows a working free key, once", async () => {
    const link = await requestLink("browser@example.cl", 1)
    expect(outbox(fx.dataDir)).toEqual([]) // with SMTP configured nothing goes to the outbox

    const first = await openLink(link)
    expect(first.status).toBe(200)
    expect(first.key).toMatch(KEY)
    expect(first.text).toMatch(/shown only this once/)
    expect((await info(first.key!)).body).toMatchObject({ tier: "free", daily_quota: 300, requests_today: 0 })

    const second = await openLink(link)
    expect(second.status).toBe(410)
    expect(second.key).toBeNull()
    expect(second.text).not.toContain(first.key!)
    expect(second.text).toMatch(/no longer works/)
  })

  it("registering again in the browser rotates the key: the previous one gets 401", async () => {
    const old = (await openLink(await requestLink("rotate@example.cl", 1))).key!
    expect((await info(old)).status).toBe(200)
    const fresh = (await openLink(await requestLink("rotate@example.cl", 2))).key!
    expect(fresh).toMatch(KEY)
    expect(fresh).not.toBe(old)
    expect((await info(old)).status).toBe(401)
    expect((await info(fresh)).status).toBe(200)
  })
})
