import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { EtfTickersSource } from "../../pipeline/datasets/fi/EtfTickers.ts"

const FILE = "etf_tickers.txt"
const HEADER = "RUN;SERIE;TICKER;BOLSA"
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\n") + "\n")
const parse = (bytes: Uint8Array) => Effect.runPromise(EtfTickersSource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(EtfTickersSource.parse(bytes, FILE)))

describe("EtfTickersSource.parse", () => {
  it("reads one ETF series per line, FI or FM", async () => {
    const { records } = await parse(file(HEADER, "9251;UNICA;CFIETFIPSA;BCS", "8638;A;CFMITNIPSA;BEC"))
    expect(records).toEqual([
      { line: 2, run: 9251, serie: "UNICA", ticker: "CFIETFIPSA", exchange: "BCS" },
      { line: 3, run: 8638, serie: "A", ticker: "CFMITNIPSA", exchange: "BEC" }
    ])
  })

  it("skips a repeated identical line and counts it", async () => {
    const { records, repairs } = await parse(file(HEADER, "9251;UNICA;CFIETFIPSA;BCS", "9251;UNICA;CFIETFIPSA;BCS"))
    expect(records).toHaveLength(1)
    expect(repairs.duplicatesSkipped).toBe(1)
  })

  it("rejects bad cells, naming line and column", async () => {
    const cases: Array<[string, string]> = [
      ["9251;UNICA;cfietfipsa;BCS", "TICKER"],
      ["9251;UNICA;CFI-ETF;BCS", "TICKER"],
      ["9251;UNICA;CFIETFIPSA;NYSE", "BOLSA"],
      ["9251;;CFIETFIPSA;BCS", "SERIE"],
      ["RUN9251;UNICA;CFIETFIPSA;BCS", "RUN"],
      ["9251;UNICA;CFIETFIPSA", "BOLSA"]
    ]
    for (const [line, field] of cases) {
      const error = await failure(file(HEADER, "7002;UNICA;CFIETFCC;BCS", line))
      expect(error, line).toMatchObject({ dataSet: "etf_tickers", file: FILE, line: 3, field })
    }
  })

  it("rejects a series with two tickers and a ticker on two series", async () => {
    const two = await failure(file(HEADER, "9251;UNICA;CFIETFIPSA;BCS", "7002;A;CFIETFCC;BCS", "9251;UNICA;CFIETFCC2;BCS"))
    expect(two).toMatchObject({ line: 4, field: "TICKER" })
    expect(two.message).toBe(`etf_tickers ${FILE} line 4 field TICKER: conflicts with line 2 for RUN 9251 SERIE UNICA: CFIETFIPSA vs CFIETFCC2`)
    const exchange = await failure(file(HEADER, "9251;UNICA;CFIETFIPSA;BCS", "9251;UNICA;CFIETFIPSA;BEC"))
    expect(exchange).toMatchObject({ line: 3, field: "BOLSA" })
    expect(exchange.message).toContain("conflicts with line 2 for RUN 9251 SERIE UNICA: BCS vs BEC")
    // A series repeated with another series' ticker is a conflict of the series, named as such.
    const swapped = await failure(file(HEADER, "9251;UNICA;CFIETFIPSA;BCS", "7002;A;CFIETFCC;BCS", "9251;UNICA;CFIETFCC;BCS"))
    expect(swapped).toMatchObject({ line: 4, field: "TICKER" })
    expect(swapped.message).toContain("conflicts with line 2 for RUN 9251 SERIE UNICA")
    const twice = await failure(file(HEADER, "9251;UNICA;CFIETFIPSA;BCS", "7002;A;CFIETFIPSA;BCS"))
    expect(twice).toMatchObject({ line: 3, field: "TICKER" })
    expect(twice.message).toContain("line 2")
  })
})

describe("EtfTickersSource.detect and key", () => {
  it("recognises its header only, and keeps one file", () => {
    expect(EtfTickersSource.detect(file(HEADER))).toBe(true)
    expect(EtfTickersSource.detect(file("RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA"))).toBe(false)
    expect(EtfTickersSource.detect(file("RUN;SERIE;TICKER"))).toBe(false)
    expect(EtfTickersSource.detect(file("9251;UNICA;CFIETFIPSA;BCS"))).toBe(false)
    expect(EtfTickersSource.key("a", file(HEADER), "x")).toBe(EtfTickersSource.key("b", file(HEADER, "1;A;X1;BCS"), "y"))
  })
})
