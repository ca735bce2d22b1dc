import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FiPortfolioSource } from "../../pipeline/datasets/fi/FiPortfolio.ts"

const FILE = "ifrs_cartera_nac_9251_202503.html"
const N_HEADER = [
  "Clasif. del Instr. en ESF", "Nemotécnico", "Rut Emisor", "Cod. País", "Tipo Instrumento", "Fecha Vencimiento",
  "Situación del Instr.", "Clasif. De Riesgo", "Grupo Empresarial", "Cant Unidades", "Tipo Unidades", "TIR, Valor par o Precio",
  "Código Valolización", "Base tasa", "Tipo de interés", "Valolización al Cierre", "Cód. Moneda Liquidación",
  "Cód. Pais Transacción", "% Capital del Emisor", "% Tot. Activo del Emisor", "% Tot. Activo del Fondo"
]
const E_HEADER = [
  "Clasif del Instrumento en ESF", "Código ISIN o CUSIP", "Nemotecnico", "Nombre del emisor", ...N_HEADER.slice(3, 8),
  "Nombre Grupo Empr.", ...N_HEADER.slice(9)
]
const th = (names: ReadonlyArray<string>) => `<tr>${names.map((n) => `<th>${n}</th>`).join("")}</tr>`
const tr = (cells: ReadonlyArray<string>) => `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`
// 97036000-K: 0·2+0·3+0·4+6·5+3·6+0·7+7·2+9·3 = 89, 11 − 89 mod 11 = 10 → K.
const BOND = ["VR", "BSTDP50719", "97036000-K", "CL", "BB", "31/03/2029 00:00:00", "1", "AAA", "SANTANDER", "1.000.000,0000", "UF", "3,4500", "3", "365", "NL", "38.512", "CLP", "CL", "0,0100", "0,0020", "12,5000"]
const SHARE = ["VR", "SQM-B", "93007000", "CL", "ACC", "", "1", "Primera Clase Nivel 1", "SQM", "12.000,0000", "$$", "45.000,0000", "3", "", "", "540", "CLP", "CL", "0,0001", "", "0,1753"]
const total = (valuation: string, pct: string, width = 21) =>
  tr(Array.from({ length: width }, (_, i) => (i === 0 ? "TOTAL" : i === width - 6 ? valuation : i === width - 1 ? pct : "")))

const HEADING =
  "<h2>FONDO DE INVERSIÓN ÑUÑOA RENTA</h2><p>R.U.T.: 9251-7</p><p>Período: 03/2025</p><p>Cartera de Inversiones Nacional</p>" +
  "<p>Cifras expresadas en miles de: PESOS</p>"
const html = (heading: string, header: ReadonlyArray<string>, rows: ReadonlyArray<string>) =>
  `<html><head><title>Cartera</title></head><body>${heading}\n<table>\n${th(header)}\n${rows.join("\n")}\n</table></body></html>`
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const national = (...rows: Array<string>) => latin1(html(HEADING, N_HEADER, rows))
const parse = (bytes: Uint8Array) => Effect.runPromise(FiPortfolioSource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(FiPortfolioSource.parse(bytes, FILE)))

