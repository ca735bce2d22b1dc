/** The bounded per-text memo the middlewares use (api/http/Recent.ts). */
import { describe, expect, it } from "vitest"
import { recent, requestUrl } from "../../api/http/Recent.ts"
import { mayHoldSecret } from "../../api/http/Secrets.ts"

describe("recent", () => {
  it("computes once per text while the text is kept, and the oldest text goes first when full", () => {
    const calls: string[] = []
    const upper = recent(2, (t) => {
      calls.push(t)
      return t.toUpperCase()
    })
    expect([upper("a"), upper("a"), upper("b"), upper("a")]).toEqual(["A", "A", "B", "A"])
    expect(calls).toEqual(["a", "b"])
    upper("c") // full: "a", the oldest, goes
    expect([upper("b"), upper("c")]).toEqual(["B", "C"])
    expect(calls).toEqual(["a", "b", "c"])
    upper("a")
    expect(calls).toEqual(["a", "b", "c", "a"])
  })

  it("keeps a null answer as an answer", () => {
    let n = 0
    const nothing = recent(4, () => {
      n++
      return null
    })
    nothing("x")
    nothing("x")
    expect(n).toBe(1)
  })

  it("never keeps a text that may carry a secret (keys, tokens, sign-in codes)", () => {
    const seen: string[] = []
    const echo = recent(8, (t) => {
      seen.push(t)
      return t.length
    })
    const secrets = [
      "/api/unsubscribe/one-click?token=abc",
      "/api/auth/google/callback?code=xyz&state=s1",
      "/api/asset_providers?api_key=whatever",
      "/api/x?q=fds_ABCDEFGH_secret",
    ]
    for (const t of [...secrets, ...secrets]) echo(t)
    expect(seen).toEqual([...secrets, ...secrets])
    echo("/api/asset_providers?q=1")
    echo("/api/asset_providers?q=1")
    expect(seen.filter((t) => t === "/api/asset_providers?q=1")).toHaveLength(1)
    expect(mayHoldSecret("/api/compare?series=1,2")).toBe(false)
  })

  it("requestUrl: path and query of a request target", () => {
    const url = requestUrl("/api/compare?series=1,2&x=%20y")
    expect(url.pathname).toBe("/api/compare")
    expect(url.searchParams.get("series")).toBe("1,2")
    expect(url.searchParams.get("x")).toBe(" y")
    expect(requestUrl("/api/compare?series=1,2&x=%20y")).toBe(url)
  })
})
