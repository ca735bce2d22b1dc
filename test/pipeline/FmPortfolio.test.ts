import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FmPortfolioSource } from "../../pipeline/datasets/fm/FmPortfolio.ts"

const NACI =
  "Run Fondo;Nombre Fondo;FFM_6010100;FFM_6010211;FFM_6010212;FFM_6010300;FFM_6010400;FFM_6010500;FFM_6010600;" +
  "FFM_6010700;FFM_6010800;FFM_6010900;FFM_6011000;FFM_TIR_6011111;FFM_PAR_6011111;FFM_REL_6011111;FFM_6011112;" +
  "FFM_6011113;FFM_6011114;FFM_6011200;FFM_6011300;FFM_6011400;FFM_6011511;FFM_6011512;FFM_6011513"
const EXTR =
  "Run Fondo;Nombre Fondo;FFM_6020100;FFM_6020200;FFM_6020300;FFM_6020400;FFM_6020500;FFM_6020600;FFM_6020700;" +
  "FFM_6020800;FFM_6020900;FFM_6021000;FFM_tir_6021111;FFM_par_6021111;FFM_rel_6021111;FFM_6021112;FFM_6021113;" +
  "FFM_6021114;FFM_6021200;FFM_6021300;FFM_6021400;FFM_6021511;FFM_6021512;FFM_6021513"
// Real NACI rows of 2025-05 (research notes), and an equity row with the "no date" sentinel.
const DEPOSIT = "8011;VISION MONEY MARKET;FNBCI-020625;97006000;6;CL;DPC;02/06/2025;1;N-1;0013;5000000000;$$;.4;;;1;30;NL;4999292;$$;CL;0;.007;2.22"
const BOND = "8023;HORIZONTE;BCHICG0815;97004000;5;CL;BB;01/08/2032;1;AAA;0003;75000;UF;3.08;;;1;365;RC;2971366;$$;CL;0;.006;1.125"
const SHARE = "8023;HORIZONTE;COBRESUR;;;CL;ACC;99999999;1;;;1200;$$;;;1510.5;3;;;1813;$$;CL;.02;;.68"
const ETF = "8095;GLOBAL DÓLAR;ATLUS500;ATLAS US LARGE CAP ETF;US;ETFA;99999999;1;;;3500;PROM;;;512.3;3;;;1793;PROM;US;0;0;41.5"
const FUND = "8095;GLOBAL DÓLAR;NSGLBEQ;NORTHSTAR GLOBAL EQUITY FUND;LU;CFME;31/12/9999;1;;;800;PROM;;;210;3;;;168;PROM;LU;0;0;3.9"

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\n") + "\n")
const parse = (bytes: Uint8Array, name = "ffm_NACI_202505.txt") => Effect.runPromise(FmPortfolioSource.parse(bytes, name))
const failure = (bytes: Uint8Array, name = "ffm_NACI_202505.txt") =>
  Effect.runPromise(Effect.flip(FmPortfolioSource.parse(bytes, name)))
const withCell = (row: string, i: number, value: string) => row.split(";").map((c, j) => (j === i ? value : c)).join(";")

