import { describe, expect, it } from "vitest"
import { BenchmarkCatalogSource } from "../../pipeline/datasets/market/BenchmarkCatalog.ts"
import { BenchmarkPricesSource, symbolOfFileName } from "../../pipeline/datasets/market/BenchmarkPrices.ts"
import {
  CATALOG_FILE,
  CATALOG_HEADER,
  failureOf,
  latin1,
  lines,
  PRICES_FILE,
  PRICES_HEADER,
  parseWith,
  utf8
} from "./marketFixtures.ts"

const VOO = "Accionario eeuu;VOO;S&P 500;Vanguard S&P 500 ETF;USD;equity"

describe("BenchmarkCatalogSource", () => {
  it("reads family → symbol rows and adds the family's slug", async () => {
    const { records } = await parseWith(BenchmarkCatalogSource, latin1(CATALOG_FILE), "catalog.txt")
    expect(records).toEqual([
      {
        line: 2, familyRar: "Accionario eeuu", familySlug: "accionario-eeuu", symbol: "VOO", indexName: "S&P 500",
        instrumentName: "Vanguard S&P 500 ETF", nativeCurrency: "USD", assetClass: "equity"
      },
      {
        line: 3, familyRar: "Deuda > 365 días internacional desarrollado",
        familySlug: "deuda-mayor-365-dias-internacional-desarrollado", symbol: "AGG",
        indexName: "Bloomberg US Aggregate Bond", instrumentName: "iShares Core US Aggregate Bond ETF",
        nativeCurrency: "USD", assetClass: "fixed_income"
      }
    ])
  })

  it("accepts the catalog written as UTF-8 (accents read as mojibake are repaired)", async () => {
    const { records } = await parseWith(BenchmarkCatalogSource, utf8(CATALOG_FILE), "catalog.txt")
    expect(records[1]!.familyRar).toBe("Deuda > 365 días internacional desarrollado")
  })

  it("counts identical repeats and rejects a family given two benchmarks", async () => {
    const twice = await parseWith(BenchmarkCatalogSource, latin1(lines(CATALOG_HEADER, VOO, VOO)), "c.txt")
    expect(twice.repairs.duplicatesSkipped).toBe(1)
    const error = await failureOf(BenchmarkCatalogSource, latin1(lines(CATALOG_HEADER, VOO, VOO.replace("VOO", "SPY"))), "c.txt")
    expect(error).toMatchObject({ dataSet: "benchmark_catalog", line: 3, field: "SYMBOL" })
  })

  it("rejects unknown families, bad symbols, currencies and asset classes", async () => {
    const bad: ReadonlyArray<readonly [string, string]> = [
      [VOO.replace("Accionario eeuu", "Acciones USA"), "FAMILY_RAR"],
      [VOO.replace("VOO", "voo"), "SYMBOL"],
      [VOO.replace("VOO", ""), "SYMBOL"],
      [VOO.replace("S&P 500;", ";"), "INDEX_NAME"],
      [VOO.replace("USD", "EUR"), "NATIVE_CURRENCY"],
      [VOO.replace("equity", "stocks"), "ASSET_CLASS"]
    ]
    for (const [row, field] of bad) {
      const error = await failureOf(BenchmarkCatalogSource, latin1(lines(CATALOG_HEADER, row)), "c.txt")
      expect(error).toMatchObject({ line: 2, field })
    }
  })
})

