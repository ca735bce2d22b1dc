/**
 * Public ids (CRC32 of natural keys), RUN/RUT check digits, decimal id parsing and calendar dates,
 * checked against independent computations written here.
 */
import { describe, expect, it } from "vitest"
import { dateToInt, intToDate, isIsoDate } from "../../schemas/Dates.ts"
import {
  assetId,
  checkDigit,
  conceptId,
  formatRun,
  parseUint32,
  providerId,
  seriesKey,
} from "../../schemas/Ids.ts"
import { testCrc32 } from "../support/snapshotFixture.ts"

describe("the test's own CRC32 (so that it can judge the code's)", () => {
  it("matches the published check values of CRC-32/IEEE", () => {
    expect(testCrc32("123456789")).toBe(0xcbf43926)
    expect(testCrc32("")).toBe(0)
    expect(testCrc32("The quick brown fox jumps over the lazy dog")).toBe(0x414fa339)
    expect(testCrc32("a")).toBe(0xe8b7be43)
  })
})

describe("CRC32 ids", () => {
  it("provider_id = crc32('agf:' + RUT without check digit)", () => {
    for (const rut of [96639280, 97004000, 1, 99999999]) {
      expect(providerId(rut)).toBe(testCrc32(`agf:${rut}`))
    }
  })

  it("concept_id = crc32('fm:' + RUN)", () => {
    for (const run of [8043, 8106, 9105, 10000]) expect(conceptId(run)).toBe(testCrc32(`fm:${run}`))
  })

  it("asset_id = crc32('fm:' + RUN + ':' + series label trimmed and upper-cased)", () => {
    expect(assetId(8043, "A")).toBe(testCrc32("fm:8043:A"))
    expect(assetId(9105, "apv")).toBe(testCrc32("fm:9105:APV"))
    expect(assetId(9105, "  Apv ")).toBe(testCrc32("fm:9105:APV"))
    expect(assetId(8043, "I-2")).toBe(testCrc32("fm:8043:I-2"))
    expect(seriesKey(8043, " b ")).toBe("fm:8043:B")
  })

  it("ids are unsigned 32-bit integers", () => {
    for (const id of [providerId(96639280), conceptId(8043), assetId(8043, "A")]) {
      expect(Number.isInteger(id)).toBe(true)
      expect(id).toBeGreaterThanOrEqual(0)
      expect(id).toBeLessThanOrEqual(0xffffffff)
    }
  })
})

/**
 * Módulo 11, by hand: digits from the right times 2,3,4,5,6,7,2,3,…; dv = 11 − (sum mod 11),
 * where 11 → "0" and 10 → "K".
 */