describe("FiPortfolioSource.parse", () => {
  it("reads a national page: RUN, period and currency from the heading, dates with a time, TOTAL checked and skipped", async () => {
    const { records, repairs } = await parse(national(tr(BOND), tr(SHARE), total("39.052", "12,6753")))
    expect(records).toEqual([
      {
        line: 2, run: 9251, period: "2025-03", market: "N", functionalCurrency: "PESOS", esfClassification: "VR", isin: null,
        nemotecnico: "BSTDP50719", issuerRut: 97036000, issuerName: null, issuerCountry: "CL", instrumentType: "BB", maturityDate: "2029-03-31",
        instrumentStatus: "1", riskRating: "AAA", businessGroup: "SANTANDER", units: 1000000, unitsType: "UF", rateOrPrice: 3.45,
        valuationCode: "3", rateBaseDays: 365, interestType: "NL", valuationThousands: 38512, settlementCurrency: "CLP",
        transactionCountry: "CL", pctOfIssuerCapital: 0.01, pctOfIssuerAssets: 0.002, pctOfFundAssets: 12.5
      },
      {
        line: 3, run: 9251, period: "2025-03", market: "N", functionalCurrency: "PESOS", esfClassification: "VR", isin: null,
        nemotecnico: "SQM-B", issuerRut: 93007000, issuerName: null, issuerCountry: "CL", instrumentType: "ACC", maturityDate: null,
        instrumentStatus: "1", riskRating: "Primera Clase Nivel 1", businessGroup: "SQM", units: 12000, unitsType: "$$", rateOrPrice: 45000,
        valuationCode: "3", rateBaseDays: null, interestType: null, valuationThousands: 540, settlementCurrency: "CLP",
        transactionCountry: "CL", pctOfIssuerCapital: 0.0001, pctOfIssuerAssets: null, pctOfFundAssets: 0.1753
      }
    ])
    expect(repairs.totalRows).toBe(1)
  })

  it("reads a foreign page (market E from its table) and a page with no positions", async () => {
    const heading = HEADING.replace("Nacional", "Extranjera").replace("PESOS", "DOLARES")
    const apple = ["VR", "US0378331005", "AAPL", "APPLE INC", "US", "ACE", "", "1", "", "", "100,0000", "USD", "190,5000", "3", "", "", "19", "USD", "US", "", "", "2,5000"]
    const { records } = await parse(latin1(html(heading, E_HEADER, [tr(apple), total("19", "2,5000", 22)])))
    expect(records).toEqual([
      {
        line: 2, run: 9251, period: "2025-03", market: "E", functionalCurrency: "DOLARES", esfClassification: "VR", isin: "US0378331005",
        nemotecnico: "AAPL", issuerRut: null, issuerName: "APPLE INC", issuerCountry: "US", instrumentType: "ACE", maturityDate: null,
        instrumentStatus: "1", riskRating: null, businessGroup: null, units: 100, unitsType: "USD", rateOrPrice: 190.5, valuationCode: "3",
        rateBaseDays: null, interestType: null, valuationThousands: 19, settlementCurrency: "USD", transactionCountry: "US",
        pctOfIssuerCapital: null, pctOfIssuerAssets: null, pctOfFundAssets: 2.5
      }
    ])
    const empty = await parse(latin1(html(heading, E_HEADER, [total("0", "0,0000", 22)])))
    expect(empty.records).toEqual([])
    expect(FiPortfolioSource.key("x", latin1(html(heading, E_HEADER, [])), "sha")).toBe("9251:2025-03:E")
  })

  it("rejects a TOTAL row that is not the sum of the valuations", async () => {
    const error = await failure(national(tr(BOND), tr(SHARE), total("40.052", "12,6753")))
    expect(error).toMatchObject({ line: 4, field: "Valolización al Cierre" })
    expect(error.message).toContain("row 4 of the national portfolio table (row 1 = its header)")
  })

  it("rejects bad numbers and dates, naming the table row and CMF column", async () => {
    const pct = [...SHARE.slice(0, 20), "12.5"]
    expect(await failure(national(tr(BOND), tr(pct)))).toMatchObject({ line: 3, field: "% Tot. Activo del Fondo" })
    const date = BOND.map((c) => (c.startsWith("31/03/2029") ? "31/13/2029" : c))
    expect(await failure(national(tr(date)))).toMatchObject({ line: 2, field: "Fecha Vencimiento" })
    const value = BOND.map((c) => (c === "38.512" ? "" : c))
    expect(await failure(national(tr(value)))).toMatchObject({ line: 2, field: "Valolización al Cierre" })
  })

  it("rejects a header without CMF's literal 'Valolización al Cierre'", async () => {
    const fixed = N_HEADER.map((h) => (h === "Valolización al Cierre" ? "Valorización al Cierre" : h))
    expect(await failure(latin1(html(HEADING, fixed, [tr(BOND)])))).toMatchObject({ line: 1, field: "Valolización al Cierre" })
    expect(await failure(latin1(html(HEADING, N_HEADER.slice(0, 20), [tr(BOND)])))).toMatchObject({ line: 1, field: "% Tot. Activo del Fondo" })
  })

  it("rejects a page without the fund's R.U.T., with a wrong check digit, or without a quarter-end period", async () => {
    const noRut = await failure(latin1(html(HEADING.replace("<p>R.U.T.: 9251-7</p>", ""), N_HEADER, [tr(BOND)])))
    expect(noRut).toMatchObject({ line: 0, field: "R.U.T." })
    expect(await failure(latin1(html(HEADING.replace("9251-7", "9251-K"), N_HEADER, [tr(BOND)])))).toMatchObject({ line: 0, field: "R.U.T." })
    expect(await failure(latin1(html(HEADING.replace("03/2025", "02/2025"), N_HEADER, [tr(BOND)])))).toMatchObject({ line: 0, field: "Período" })
    expect(await failure(latin1(html(HEADING.replace("<p>Período: 03/2025</p>", ""), N_HEADER, [tr(BOND)])))).toMatchObject({ line: 0, field: "Período" })
  })
})

describe("FiPortfolioSource.detect and key", () => {
  it("recognises both tables, keys RUN:period:market from the content, reads 'Período: 202503' and '2025-12' too", () => {
    expect(FiPortfolioSource.detect(national(tr(BOND)))).toBe(true)
    expect(FiPortfolioSource.key("cartera.html", national(tr(BOND)), "sha")).toBe("9251:2025-03:N")
    const compact = latin1(html(HEADING.replace("03/2025", "202503"), N_HEADER, [tr(BOND)]))
    expect(FiPortfolioSource.key("cartera.html", compact, "sha")).toBe("9251:2025-03:N")
    const iso = latin1(html(HEADING.replace("03/2025", "2025-12"), N_HEADER, [tr(BOND)]))
    expect(FiPortfolioSource.key("cartera.html", iso, "sha")).toBe("9251:2025-12:N")
  })

  it("does not claim values pages, lists or text files", () => {
    const values = html(HEADING, ["Fecha", "Serie", "Moneda", "Valor Libro"], [])
    expect(FiPortfolioSource.detect(latin1(values))).toBe(false)
    expect(FiPortfolioSource.detect(latin1(html("<h1>Fondos de Inversión Rescatables - Vigentes</h1>", ["R.U.T.", "Entidad"], [])))).toBe(false)
    expect(FiPortfolioSource.detect(latin1("RUN;SERIE;TICKER;BOLSA\n"))).toBe(false)
  })
})