describe("BenchmarkPricesSource", () => {
  it("takes the symbol from the file name: <SYMBOL>.csv or benchmark_<SYMBOL>.csv", () => {
    expect(symbolOfFileName("VOO.csv")).toBe("VOO")
    expect(symbolOfFileName("benchmark_VOO.csv")).toBe("VOO")
    expect(symbolOfFileName("inbox/2026/benchmark_brk.b.CSV")).toBe("BRK.B")
    for (const name of ["VOO.txt", "benchmark_.csv", "my prices.csv", "3f9a0c", ""]) expect(symbolOfFileName(name)).toBeNull()
  })

  it("reads the prices of the symbol", async () => {
    const { records, repairs } = await parseWith(BenchmarkPricesSource, latin1(PRICES_FILE), "benchmark_VOO.csv")
    expect(records).toEqual([
      { line: 2, symbol: "VOO", date: "2025-01-02", open: 540.1, high: 543.25, low: 535, close: 540.12, volume: 4512300 },
      { line: 3, symbol: "VOO", date: "2025-01-03", open: 540.5, high: 548, low: 540.01, close: 547.3, volume: 3900100 }
    ])
    expect(repairs).toEqual({ duplicatesSkipped: 0, nullRowsSkipped: 0 })
  })

  it("rejects a price file whose name gives no symbol, saying how to name it", async () => {
    const error = await failureOf(BenchmarkPricesSource, latin1(PRICES_FILE), "prices (1).csv")
    expect(error).toMatchObject({ dataSet: "benchmark_prices", file: "prices (1).csv", field: "SYMBOL" })
    expect(error.message).toContain("<SYMBOL>.csv or benchmark_<SYMBOL>.csv")
  })

  it("sorts by date, skips identical repeats and days written as null (counted), CRLF accepted", async () => {
    const text = [PRICES_HEADER, "2025-01-06,1,2,1,1.5,10", "2025-01-03,1,1,1,1,0", "2025-01-06,1,2,1,1.5,10", "2025-01-07,null,null,null,null,null", ""].join("\r\n")
    const { records, repairs } = await parseWith(BenchmarkPricesSource, latin1(text), "CFMITNIPSA.csv")
    expect(records.map((r) => [r.symbol, r.date, r.close])).toEqual([
      ["CFMITNIPSA", "2025-01-03", 1],
      ["CFMITNIPSA", "2025-01-06", 1.5]
    ])
    expect(repairs).toEqual({ duplicatesSkipped: 1, nullRowsSkipped: 1 })
  })

  it("rejects bad rows naming the line and the column", async () => {
    const good = "2025-01-02,540.10,543.25,535.00,540.12,4512300"
    const bad: ReadonlyArray<readonly [string, string]> = [
      ["2025/01/03,1,1,1,1,1", "Date"],
      ["2025-02-30,1,1,1,1,1", "Date"],
      ["2025-01-03,1,1,1,0,1", "Close"],
      ["2025-01-03,1,1,1,,1", "Close"],
      ["2025-01-03,1,1,1,\"1,5\",1", "column 7"],
      ["2025-01-03,1,1,-1,1,1", "Low"],
      ["2025-01-03,1,1,1,1,1.5", "Volume"],
      ["2025-01-03,1,1,1,1", "Volume"],
      ["2025-01-02,540.10,543.25,535.00,541.00,4512300", "Close"]
    ]
    for (const [row, field] of bad) {
      const error = await failureOf(BenchmarkPricesSource, latin1(lines(PRICES_HEADER, good, row)), "VOO.csv")
      expect(error).toMatchObject({ line: 3, field })
    }
    const yahoo = lines("Date,Open,High,Low,Close,Adj Close,Volume", "2025-01-02,1,1,1,1,1,1")
    expect(await failureOf(BenchmarkPricesSource, latin1(yahoo), "VOO.csv")).toMatchObject({ line: 1, field: "Date" })
  })

  it("keys by symbol and first date, so a longer download of the same symbol replaces a shorter one", () => {
    const sha = "c".repeat(64)
    expect(BenchmarkPricesSource.key("benchmark_VOO.csv", latin1(PRICES_FILE), sha)).toBe("VOO:from_2025-01-02")
    const longer = PRICES_FILE + "2025-01-06,547.00,550.00,545.00,549.99,3000000\n"
    expect(BenchmarkPricesSource.key("VOO.csv", latin1(longer), sha)).toBe("VOO:from_2025-01-02")
    expect(BenchmarkPricesSource.key("unnamed", latin1(PRICES_FILE), sha)).toBe(sha)
  })
})
