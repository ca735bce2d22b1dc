import { describe, expect, it } from "vitest"
import { IndicatorsSource } from "../../pipeline/datasets/market/Indicators.ts"
import { CMF_UF, CMF_USD, failureOf, parseWith, SIETE_UF, SIETE_USD, siete, utf8 } from "./marketFixtures.ts"

const parse = (text: string, file = "indicator.json") => parseWith(IndicatorsSource, utf8(text), file)
const failure = (text: string, file = "indicator.json") => failureOf(IndicatorsSource, utf8(text), file)
const key = (text: string) => IndicatorsSource.key("any.json", utf8(text), "f".repeat(64))
const UF = "F073.UFF.PRE.Z.D"

describe("IndicatorsSource: SIETE answers", () => {
  it("reads UF values, DD-MM-YYYY dates and . decimals", async () => {
    const { records, repairs } = await parse(SIETE_UF)
    expect(records).toEqual([
      { indicator: "UF", date: "2025-01-01", value: 38419.17, provider: "bcentral_siete" },
      { indicator: "UF", date: "2025-01-02", value: 38421.64, provider: "bcentral_siete" }
    ])
    expect(repairs).toEqual({ duplicatesSkipped: 0, notTradingDaysSkipped: 0 })
  })

  it("skips and counts the ND (no value) days of the dólar observado", async () => {
    const { records, repairs } = await parse(SIETE_USD)
    expect(records.map((r) => [r.indicator, r.date, r.value])).toEqual([
      ["USD", "2026-01-02", 869.05],
      ["USD", "2026-01-05", 872.22]
    ])
    expect(repairs.notTradingDaysSkipped).toBe(2)
  })

  it("accepts a UTF-8 byte order mark", async () => {
    expect((await parse(`\ufeff${SIETE_UF}`)).records).toHaveLength(2)
  })

  it("keys by indicator and the first day covered, ND days included", () => {
    expect(key(SIETE_UF)).toBe("UF:from_2025-01-01")
    expect(key(siete("F073.TCO.PRE.Z.D", [["01-01-2026", "NaN", "ND"], ["02-01-2026", "869.05", "OK"]]))).toBe(
      "USD:from_2026-01-01"
    )
    expect(key("{ not json")).toBe("f".repeat(64))
  })

  it("counts a day repeated with its value, rejects it repeated with another (naming both indices)", async () => {
    const same = await parse(siete(UF, [["01-01-2025", "38419.17", "OK"], ["01-01-2025", "38419.17", "OK"]]))
    expect(same.records).toHaveLength(1)
    expect(same.repairs.duplicatesSkipped).toBe(1)
    const error = await failure(siete(UF, [["01-01-2025", "38419.17", "OK"], ["01-01-2025", "38419.18", "OK"]]))
    expect(error).toMatchObject({ dataSet: "indicators", line: 1, field: "Series.Obs[1].value" })
    expect(error.message).toBe(
      "indicators indicator.json line 1 field Series.Obs[1].value: conflicts with Series.Obs[0] for 2025-01-01: 38419.17 vs 38419.18 " +
        "(line 1 is the index in Series.Obs)"
    )
  })

  it("rejects bad observations with the array index as line and the JSON path as field", async () => {
    const cases: ReadonlyArray<readonly [readonly [string, string, string], string]> = [
      [["31-02-2025", "38419.17", "OK"], "indexDateString"],
      [["2025-02-01", "38419.17", "OK"], "indexDateString"],
      [["02-01-2025", "0.00", "OK"], "value"],
      [["02-01-2025", "-5", "OK"], "value"],
      [["02-01-2025", "NaN", "OK"], "value"],
      [["02-01-2025", "38.421,64", "OK"], "value"],
      [["02-01-2025", "38421.64", "ND"], "value"],
      [["02-01-2025", "38421.64", "XX"], "statusCode"]
    ]
    for (const [bad, field] of cases) {
      const error = await failure(siete(UF, [["01-01-2025", "38419.17", "OK"], bad]), "uf_2025.json")
      expect(error).toMatchObject({ dataSet: "indicators", file: "uf_2025.json", line: 1, field: `Series.Obs[1].${field}` })
      expect(error.message).toContain("line 1 is the index in Series.Obs")
    }
  })

  it("rejects an error answer, another series, and a missing Obs array", async () => {
    const denied = JSON.stringify({ Codigo: -5, Descripcion: "Invalid username or password", Series: { Obs: null } })
    expect(await failure(denied)).toMatchObject({ line: 0, field: "Codigo" })
    expect(await failure(siete("F072.CLP.EUR.N.O.D", []))).toMatchObject({ field: "Series.seriesId" })
    const noObs = JSON.stringify({ Codigo: 0, Descripcion: "Success", Series: { seriesId: UF } })
    expect(await failure(noObs)).toMatchObject({ field: "Series.Obs" })
  })
})

