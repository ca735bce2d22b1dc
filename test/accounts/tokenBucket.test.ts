/** The token bucket with explicit times (no sleeping), and how client addresses become bucket keys. */
import { describe, expect, it } from "vitest"
import { clientKey, parseNetworks } from "../../api/ratelimit/Edge.ts"
import { TokenBuckets } from "../../api/ratelimit/TokenBucket.ts"

const T0 = 1_000_000

describe("TokenBuckets (10/s, burst 20)", () => {
  it("starts full: 20 at once, then none", () => {
    const b = new TokenBuckets({ perSecond: 10, burst: 20 })
    const taken = Array.from({ length: 25 }, () => b.take("a", T0))
    expect(taken.filter(Boolean).length).toBe(20)
    expect(taken.slice(20)).toEqual([false, false, false, false, false])
  })

  it("refills 10 a second, never above 20", () => {
    const b = new TokenBuckets({ perSecond: 10, burst: 20 })
    for (let i = 0; i < 20; i++) b.take("a", T0)
    expect(b.take("a", T0 + 99)).toBe(false) // 0.99 of a token
    expect(b.take("a", T0 + 100)).toBe(true) // one token after 100 ms
    expect(b.take("a", T0 + 100)).toBe(false)
    expect(b.tokens("a", T0 + 1100)).toBeCloseTo(10, 9)
    expect(b.tokens("a", T0 + 60_000)).toBe(20)
  })

  it("a steady 10 requests a second passes forever; 11 a second does not", () => {
    const steady = new TokenBuckets({ perSecond: 10, burst: 20 })
    let refused = 0
    for (let i = 0; i < 1000; i++) if (!steady.take("a", T0 + i * 100)) refused++
    expect(refused).toBe(0)
    const fast = new TokenBuckets({ perSecond: 10, burst: 20 })
    let passed = 0
    for (let i = 0; i < 1100; i++) if (fast.take("a", T0 + Math.floor((i * 1000) / 11))) passed++
    // the last request comes at 99.909 s: the initial 20 plus 999.09 tokens refilled by then
    expect(passed).toBe(1019)
  })

  it("buckets are independent per key", () => {
    const b = new TokenBuckets({ perSecond: 10, burst: 20 })
    for (let i = 0; i < 20; i++) b.take("a", T0)
    expect(b.take("a", T0)).toBe(false)
    expect(b.take("b", T0)).toBe(true)
  })

  it("stays bounded: full buckets are dropped first when the table is full", () => {
    const b = new TokenBuckets({ perSecond: 10, burst: 20, maxEntries: 100 })
    for (let i = 0; i < 100; i++) b.take(`idle-${i}`, T0)
    for (let i = 0; i < 20; i++) b.take("busy", T0 + 10_000)
    b.take("newcomer", T0 + 10_000)
    expect(b.size).toBeLessThanOrEqual(100)
    // the busy address kept its (empty) bucket: it cannot escape its limit by flooding the table
    expect(b.take("busy", T0 + 10_000)).toBe(false)
  })
})

describe("client addresses", () => {
  it("IPv4 and IPv4-mapped IPv6 are one address; IPv6 is keyed by its /64", () => {
    expect(clientKey("203.0.113.9")).toBe("203.0.113.9")
    expect(clientKey("::ffff:203.0.113.9")).toBe("203.0.113.9")
    expect(clientKey("2001:db8:1:2::1")).toBe(clientKey("2001:db8:1:2:ffff:ffff:ffff:ffff"))
    expect(clientKey("2001:db8:1:2::1")).not.toBe(clientKey("2001:db8:1:3::1"))
  })

  it("FDS_TRUSTED_PROXIES takes addresses and networks, and refuses anything else", () => {
    expect(parseNetworks(["10.0.0.1", "10.1.0.0/16", "::1", "fd00::/8"]).length).toBe(4)
    expect(() => parseNetworks(["proxy.example.com"])).toThrow(/proxy\.example\.com/)
  })
})
