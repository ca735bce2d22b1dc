/**
 * What a review found by probing the webhooks as an attacker and as a careless operator, each
 * pinned: a NAT64 address (64:ff9b::/96) is judged by the IPv4 address it carries; a URL with line
 * breaks, tabs or spaces is refused (the URL parser would drop them, so the URL kept would not be
 * the one called); FDS_WEBHOOKS_ALLOW_PRIVATE takes the values `serve` takes, another is refused
 * where the daemon and `webhooks send` read it.
 */
import { ConfigProvider, Effect } from "effect"
import { describe, expect, it } from "vitest"
import { isPublicAddress, urlProblem } from "../../accounts/WebhookAddress.ts"
import { webhookSettings } from "../../accounts/Webhooks.ts"

describe("webhook addresses", () => {
  it("a NAT64 address is as public as the IPv4 address it carries", () => {
    for (const a of ["64:ff9b::a9fe:a9fe", "64:ff9b::169.254.169.254", "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::c0a8:101", "64:ff9b::"]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false])
    }
    for (const a of ["64:ff9b::808:808", "64:ff9b::8.8.8.8"]) expect([a, isPublicAddress(a)]).toEqual([a, true])
  })

  it("a URL with a line break, a tab or a space is refused, not silently rewritten", () => {
    for (const u of ["https://hooks.example.com/a\r\nX-Injected: 1", "https://hooks.example.com/a\tb", " https://hooks.example.com/", "https://hooks.example.com/a b", "https://hooks.example.com/\u0000"]) {
      expect([u, urlProblem(u, false)]).toEqual([u, "must not contain spaces or control characters (percent-encode them)"])
    }
    expect(urlProblem("https://hooks.example.com/a%20b?x=1", false)).toBeNull()
  })
})

describe("FDS_WEBHOOKS_ALLOW_PRIVATE", () => {
  const read = (env: Record<string, string>) => Effect.runSync(Effect.result(webhookSettings.parse(ConfigProvider.fromUnknown(env))))
  it("takes 0, 1, true, false or nothing; another value is an error naming it, not a silent 0", () => {
    for (const [v, allowed] of [["1", true], ["true", true], ["0", false], ["false", false], ["", false]] as const) {
      const r = read({ FDS_WEBHOOKS_ALLOW_PRIVATE: v })
      expect([v, r._tag === "Success" && r.success.allowPrivate]).toEqual([v, allowed])
    }
    const unset = read({})
    expect(unset._tag === "Success" && unset.success.allowPrivate).toBe(false)
    for (const v of ["yes", "on", "TRUE", "2"]) {
      const r = read({ FDS_WEBHOOKS_ALLOW_PRIVATE: v })
      expect([v, r._tag]).toEqual([v, "Failure"])
      if (r._tag === "Failure") expect(String(r.failure)).toContain("FDS_WEBHOOKS_ALLOW_PRIVATE")
    }
  })
})
