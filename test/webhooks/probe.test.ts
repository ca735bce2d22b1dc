/**
 * What a review found by probing the webhooks as an attacker and as a careless operator, each
 * pinned: a NAT64 address (64:ff9b::/96) is judged by the IPv4 address it carries.
 */
import { describe, expect, it } from "vitest"
import { isPublicAddress } from "../../accounts/WebhookAddress.ts"

describe("webhook addresses", () => {
  it("a NAT64 address is as public as the IPv4 address it carries", () => {
    for (const a of ["64:ff9b::a9fe:a9fe", "64:ff9b::169.254.169.254", "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::c0a8:101", "64:ff9b::"]) {
      expect([a, isPublicAddress(a)]).toEqual([a, false])
    }
    for (const a of ["64:ff9b::808:808", "64:ff9b::8.8.8.8"]) expect([a, isPublicAddress(a)]).toEqual([a, true])
  })
})
