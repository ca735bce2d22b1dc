import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { parseCartola } from "../../pipeline/datasets/fm/Cartola.ts"

const COLUMNS = [
  "RUN_ADM", "NOM_ADM", "RUN_FM", "FECHA_INF", "ACTIVO_TOT", "MONEDA", "PARTICIPES_INST", "INVERSION_EN_FONDOS",
  "SERIE", "CUOTAS_APORTADAS", "CUOTAS_RESCATADAS", "CUOTAS_EN_CIRCULACION", "VALOR_CUOTA", "PATRIMONIO_NETO",
  "NUM_PARTICIPES", "NUM_PARTICIPES_INST", "FONDO_PEN", "REM_FIJA", "REM_VARIABLE", "GASTOS_AFECTOS",
  "GASTOS_NO_AFECTOS", "COMISION_INVERSION", "COMISION_RESCATE", "FACTOR DE AJUSTE", "FACTOR DE REPARTO"
] as const
type Column = (typeof COLUMNS)[number]
const HEADER = COLUMNS.join(";")
const FILE = "ffmm_todos_20260101_20260131.txt"

const DEFAULTS: Record<Column, string> = {
  RUN_ADM: "96639280", NOM_ADM: "ADMINISTRADORA GENERAL DE FONDOS SECURITY S.A.", RUN_FM: "8011",
  FECHA_INF: "20260105", ACTIVO_TOT: "1000000", MONEDA: "$$", PARTICIPES_INST: "S", INVERSION_EN_FONDOS: "0",
  SERIE: "A", CUOTAS_APORTADAS: "100.5", CUOTAS_RESCATADAS: "50.0", CUOTAS_EN_CIRCULACION: "5000.0",
  VALOR_CUOTA: "32900.5000", PATRIMONIO_NETO: "164502500", NUM_PARTICIPES: "46", NUM_PARTICIPES_INST: "2",
  FONDO_PEN: "N", REM_FIJA: "1000.0", REM_VARIABLE: "0", GASTOS_AFECTOS: "50.0", GASTOS_NO_AFECTOS: "10.0",
  COMISION_INVERSION: "0", COMISION_RESCATE: "0", "FACTOR DE AJUSTE": "", "FACTOR DE REPARTO": ""
}

const row = (changes: Partial<Record<Column, string>> = {}): string =>
  COLUMNS.map((c) => changes[c] ?? DEFAULTS[c]).join(";")
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\n") + "\n")