describe("IndicatorsSource: CMF API answers", () => {
  it("reads Chilean number strings: . thousands, , decimals", async () => {
    expect((await parse(CMF_UF)).records).toEqual([
      { indicator: "UF", date: "2025-01-01", value: 39500, provider: "cmf_api" },
      { indicator: "UF", date: "2025-01-02", value: 39501.27, provider: "cmf_api" }
    ])
    expect((await parse(CMF_USD)).records.map((r) => [r.indicator, r.value])).toEqual([
      ["USD", 872.22],
      ["USD", 1012.35]
    ])
    expect(key(CMF_USD)).toBe("USD:from_2026-01-23")
  })

  it("rejects bad values and dates naming the index and the field", async () => {
    const one = (Valor: unknown, Fecha: unknown) =>
      JSON.stringify({ Dolares: [{ Valor: "872,22", Fecha: "2026-01-23" }, { Valor, Fecha }] })
    expect(await failure(one("0,00", "2026-01-26"))).toMatchObject({ line: 1, field: "Dolares[1].Valor" })
    expect(await failure(one("872.22", "2026-01-26"))).toMatchObject({ line: 1, field: "Dolares[1].Valor" })
    expect(await failure(one(872.22, "2026-01-26"))).toMatchObject({ line: 1, field: "Dolares[1].Valor" })
    expect(await failure(one("872,22", "2026-13-01"))).toMatchObject({ line: 1, field: "Dolares[1].Fecha" })
    const error = await failure(one("872,22", "26/01/2026"))
    expect(error.message).toContain("line 1 is the index in Dolares")
    expect(await failure(JSON.stringify({ UFs: "none" }))).toMatchObject({ line: 0, field: "UFs" })
  })

  it("counts a day repeated with its value, rejects it repeated with another (naming both indices)", async () => {
    const day = (Valor: string, Fecha: string) => ({ Valor, Fecha })
    const same = await parse(JSON.stringify({ UFs: [day("39.500,00", "2025-01-01"), day("39.501,27", "2025-01-02"), day("39.500,00", "2025-01-01")] }))
    expect(same.records).toEqual([
      { indicator: "UF", date: "2025-01-01", value: 39500, provider: "cmf_api" },
      { indicator: "UF", date: "2025-01-02", value: 39501.27, provider: "cmf_api" }
    ])
    expect(same.repairs).toEqual({ duplicatesSkipped: 1 })
    const error = await failure(JSON.stringify({ Dolares: [day("872,22", "2026-01-23"), day("872,23", "2026-01-23")] }), "usd.json")
    expect(error).toMatchObject({ dataSet: "indicators", file: "usd.json", line: 1, field: "Dolares[1].Valor" })
    expect(error.message).toBe(
      "indicators usd.json line 1 field Dolares[1].Valor: conflicts with Dolares[0] for 2026-01-23: 872.22 vs 872.23 (line 1 is the index in Dolares)"
    )
  })
})

describe("IndicatorsSource: malformed JSON", () => {
  it("names the file and the text line of the syntax error", async () => {
    const error = await failure('{"UFs":[\n{"Valor":"39.500,00","Fecha":"2025-01-01"},\n{"Valor" "1"}]}', "uf.json")
    expect(error).toMatchObject({ dataSet: "indicators", file: "uf.json", line: 3, field: "JSON" })
    expect(error.message).toContain("not valid JSON")
  })
})