describe("FmPortfolioSource: parse", () => {
  it("reads NACI rows: issuer RUT, '.004' decimals, DD/MM/YYYY and 99999999, month from the name", async () => {
    const { records, repairs } = await parse(file(NACI, DEPOSIT, BOND, SHARE, "Fuente: CMF"))
    const common = { month: "2025-05", market: "N", issuerName: null, issuerCountry: "CL" }
    expect(records).toEqual([
      { ...common, line: 2, run: 8011, fundName: "VISION MONEY MARKET", instrumentCode: "FNBCI-020625", issuerRut: 97006000,
        instrumentType: "DPC", maturityDate: "2025-06-02", valuationThousands: 4999292, fundAssetsPercent: 2.22 },
      { ...common, line: 3, run: 8023, fundName: "HORIZONTE", instrumentCode: "BCHICG0815", issuerRut: 97004000,
        instrumentType: "BB", maturityDate: "2032-08-01", valuationThousands: 2971366, fundAssetsPercent: 1.125 },
      { ...common, line: 4, run: 8023, fundName: "HORIZONTE", instrumentCode: "COBRESUR", issuerRut: null,
        instrumentType: "ACC", maturityDate: null, valuationThousands: 1813, fundAssetsPercent: 0.68 }
    ])
    expect(repairs).toEqual({ footnotesSkipped: 1 })
  })

  it("reads EXTR rows with the issuer's name; the header matches in either case", async () => {
    const common = { month: "2025-05", market: "E", run: 8095, fundName: "GLOBAL DÓLAR", issuerRut: null, maturityDate: null }
    const expected = [
      { ...common, line: 2, instrumentCode: "ATLUS500", issuerName: "ATLAS US LARGE CAP ETF", issuerCountry: "US",
        instrumentType: "ETFA", valuationThousands: 1793, fundAssetsPercent: 41.5 },
      { ...common, line: 3, instrumentCode: "NSGLBEQ", issuerName: "NORTHSTAR GLOBAL EQUITY FUND", issuerCountry: "LU",
        instrumentType: "CFME", valuationThousands: 168, fundAssetsPercent: 3.9 }
    ]
    expect((await parse(file(EXTR, ETF, FUND), "ffm_EXTR_202505.txt")).records).toEqual(expected)
    expect((await parse(file(EXTR.toUpperCase(), ETF, FUND), "cartera_202505.txt")).records).toEqual(expected)
  })

  it("reads a 'Sin información' body as no rows, market and month from the name", async () => {
    const empty = latin1("Sin información\r\n")
    expect(await parse(empty, "ffm_EXTR_202505.txt")).toEqual({ records: [], repairs: { sinInformacionFiles: 1 } })
    expect(await failure(empty, "cartera_202505.txt")).toMatchObject({ line: 1, field: "Run Fondo" })
  })

  it("rejects a file whose name does not say its month, naming the file", async () => {
    const error = await failure(file(NACI, DEPOSIT), "cartera_nacional.txt")
    expect(error).toMatchObject({ dataSet: "fm_portfolio", file: "cartera_nacional.txt", line: 0, field: "file name" })
    expect(error.message).toContain("YYYYMM")
    expect(await failure(file(NACI, DEPOSIT), "ffm_NACI_202505_202506.txt")).toMatchObject({ field: "file name" })
  })

  it("rejects bad numbers and dates naming the line and column", async () => {
    const cases: Array<[string, string]> = [
      [withCell(DEPOSIT, 24, "2,2x"), "FFM_6011513"],
      [withCell(DEPOSIT, 19, ""), "FFM_6011200"],
      [withCell(DEPOSIT, 7, "31/02/2025"), "FFM_6010500"],
      [withCell(DEPOSIT, 7, "2025-06-02"), "FFM_6010500"],
      [withCell(DEPOSIT, 0, "8011-K"), "Run Fondo"],
      [withCell(DEPOSIT, 4, "X"), "FFM_6010212"]
    ]
    for (const [row, field] of cases) expect(await failure(file(NACI, BOND, row))).toMatchObject({ line: 3, field })
  })

  it("rejects a wrong column count, a truncated last line and a missing header", async () => {
    expect(await failure(file(NACI, `${DEPOSIT};0`))).toMatchObject({ line: 2, field: "column 26" })
    const cut = await failure(latin1(`${NACI}\n${DEPOSIT}\n${BOND.split(";").slice(0, 7).join(";")}`))
    expect(cut).toMatchObject({ line: 3, field: "FFM_6010500" })
    expect(cut.message).toContain("truncated")
    expect(await failure(file(DEPOSIT, BOND))).toMatchObject({ line: 1, field: "Run Fondo" })
    expect(await failure(file(NACI.replace("FFM_6011200", "FFM_6011201"), DEPOSIT))).toMatchObject({ line: 1, field: "FFM_6011200" })
    expect(await failure(file(""))).toMatchObject({ line: 1, field: "Run Fondo" })
  })
})

describe("FmPortfolioSource: detect and key", () => {
  it("recognises the NACI and EXTR headers only", () => {
    expect(FmPortfolioSource.detect(file(NACI, DEPOSIT))).toBe(true)
    expect(FmPortfolioSource.detect(file(EXTR))).toBe(true)
    for (const other of [
      "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF;ACTIVO_TOT;MONEDA",
      "RUT Administradora;Raz. Social Administradora;RUN Fondo;Nombre Fondo;Nombre Corto",
      "Periodo;Administradora;Nombre Fondo;Tipo Fondo;Moneda;Serie",
      "RUN;OLD_SERIE;NEW_SERIE;FIRST_DATE",
      "REGLAMENTO INTERNO;RUN=8123;FECHA=2025-04-30",
      NACI.replace(";FFM_6011513", ""),
      // CMF's empty answer says nothing of its data set: only its name could.
      "Sin información"
    ]) {
      expect(FmPortfolioSource.detect(file(other))).toBe(false)
    }
  })

  it("keys a file by month and market", () => {
    expect(FmPortfolioSource.key("ffm_NACI_202505.txt", file(NACI, DEPOSIT), "sha")).toBe("2025-05/N")
    // The market comes from the header, not from the name.
    expect(FmPortfolioSource.key("ffm_NACI_202505.txt", file(EXTR, ETF), "sha")).toBe("2025-05/E")
    expect(FmPortfolioSource.key("ffm_EXTR_202505.txt", latin1("Sin información"), "sha")).toBe("2025-05/E")
    expect(FmPortfolioSource.key("cartera.txt", file(NACI, DEPOSIT), "sha")).toBe("sha")
  })
})