const parse = (bytes: Uint8Array) => Effect.runPromise(parseCartola(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(parseCartola(bytes, FILE)))

describe("parseCartola: values", () => {
  it("converts one row into a CartolaRecord", async () => {
    const { records, duplicatesSkipped, footnotesSkipped } = await parse(file(HEADER, row()))
    expect(duplicatesSkipped).toBe(0)
    expect(footnotesSkipped).toBe(0)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({
      line: 2,
      agfRut: 96639280,
      run: 8011,
      date: "2026-01-05",
      serie: "A",
      currencyCode: "$$",
      totalAssets: 1000000,
      price: 32900.5,
      patrimony: 164502500,
      holders: 46,
      institutionalHolders: 2,
      unitsOutstanding: 5000,
      unitsSubscribed: 100.5,
      unitsRedeemed: 50,
      fixedFee: 1000,
      expensesSubjectToVat: 50,
      expensesExemptFromVat: 10,
      hasInstitutionalHolders: true,
      pensionFund: false,
      factorAjuste: null,
      factorReparto: null
    })
  })

  it("reads a latin-1 name as the right string", async () => {
    const name = "ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A."
    const bytes = file(HEADER, row({ NOM_ADM: name }))
    // One byte per letter: Ñ is 0xD1 in latin-1.
    expect(bytes.includes(0xd1)).toBe(true)
    const { records } = await parse(bytes)
    expect(records[0]!.agfName).toBe(name)
  })

  it("repairs a name that arrives as UTF-8 mojibake", async () => {
    const utf8Bytes = Buffer.from(`${HEADER}\n${row({ NOM_ADM: "MAÑANA ASSET MANAGEMENT AGF S.A." })}\n`, "utf8")
    const { records } = await parse(new Uint8Array(utf8Bytes))
    expect(records[0]!.agfName).toBe("MAÑANA ASSET MANAGEMENT AGF S.A.")
  })

  it("accepts ',' as decimal separator and reads blank factors as null, present ones as numbers", async () => {
    const { records } = await parse(
      file(
        HEADER,
        row({ VALOR_CUOTA: "32900,5", CUOTAS_APORTADAS: "100,25" }),
        row({ FECHA_INF: "20260106", VALOR_CUOTA: "32500.1", "FACTOR DE AJUSTE": "1", "FACTOR DE REPARTO": "1,0123" })
      )
    )
    expect(records[0]).toMatchObject({ price: 32900.5, unitsSubscribed: 100.25, factorAjuste: null, factorReparto: null })
    expect(records[1]).toMatchObject({ price: 32500.1, factorAjuste: 1, factorReparto: 1.0123 })
  })

  it("accepts CRLF line ends and counts lines the same way", async () => {
    const bytes = latin1([HEADER, row(), row({ SERIE: "B" })].join("\r\n") + "\r\n")
    const { records } = await parse(bytes)
    expect(records.map((r) => [r.line, r.serie])).toEqual([
      [2, "A"],
      [3, "B"]
    ])
  })

  it("trims spaces around cells", async () => {
    const { records } = await parse(file(HEADER, row({ RUN_FM: " 8011 ", NOM_ADM: "SECURITY S.A.  ", VALOR_CUOTA: " 1.5" })))
    expect(records[0]).toMatchObject({ run: 8011, agfName: "SECURITY S.A.", price: 1.5 })
  })

  it("does not let a stray quote in a name swallow the following lines", async () => {
    const { records } = await parse(
      file(HEADER, row({ NOM_ADM: 'FONDOS "EL ROBLE S.A.' }), row({ SERIE: "B" }), row({ SERIE: "C" }))
    )
    expect(records.map((r) => r.serie)).toEqual(["A", "B", "C"])
    expect(records[0]!.agfName).toBe('FONDOS "EL ROBLE S.A.')
  })

  it("gives zero rows for a 'Sin información' body", async () => {
    expect(await parse(latin1("Sin información"))).toEqual({ records: [], duplicatesSkipped: 0, footnotesSkipped: 0 })
    expect((await parse(latin1("\r\nSin información\r\n"))).records).toEqual([])
  })

  it("skips blank lines and counts text-only footnote lines", async () => {
    const { records, footnotesSkipped } = await parse(
      file(HEADER, row(), "", row({ SERIE: "B" }), "(1) Cifras en pesos o en la moneda del fondo")
    )
    expect(records.map((r) => [r.line, r.serie])).toEqual([
      [2, "A"],
      [4, "B"]
    ])
    expect(footnotesSkipped).toBe(1)
  })
})

describe("parseCartola: duplicates", () => {
  it("skips and counts exact duplicates of (RUN_FM, SERIE, FECHA_INF)", async () => {
    const { records, duplicatesSkipped } = await parse(
      file(HEADER, row(), row({ SERIE: "B" }), row(), row({ SERIE: "B" }), row({ FECHA_INF: "20260106" }), row())
    )
    expect(duplicatesSkipped).toBe(3)
    expect(records.map((r) => r.line)).toEqual([2, 3, 6])
  })

  it("counts a repeat written with ',' instead of '.' as the same values", async () => {
    const { duplicatesSkipped } = await parse(file(HEADER, row(), row({ VALOR_CUOTA: "32900,5" })))
    expect(duplicatesSkipped).toBe(1)
  })

  it("rejects a repeated key with different values, naming both lines", async () => {
    const error = await failure(file(HEADER, row(), row({ SERIE: "B" }), row({ VALOR_CUOTA: "32900.6" })))
    expect(error._tag).toBe("CmfFileInvalid")
    expect(error).toMatchObject({ dataSet: "cartola_diaria", file: FILE, line: 4, field: "VALOR_CUOTA" })
    expect(error.message).toContain(`cartola_diaria ${FILE} line 4 field VALOR_CUOTA:`)
    expect(error.message).toContain("line 2")
  })
})

describe("parseCartola: rejected files", () => {
  it("rejects a bad number naming file, line and field", async () => {
    const error = await failure(file(HEADER, row(), row({ SERIE: "B", VALOR_CUOTA: "abc" })))
    expect(error).toMatchObject({ dataSet: "cartola_diaria", file: FILE, line: 3, field: "VALOR_CUOTA" })
    expect(error.message).toBe(`cartola_diaria ${FILE} line 3 field VALOR_CUOTA: expected a positive number, got "abc"`)
  })

  it("rejects numbers with thousands separators rather than misreading them", async () => {
    const error = await failure(file(HEADER, row({ PATRIMONIO_NETO: "164.502.500" })))
    expect(error).toMatchObject({ line: 2, field: "PATRIMONIO_NETO" })
  })

  it("rejects a row dated outside the dates the file's name gives (it would replace another day's values)", async () => {
    const error = await failure(file(HEADER, row(), row({ SERIE: "B", FECHA_INF: "20181215" })))
    expect(error).toMatchObject({ line: 3, field: "FECHA_INF" })
    expect(error.message).toBe(
      `cartola_diaria ${FILE} line 3 field FECHA_INF: 20181215 is outside the dates the file's name gives (2026-01-01 to 2026-01-31)`,
    )
    // a name without dates says nothing to check against
    expect((await Effect.runPromise(parseCartola(file(HEADER, row({ FECHA_INF: "20181215" })), "cartola.txt"))).records).toHaveLength(1)
  })

  it("rejects a date that is not on the calendar", async () => {
    const error = await failure(file(HEADER, row({ FECHA_INF: "20260230" })))
    expect(error).toMatchObject({ line: 2, field: "FECHA_INF" })
    expect(error.message).toContain('got "20260230"')
    expect((await failure(file(HEADER, row({ FECHA_INF: "2026-01-05" })))).field).toBe("FECHA_INF")
  })

  it("rejects a number no double holds (it would read as Infinity, which no JSON answer can carry)", async () => {
    const huge = "9".repeat(400)
    const error = await failure(file(HEADER, row({ VALOR_CUOTA: huge })))
    expect(error).toMatchObject({ line: 2, field: "VALOR_CUOTA" })
    expect(error.message).toContain("expected a positive number")
    expect(await failure(file(HEADER, row({ PATRIMONIO_NETO: huge })))).toMatchObject({ line: 2, field: "PATRIMONIO_NETO" })
  })

  it("rejects a series label or currency far longer than any real one, quoting only its start", async () => {
    const long = "A".repeat(50_000)
    const error = await failure(file(HEADER, row(), row({ SERIE: long })))
    expect(error).toMatchObject({ line: 3, field: "SERIE" })
    expect(error.message).toBe(
      `cartola_diaria ${FILE} line 3 field SERIE: expected a non-empty code of at most 100 characters, got "${"A".repeat(60)}…" (50,000 characters)`,
    )
    expect(await failure(file(HEADER, row({ MONEDA: "PESOS".repeat(21) })))).toMatchObject({ line: 2, field: "MONEDA" })
    expect(await failure(file(HEADER, row({ NOM_ADM: "X".repeat(1001) })))).toMatchObject({ line: 2, field: "NOM_ADM" })
    // the longest accepted: 100 and 1,000 characters
    expect((await parse(file(HEADER, row({ SERIE: "S".repeat(100), NOM_ADM: "N".repeat(1000) })))).records[0]).toMatchObject({ serie: "S".repeat(100) })
  })

  it("rejects a zero or negative price", async () => {
    expect(await failure(file(HEADER, row({ VALOR_CUOTA: "0" })))).toMatchObject({ line: 2, field: "VALOR_CUOTA" })
    expect(await failure(file(HEADER, row({ VALOR_CUOTA: "0.0000" })))).toMatchObject({ field: "VALOR_CUOTA" })
    expect(await failure(file(HEADER, row({ VALOR_CUOTA: "-1.5" })))).toMatchObject({ field: "VALOR_CUOTA" })
  })

  it("rejects a row with the wrong number of columns", async () => {
    const short = row().split(";").slice(0, 24).join(";")
    const error = await failure(file(HEADER, row(), short, row({ SERIE: "B" })))
    // The first missing column is the 25th.
    expect(error).toMatchObject({ line: 3, field: "FACTOR DE REPARTO" })
    expect(error.message).toContain("expected 25 columns, got 24")
    const long = `${row()};extra`
    expect(await failure(file(HEADER, long))).toMatchObject({ line: 2 })
  })

  it("rejects a file without its header", async () => {
    const error = await failure(file(row(), row({ SERIE: "B" })))
    expect(error).toMatchObject({ line: 1, field: "RUN_ADM" })
    expect(error.message).toContain("header")
    expect(await failure(latin1(""))).toMatchObject({ line: 1, field: "RUN_ADM" })
  })

  it("rejects a wrong header, naming the first column that differs", async () => {
    const error = await failure(file(HEADER.replace("VALOR_CUOTA", "VALOR CUOTA"), row()))
    expect(error).toMatchObject({ line: 1, field: "VALOR_CUOTA" })
  })

  it("rejects a truncated last line instead of dropping it", async () => {
    const cut = row().slice(0, 60)
    const error = await failure(latin1(`${HEADER}\n${row()}\n${cut}`))
    expect(error).toMatchObject({ line: 3 })
    expect(error.message).toContain("truncated last line")
    // A cut inside the first field leaves a single cell of digits: still an error, not a footnote.
    expect(await failure(latin1(`${HEADER}\n${row()}\n9663`))).toMatchObject({ line: 3 })
  })

  it("accepts a complete last line without a line end", async () => {
    const { records } = await parse(latin1(`${HEADER}\n${row()}`))
    expect(records).toHaveLength(1)
  })
})
