/**
 * The key's check characters, recomputed here on their own (CRC32 from node:zlib, base62 with
 * BigInt, the alphabet 0-9A-Za-z): a key issued before any change of their code must still parse.
 */
import { crc32 } from "node:zlib"
import { describe, expect, it } from "vitest"
import { generateKey, parseKey } from "../../accounts/ApiKey.ts"

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const checkOf = (body: string): string => {
  let n = BigInt(crc32(body))
  let out = ""
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[Number(n % 62n)] + out
    n /= 62n
  }
  return out
}

describe("API key check characters", () => {
  it("are the CRC32 of the rest in six base62 digits (the test's own computation, checked on worked values, then against 2,000 issued keys)", () => {
    // the oracle on worked values: crc32("") = 0 → "000000"; 2³² − 1 = 4294967295 = 4·62⁵ + 42·62⁴ + 41·62³ + 15·62² + 12·62 + 3 → "4gfFC3"
    expect(checkOf("")).toBe("000000")
    let top = 4294967295n
    let digits = ""
    for (let i = 0; i < 6; i++) {
      digits = ALPHABET[Number(top % 62n)] + digits
      top /= 62n
    }
    expect(digits).toBe("4gfFC3")
    for (let i = 0; i < 2000; i++) {
      const { key } = generateKey()
      const body = key.slice(0, -6)
      expect(key.slice(-6)).toBe(checkOf(body))
      expect(parseKey(key)).not.toBeNull()
      expect(parseKey(body + (key.endsWith("0") ? "1" : "0").repeat(6))).toBeNull()
    }
  })

  it("a key of a fixed body parses with exactly the independently computed check", () => {
    const body = `fds_AbCd1234_${"x".repeat(43)}`
    const check = checkOf(body)
    expect(parseKey(body + check)).toEqual({ lookup: "AbCd1234" })
    const other = (check[5] === "0" ? "1" : "0") as string
    expect(parseKey(body + check.slice(0, 5) + other)).toBeNull()
  })
})
