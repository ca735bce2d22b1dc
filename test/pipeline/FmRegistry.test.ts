import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { parseFmRegistry } from "../../pipeline/datasets/fm/FmRegistry.ts"

const HEADER =
  "RUT Administradora;Raz. Social Administradora;RUN Fondo;Nombre Fondo;Nombre Corto;Fecha Res. Aprobación del RI;Nro. Res. Aprobación del RI;Tipo de Fondo Mutuo;Fecha Inicio Operaciones;Fecha Término Operaciones;Moneda"
const FILE = "fm_ident2.txt"
// Real rows of 2026-08-28 (research notes), note the double space in the administrator's name.
const DIVERSIFICACION =
  "96639280;ADMINISTRADORA GENERAL DE FONDOS  SECURITY S.A.;8298;FONDO MUTUO SECURITY DIVERSIFICACION;DIVERSIFICACION;07/05/2004;236;6;31/05/2004;02/10/2015;$$"
const GLOBAL =
  "96639280;ADMINISTRADORA GENERAL DE FONDOS  SECURITY S.A.;8095;FONDO MUTUO SECURITY GLOBAL INVESTMENT;GLOBAL INVESTMENT;01/10/1996;235;5;29/10/1996;21/02/2005;PROM"
const ACTIVE = "76111222;ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A.;9001;FONDO MUTUO ÑUÑOA ESTRATÉGICO;ESTRATÉGICO;;;;02/01/2019;;EUR"

const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\n") + "\n")
const parse = (bytes: Uint8Array) => Effect.runPromise(parseFmRegistry(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(parseFmRegistry(bytes, FILE)))

describe("parseFmRegistry", () => {
  it("reads the registry: latin-1 names, DD/MM/YYYY dates, blanks as null", async () => {
    const { records } = await parse(file(HEADER, DIVERSIFICACION, ACTIVE))
    expect(records).toEqual([
      {
        line: 2,
        agfRut: 96639280,
        agfName: "ADMINISTRADORA GENERAL DE FONDOS  SECURITY S.A.",
        run: 8298,
        fundName: "FONDO MUTUO SECURITY DIVERSIFICACION",
        shortName: "DIVERSIFICACION",
        fundType: 6,
        startDate: "2004-05-31",
        endDate: "2015-10-02",
        currencyCode: "$$"
      },
      {
        line: 3,
        agfRut: 76111222,
        agfName: "ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A.",
        run: 9001,
        fundName: "FONDO MUTUO ÑUÑOA ESTRATÉGICO",
        shortName: "ESTRATÉGICO",
        fundType: null,
        startDate: "2019-01-02",
        endDate: null,
        currencyCode: "EUR"
      }
    ])
  })

  it("keeps one record per RUN and counts the identical repeats", async () => {
    const { records, duplicatesSkipped } = await parse(
      file(HEADER, DIVERSIFICACION, GLOBAL, DIVERSIFICACION, GLOBAL, DIVERSIFICACION)
    )
    expect(records.map((r) => [r.run, r.line])).toEqual([
      [8298, 2],
      [8095, 3]
    ])
    expect(duplicatesSkipped).toBe(3)
  })

  it("rejects a RUN repeated with different values, naming both lines", async () => {
    const renamed = DIVERSIFICACION.replace("02/10/2015", "03/10/2015")
    const error = await failure(file(HEADER, DIVERSIFICACION, GLOBAL, renamed))
    expect(error).toMatchObject({ dataSet: "fm_registry", file: FILE, line: 4, field: "Fecha Término Operaciones" })
    expect(error.message).toContain(`fm_registry ${FILE} line 4 field Fecha Término Operaciones:`)
    expect(error.message).toContain("line 2")
  })

  it("repairs mojibake in names", async () => {
    const mojibake = Buffer.from("FONDO MUTUO AÑOS DORADOS", "utf8").toString("latin1")
    const { records } = await parse(file(HEADER, ACTIVE.replace("FONDO MUTUO ÑUÑOA ESTRATÉGICO", mojibake)))
    expect(records[0]!.fundName).toBe("FONDO MUTUO AÑOS DORADOS")
  })

  it("rejects bad cells naming the registry column", async () => {
    const badDate = DIVERSIFICACION.replace("31/05/2004", "31/02/2004")
    expect(await failure(file(HEADER, badDate))).toMatchObject({ line: 2, field: "Fecha Inicio Operaciones" })
    const badType = DIVERSIFICACION.replace(";236;6;", ";236;9;")
    expect(await failure(file(HEADER, badType))).toMatchObject({ line: 2, field: "Tipo de Fondo Mutuo" })
    const badRun = DIVERSIFICACION.replace(";8298;", ";8298-K;")
    expect(await failure(file(HEADER, badRun))).toMatchObject({ line: 2, field: "RUN Fondo" })
  })

  it("rejects a file whose header is not the registry's", async () => {
    const error = await failure(file(HEADER.replace("Moneda", "Currency"), DIVERSIFICACION))
    expect(error).toMatchObject({ line: 1, field: "Moneda" })
  })
})
