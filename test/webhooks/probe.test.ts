/**
 * What a review found by probing the webhooks as an attacker and as a careless operator, each
 * pinned: a NAT64 address (64:ff9b::/96) is judged by the IPv4 address it carries; a URL with line
 * breaks, tabs or spaces is refused (the URL parser would drop them, so the URL kept would not be
 * the one called).
 */
import { describe, expect, it } from "vitest"
import { isPublicAddress, urlProblem } from "../../accounts/WebhookAddress.ts"

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