describe("RUN/RUT check digit (módulo 11)", () => {
  it("matches check digits worked out by hand", () => {
    // 96639280 (an AGF RUT). Digits from the right: 0 8 2 9 3 6 6 9
    //   0·2 + 8·3 + 2·4 + 9·5 + 3·6 + 6·7 + 6·2 + 9·3 = 0+24+8+45+18+42+12+27 = 176
    //   176 mod 11 = 0 (11·16 = 176) → 11 − 0 = 11 → "0"                      96.639.280-0
    expect(checkDigit(96639280)).toBe("0")
    // 97004000 (Banco de Chile). Digits from the right: 0 0 0 4 0 0 7 9
    //   0+0+0+4·5+0+0+7·2+9·3 = 20+14+27 = 61; 61 mod 11 = 6 → 11 − 6 = 5          97.004.000-5
    expect(checkDigit(97004000)).toBe("5")
    // 97036000 (Banco Santander-Chile). Digits from the right: 0 0 0 6 3 0 7 9
    //   6·5 + 3·6 + 7·2 + 9·3 = 30+18+14+27 = 89; 89 mod 11 = 1 → 11 − 1 = 10 → "K"  97.036.000-K
    expect(checkDigit(97036000)).toBe("K")
    // 97030000 (BancoEstado). Digits from the right: 0 0 0 0 3 0 7 9
    //   3·6 + 7·2 + 9·3 = 18+14+27 = 59; 59 mod 11 = 4 → 11 − 4 = 7                97.030.000-7
    expect(checkDigit(97030000)).toBe("7")
    // 11111111: 1·(2+3+4+5+6+7+2+3) = 32; 32 mod 11 = 10 → 11 − 10 = 1             11.111.111-1
    expect(checkDigit(11111111)).toBe("1")
    // Fund RUN 8043: digits from the right 3 4 0 8 → 3·2+4·3+0·4+8·5 = 6+12+0+40 = 58;
    //   58 mod 11 = 3 → 11 − 3 = 8                                                    8043-8
    expect(checkDigit(8043)).toBe("8")
    // 8106: 6·2+0·3+1·4+8·5 = 12+0+4+40 = 56; 56 mod 11 = 1 → 10 → "K"              8106-K
    expect(checkDigit(8106)).toBe("K")
    // 9105: 5·2+0·3+1·4+9·5 = 10+0+4+45 = 59; 59 mod 11 = 4 → 7                      9105-7
    expect(checkDigit(9105)).toBe("7")
  })

  it("agrees with an independent string-based módulo 11 over many numbers", () => {
    const dv = (body: number): string => {
      const digits = String(body).split("").reverse()
      const factors = [2, 3, 4, 5, 6, 7]
      const sum = digits.reduce((acc, d, i) => acc + Number(d) * factors[i % 6]!, 0)
      const r = (11 - (sum % 11)) % 11
      return r === 10 ? "K" : String(r)
    }
    for (let n = 1; n <= 5000; n++) expect(checkDigit(n), String(n)).toBe(dv(n))
    for (let n = 76_000_000; n < 76_000_000 + 20_000; n += 7) expect(checkDigit(n), String(n)).toBe(dv(n))
  })

  it("formats a RUN with its check digit", () => {
    expect(formatRun(8043)).toBe("8043-8")
    expect(formatRun(8106)).toBe("8106-K")
  })
})

describe("parseUint32 (decimal ids in paths and lists)", () => {
  it("accepts decimal unsigned 32-bit values; leading zeros do not distinguish ids", () => {
    expect(parseUint32("0")).toBe(0)
    expect(parseUint32("42")).toBe(42)
    expect(parseUint32("00042")).toBe(42)
    expect(parseUint32("000000000042")).toBe(42)
    expect(parseUint32("4294967295")).toBe(0xffffffff)
    expect(parseUint32("04294967295")).toBe(0xffffffff)
  })

  it("refuses values out of range and anything that is not plain decimal digits", () => {
    for (const text of [
      "4294967296",
      "99999999999",
      "999999999999",
      "",
      "-1",
      "+1",
      "1.0",
      "1e3",
      "0x10",
      " 1",
      "1 ",
      "１２", // full-width digits
      "12a",
      "NaN",
    ]) {
      expect(parseUint32(text), JSON.stringify(text)).toBeNull()
    }
  })
})

describe("calendar dates", () => {
  it("isIsoDate accepts real dates only, as YYYY-MM-DD", () => {
    expect(isIsoDate("2026-02-06")).toBe(true)
    expect(isIsoDate("2024-02-29")).toBe(true) // leap year
    expect(isIsoDate("2000-02-29")).toBe(true) // divisible by 400
    expect(isIsoDate("2026-02-29")).toBe(false)
    expect(isIsoDate("2100-02-29")).toBe(false) // divisible by 100, not 400
    expect(isIsoDate("2026-02-30")).toBe(false)
    expect(isIsoDate("2026-04-31")).toBe(false)
    expect(isIsoDate("2026-13-01")).toBe(false)
    expect(isIsoDate("2026-00-10")).toBe(false)
    expect(isIsoDate("2026-01-00")).toBe(false)
    expect(isIsoDate("2026-2-3")).toBe(false)
    expect(isIsoDate("20260203")).toBe(false)
    expect(isIsoDate("2026-02-03T00:00:00Z")).toBe(false)
  })

  it("dateToInt and intToDate convert both ways", () => {
    expect(dateToInt("2026-02-06")).toBe(20260206)
    expect(intToDate(20260206)).toBe("2026-02-06")
    expect(intToDate(dateToInt("1999-12-31"))).toBe("1999-12-31")
  })
})
