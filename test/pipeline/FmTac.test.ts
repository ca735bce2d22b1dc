import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FmTacSource, normalizeAdminName, normalizeFundName } from "../../pipeline/datasets/fm/FmTac.ts"

const HEADER =
  "Periodo;Administradora;Nombre Fondo;Tipo Fondo;Moneda;Serie;Características;Remuneración Fija;Remuneración Variable;" +
  "Gastos de Operación;TAC Remuneración Fija;TAC Remuneración Variable;TAC Gastos de Operación;TAC Total;" +
  "Condición Comisión Colocación;Comisión Colocación;Condición Comisión Diferida;Comisión Diferida"
const FILE = "fm_tac_202605.txt"
const ADM = "ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A."
const PREAMBLE = ["Comisión para el Mercado Financiero;;;;;;;;;;;;;;;;;", "Tasa Anual de Costos (TAC) de Fondos Mutuos", ""]
// Row A: "," decimals; row B: "." decimals, period as the XLS number "20260531.0", a "(2)" name; row C: no TAC.
const A = `20260531;${ADM};FONDO MUTUO ÑUÑOA RENTA LOCAL;3;$$;A;Sin monto mínimo;Hasta 1,19% anual IVA incluido;NA;Hasta 0,30% anual;1,19;0;0,12;1,31;Permanencia menor a 30 días;1,19% IVA incluido;NA;NA`
const B = `20260531.0;${ADM};FONDO MUTUO ÑUÑOA ACCIONES CHILE (2);5.0;$$;APV;APV;Hasta 2,0% anual;;Hasta 0,5% anual;2.0;0.25;.1;2.35;NA;NA;;`
const C = `20260531;${ADM};FONDO MUTUO ÑUÑOA ACCIONES CHILE (2);;$$;I;;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA;NA`
const NOTES = ["", "(1) TAC: Tasa Anual de Costos, IVA incluido.", "(2) NA: no aplica o no informado;;;;;;;;;;;;;;;;;"]

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\n") + "\n")
const parse = (bytes: Uint8Array) => Effect.runPromise(FmTacSource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(FmTacSource.parse(bytes, FILE)))
const cells = (row: string) => row.split(";")
const withCell = (row: string, i: number, value: string) => cells(row).map((c, j) => (j === i ? value : c)).join(";")

const NO_FEES = { placementFeeCondition: null, placementFeeText: null, deferredFeeCondition: null, deferredFeeText: null }

describe("FmTacSource: parse", () => {
  it("reads the preamble, the 18 columns and the footnotes; ',' and '.' decimals, NA as null", async () => {
    const { records, repairs } = await parse(file(...PREAMBLE, HEADER, A, B, C, ...NOTES))
    expect(records).toEqual([
      {
        line: 5, period: "2026-05-31", month: "2026-05", agfName: ADM, fundName: "FONDO MUTUO ÑUÑOA RENTA LOCAL",
        fundType: 3, currency: "$$", serie: "A", characteristics: "Sin monto mínimo",
        fixedFeeText: "Hasta 1,19% anual IVA incluido", variableFeeText: null, operatingExpensesText: "Hasta 0,30% anual",
        tacFixedFeePercent: 1.19, tacVariableFeePercent: 0, tacOperatingExpensesPercent: 0.12, tacTotalPercent: 1.31,
        placementFeeCondition: "Permanencia menor a 30 días", placementFeeText: "1,19% IVA incluido",
        deferredFeeCondition: null, deferredFeeText: null
      },
      {
        line: 6, period: "2026-05-31", month: "2026-05", agfName: ADM, fundName: "FONDO MUTUO ÑUÑOA ACCIONES CHILE (2)",
        fundType: 5, currency: "$$", serie: "APV", characteristics: "APV", fixedFeeText: "Hasta 2,0% anual",
        variableFeeText: null, operatingExpensesText: "Hasta 0,5% anual", tacFixedFeePercent: 2, tacVariableFeePercent: 0.25,
        tacOperatingExpensesPercent: 0.1, tacTotalPercent: 2.35, ...NO_FEES
      },
      {
        line: 7, period: "2026-05-31", month: "2026-05", agfName: ADM, fundName: "FONDO MUTUO ÑUÑOA ACCIONES CHILE (2)",
        fundType: null, currency: "$$", serie: "I", characteristics: null, fixedFeeText: null, variableFeeText: null,
        operatingExpensesText: null, tacFixedFeePercent: null, tacVariableFeePercent: null,
        tacOperatingExpensesPercent: null, tacTotalPercent: null, ...NO_FEES
      }
    ])
    // Two title lines (the blank one is not counted), two notes (a bare one and one spread over 18 cells).
    expect(repairs).toEqual({ preambleSkipped: 2, footnotesSkipped: 2, continuationRows: 0, duplicatesSkipped: 0 })
  })

  it("skips a continuation row (a second fee tier: only the last four cells) after a data row, counted; rejects one before any", async () => {
    const tier = ";;;;;;;;;;;;;;NA;NA;181 a mas;NA"
    const { records, repairs } = await parse(file(HEADER, A, tier, B))
    expect(records.map((r) => [r.line, r.serie, r.placementFeeCondition])).toEqual([[2, "A", "Permanencia menor a 30 días"], [4, "APV", null]])
    expect(repairs).toEqual({ preambleSkipped: 0, footnotesSkipped: 0, continuationRows: 1, duplicatesSkipped: 0 })
    expect(await failure(file(HEADER, tier, A))).toMatchObject({ line: 2, field: "Periodo" })
  })

  it("skips a row repeated verbatim, counted; rejects a repeat with other values naming both lines", async () => {
    expect((await parse(file(HEADER, A, B, A))).repairs).toEqual({ preambleSkipped: 0, footnotesSkipped: 0, continuationRows: 0, duplicatesSkipped: 1 })
    const error = await failure(file(HEADER, A, B, withCell(A, 13, "1,41")))
    expect(error).toMatchObject({ dataSet: "fm_tac", file: FILE, line: 4, field: "TAC Total" })
    expect(error.message).toContain("line 2")
  })

  it("repairs mojibake in names (a UTF-8 file)", async () => {
    const { records } = await parse(new Uint8Array(Buffer.from(`${HEADER}\n${A}\n`, "utf8")))
    expect(records[0]).toMatchObject({ agfName: ADM, fundName: "FONDO MUTUO ÑUÑOA RENTA LOCAL", characteristics: "Sin monto mínimo" })
  })

  it("rejects bad numbers and dates naming the line and column", async () => {
    const cases: Array<[string, string]> = [
      [withCell(A, 13, "1,31%"), "TAC Total"],
      [withCell(A, 10, "120"), "TAC Remuneración Fija"],
      [withCell(A, 12, "-0,1"), "TAC Gastos de Operación"],
      [withCell(A, 0, "20260231"), "Periodo"],
      [withCell(A, 0, "2026-05-31"), "Periodo"],
      [withCell(A, 3, "9"), "Tipo Fondo"],
      [withCell(A, 5, ""), "Serie"]
    ]
    for (const [row, field] of cases) {
      expect(await failure(file(...PREAMBLE, HEADER, row))).toMatchObject({ line: 5, field })
    }
  })

  it("rejects a period other than the file's", async () => {
    const error = await failure(file(HEADER, A, withCell(B, 0, "20260430")))
    expect(error).toMatchObject({ line: 3, field: "Periodo" })
  })

  it("rejects a wrong column count and a truncated last line", async () => {
    expect(await failure(file(HEADER, A.slice(0, A.lastIndexOf(";"))))).toMatchObject({ line: 2, field: "Comisión Diferida" })
    // The last line stops after its fifth cell, without a newline.
    const cut = latin1(`${HEADER}\n${A}\n${cells(B).slice(0, 5).join(";")}`)
    const error = await failure(cut)
    expect(error).toMatchObject({ line: 3, field: "Serie" })
    expect(error.message).toContain("truncated")
  })

  it("rejects a missing or wrong header", async () => {
    expect(await failure(file(A, B))).toMatchObject({ line: 1, field: "Periodo" })
    expect(await failure(file(""))).toMatchObject({ line: 1, field: "Periodo" })
    const wrong = await failure(file(...PREAMBLE, HEADER.replace("TAC Total", "TAC"), A))
    expect(wrong).toMatchObject({ line: 4, field: "TAC Total" })
  })
})

