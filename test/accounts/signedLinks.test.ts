/** Unsubscribe tokens (HMAC, expiring) and the return-URL rule (no open redirect). */
import { Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { publicReturnUrl } from "../../accounts/Logins.ts"
import { signUnsubscribe, unsubscribeHeaders, verifyUnsubscribe } from "../../accounts/UnsubscribeTokens.ts"
import { isEmailAddress } from "../../schemas/Account.ts"

const secret = Redacted.make(new Uint8Array(Buffer.from("a test secret of some length")))
const other = Redacted.make(new Uint8Array(Buffer.from("another secret")))
const NOW = 1_800_000_000

describe("unsubscribe tokens", () => {
  const token = signUnsubscribe(secret, { userId: 7, scope: "alerts", expiresAt: NOW + 60 })

  it("a genuine token gives back its claim until it expires", () => {
    expect(verifyUnsubscribe(secret, token, NOW)).toEqual({ userId: 7, scope: "alerts", expiresAt: NOW + 60 })
    expect(verifyUnsubscribe(secret, token, NOW + 60)).not.toBeNull()
    expect(verifyUnsubscribe(secret, token, NOW + 61)).toBeNull()
  })

  it("a token signed with another secret, or changed in any way, is refused", () => {
    expect(verifyUnsubscribe(other, token, NOW)).toBeNull()
    const [payload, mac] = token.split(".") as [string, string]
    const forged = Buffer.from(JSON.stringify({ u: 8, s: "alerts", e: NOW + 60 })).toString("base64url")
    expect(verifyUnsubscribe(secret, `${forged}.${mac}`, NOW)).toBeNull()
    const longer = Buffer.from(JSON.stringify({ u: 7, s: "alerts", e: NOW + 999_999 })).toString("base64url")
    expect(verifyUnsubscribe(secret, `${longer}.${mac}`, NOW)).toBeNull()
    expect(verifyUnsubscribe(secret, `${payload}.${mac.slice(0, -2)}`, NOW)).toBeNull()
    expect(verifyUnsubscribe(secret, `${payload}.${mac}.x`, NOW)).toBeNull()
    expect(verifyUnsubscribe(secret, "", NOW)).toBeNull()
  })

  it("alert mails carry RFC 8058 headers pointing at the one-click route", () => {
    const headers = unsubscribeHeaders({ publicUrl: new URL("https://fds.example.cl/") }, token)
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click")
    expect(headers["List-Unsubscribe"]).toBe(
      `<https://fds.example.cl/api/alerts/unsubscribe/one-click?token=${encodeURIComponent(token)}>`,
    )
  })
})

describe("return_url stays on the public origin", () => {
  const config = { publicUrl: new URL("https://fds.example.cl") }

  it("accepts URLs and paths on the public origin", () => {
    expect(publicReturnUrl(config, "https://fds.example.cl/account?tab=1")).toBe("https://fds.example.cl/account?tab=1")
    expect(publicReturnUrl(config, "/account")).toBe("https://fds.example.cl/account")
  })

  it("refuses every other origin, however it is spelled", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/account",
      "http://fds.example.cl/account", // another scheme is another origin
      "https://fds.example.cl:8443/",
      "https://fds.example.cl.evil.example/",
      "https://user:pw@fds.example.cl/",
      "javascript:alert(1)",
      "data:text/html,hi",
      "https://evil.example\\@fds.example.cl/",
    ]) {
      expect(publicReturnUrl(config, bad), bad).toBeNull()
    }
  })
})

describe("e-mail addresses", () => {
  it("takes plausible addresses and refuses the rest", () => {
    for (const ok of ["ana@example.cl", "a.b+tag@sub.example.org"]) expect(isEmailAddress(ok), ok).toBe(true)
    for (const bad of ["", "ana", "ana@", "@example.cl", "ana@example", "a b@example.cl", "ana@exa mple.cl", `${"a".repeat(250)}@x.cl`]) {
      expect(isEmailAddress(bad), bad).toBe(false)
    }
  })
})