describe("FmTacSource: detect and key", () => {
  it("recognises the header after title lines (latin-1 or UTF-8), not other data sets' headers", () => {
    expect(FmTacSource.detect(file(...PREAMBLE, HEADER, A))).toBe(true)
    expect(FmTacSource.detect(new Uint8Array(Buffer.from(`${HEADER}\n`, "utf8")))).toBe(true)
    expect(FmTacSource.detect(file(...Array(11).fill("título"), HEADER))).toBe(false)
    for (const other of [
      "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF;ACTIVO_TOT;MONEDA",
      "RUT Administradora;Raz. Social Administradora;RUN Fondo;Nombre Fondo;Nombre Corto",
      "Run Fondo;Nombre Fondo;FFM_6010100;FFM_6010211",
      "RUN;OLD_SERIE;NEW_SERIE;FIRST_DATE",
      "REGLAMENTO INTERNO;RUN=8123;FECHA=2025-04-30",
      HEADER.replace("Periodo;", ""),
      "Sin información"
    ]) {
      expect(FmTacSource.detect(file(other, A))).toBe(false)
    }
  })

  it("keys a file by the month of its Periodo, else by the month in its name, else by its hash", () => {
    expect(FmTacSource.key("whatever.txt", file(...PREAMBLE, HEADER, B), "sha")).toBe("2026-05")
    expect(FmTacSource.key("fm_tac_202604.txt", file(HEADER), "sha")).toBe("2026-04")
    expect(FmTacSource.key("tac.txt", file(HEADER), "sha")).toBe("sha")
  })
})

describe("normalizeFundName / normalizeAdminName", () => {
  it("drops accents, case, repeated spaces, mojibake and a trailing (n) from fund names only", () => {
    expect(normalizeFundName("FONDO MUTUO BANCHILE AGRESIVO (2)")).toBe("FONDO MUTUO BANCHILE AGRESIVO")
    expect(normalizeFundName("Fondo Mutuo Bci (10) ")).toBe("FONDO MUTUO BCI")
    expect(normalizeFundName("FONDO (2) MUTUO")).toBe("FONDO (2) MUTUO")
    const mojibake = Buffer.from("FONDO MUTUO ÑUÑOA ESTRATÉGICO", "utf8").toString("latin1")
    expect(normalizeFundName(mojibake)).toBe("FONDO MUTUO NUNOA ESTRATEGICO")
    expect(normalizeAdminName("ADMINISTRADORA GENERAL DE FONDOS  SECURITY S.A.")).toBe("ADMINISTRADORA GENERAL DE FONDOS SECURITY S.A.")
    expect(normalizeAdminName("Pacífico AGF (2)")).toBe("PACIFICO AGF (2)")
  })
})
