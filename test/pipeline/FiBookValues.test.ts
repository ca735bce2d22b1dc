import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FiBookValuesSource } from "../../pipeline/datasets/fi/FiBookValues.ts"

const FILE = "valores_9251_2025.html"
const HEADER =
  "<tr><th>Fecha</th><th>Serie</th><th>Moneda</th><th>Valor Libro</th><th>Valor Económico</th><th>Patrimonio Neto</th>" +
  "<th>Activo Total</th><th>N° Aportantes</th><th>N° Aportantes Institucionales</th><th>Agencia</th></tr>"
const tr = (...cells: Array<string>) => `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`
// The research notes' examples: "1375,0190" and "30.775.492.090".
const A_0102 = tr("02/01/2025", "A", "CLP", "1375,0190", "1.380,5000", "30.775.492.090", "31.002.000.000", "1.234", "3", "")
const I_0102 = tr("02/01/2025", "I", "CLP", "1.401,2500", "", "5.000.000", "31.002.000.000", "7", "7", "-")
const A_0103 = tr("03/01/2025", "A", "CLP", "1376,1000", "1381,0000", "30.800.000.000", "31.030.000.000", "1.236", "3", "AGENCIA CENTRO")

const html = (heading: string, header: string, rows: ReadonlyArray<string>) =>
  `<html><head><meta charset="utf-8"><title>CMF Chile</title></head><body>\n<div id="ficha">${heading}</div>\n` +
  `<table>\n<tr><th colspan="3">Valores cuota</th></tr>\n</table>\n` +
  `<table>\n${header}\n${rows.join("\n")}\n</table></body></html>`
const HEADING = '<h1>FONDO DE INVERSIÓN ÑUÑOA RENTA</h1><p><b>R.U.T.:</b> 9251-7</p><p>Desde: 01/01/2025 Hasta: 31/12/2025</p>'
const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"))
const page = (...rows: Array<string>) => utf8(html(HEADING, HEADER, rows))
const parse = (bytes: Uint8Array) => Effect.runPromise(FiBookValuesSource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(FiBookValuesSource.parse(bytes, FILE)))

describe("FiBookValuesSource.parse", () => {
  it("reads the values table: RUN from the heading, Chilean numbers with or without thousands dots, blanks and '-' as null", async () => {
    const { records } = await parse(page(A_0102, I_0102, A_0103))
    expect(records).toEqual([
      {
        line: 2, run: 9251, date: "2025-01-02", serie: "A", currencyCode: "CLP", bookValue: 1375.019, economicValue: 1380.5,
        patrimony: 30775492090, totalAssets: 31002000000, holders: 1234, institutionalHolders: 3, agency: null
      },
      {
        line: 3, run: 9251, date: "2025-01-02", serie: "I", currencyCode: "CLP", bookValue: 1401.25, economicValue: null,
        patrimony: 5000000, totalAssets: 31002000000, holders: 7, institutionalHolders: 7, agency: null
      },
      {
        line: 4, run: 9251, date: "2025-01-03", serie: "A", currencyCode: "CLP", bookValue: 1376.1, economicValue: 1381,
        patrimony: 30800000000, totalAssets: 31030000000, holders: 1236, institutionalHolders: 3, agency: "AGENCIA CENTRO"
      }
    ])
  })

  it("skips and counts 'Sin Información' rows (a whole-row note or in place of the values), repeated rows and headers", async () => {
    const sinInfo = '<tr><td colspan="10">Sin Información</td></tr>'
    const sinInfoDay = tr("06/01/2025", "A", "Sin informacion")
    const { records, repairs } = await parse(page(A_0102, sinInfoDay, A_0103, A_0103, HEADER, sinInfo))
    expect(records.map((r) => [r.line, r.date])).toEqual([[2, "2025-01-02"], [4, "2025-01-03"]])
    expect(repairs).toMatchObject({ sinInformacionRows: 2, duplicatesSkipped: 1, noteRows: 1 })
  })

  it("gives no records for a fund whose table only says 'Sin Información'", async () => {
    const { records, repairs } = await parse(page('<tr><td colspan="10">Sin Información</td></tr>'))
    expect(records).toEqual([])
    expect(repairs.sinInformacionRows).toBe(1)
  })

  it("rejects bad numbers and dates, naming the table row and column", async () => {
    // "." before four digits is not a Chilean number.
    const badNumber = await failure(page(A_0102, A_0103.replace("1376,1000", "1376.1000")))
    expect(badNumber).toMatchObject({ dataSet: "fi_book_values", file: FILE, line: 3, field: "Valor Libro" })
    expect(badNumber.message).toContain(`fi_book_values ${FILE} line 3 field Valor Libro: row 3 of the values table (row 1 = its header)`)
    expect(await failure(page(A_0102.replace("1375,0190", "0,0000")))).toMatchObject({ line: 2, field: "Valor Libro" })
    expect(await failure(page(A_0102.replace("1.234", "1.2345")))).toMatchObject({ line: 2, field: "N° Aportantes" })
    expect(await failure(page(A_0102.replace("02/01/2025", "31/02/2025")))).toMatchObject({ line: 2, field: "Fecha" })
    expect(await failure(page(A_0102.replace("02/01/2025", "2025-01-02")))).toMatchObject({ line: 2, field: "Fecha" })
    // Outside the heading's Desde/Hasta.
    expect(await failure(page(A_0102.replace("02/01/2025", "02/01/2026")))).toMatchObject({ line: 2, field: "Fecha" })
    const changed = await failure(page(A_0102, A_0102.replace("1375,0190", "1375,0191")))
    expect(changed).toMatchObject({ line: 3, field: "Valor Libro" })
    expect(changed.message).toBe(
      `fi_book_values ${FILE} line 3 field Valor Libro: row 3 of the values table (row 1 = its header): ` +
        "conflicts with row 2 for 2025-01-02 serie A: 1375.019 vs 1375.0191"
    )
    // Any other column counts, and a blank is named as such.
    const agency = await failure(page(A_0102, I_0102, A_0102.replace("<td></td></tr>", "<td>AGENCIA CENTRO</td></tr>")))
    expect(agency).toMatchObject({ line: 4, field: "Agencia" })
    expect(agency.message).toContain("row 4 of the values table (row 1 = its header): conflicts with row 2 for 2025-01-02 serie A: blank vs AGENCIA CENTRO")
    const holders = await failure(page(A_0102, A_0102.replace("1.234", "1.235")))
    expect(holders).toMatchObject({ line: 3, field: "N° Aportantes" })
  })

  it("rejects a page without the fund's R.U.T. in its heading, or with a wrong check digit", async () => {
    const noRut = await failure(utf8(html("<h1>FONDO DE INVERSIÓN ÑUÑOA RENTA</h1>", HEADER, [A_0102])))
    expect(noRut).toMatchObject({ line: 0, field: "R.U.T." })
    expect(noRut.message).toContain("cannot be attributed to a fund")
    // A RUT inside the table does not count.
    expect(await failure(utf8(html("<h1>X</h1>", HEADER, [A_0102, tr("R.U.T.: 9251-7")])))).toMatchObject({ line: 0, field: "R.U.T." })
    expect(await failure(utf8(html(HEADING.replace("9251-7", "9251-1"), HEADER, [A_0102])))).toMatchObject({ line: 0, field: "R.U.T." })
  })

  it("rejects a missing or renamed column and a short row", async () => {
    const noActivo = HEADER.replace("<th>Activo Total</th>", "")
    expect(await failure(utf8(html(HEADING, noActivo, [A_0102])))).toMatchObject({ line: 1, field: "Activo Total" })
    const renamed = HEADER.replace("Valor Libro", "Valor Cuota")
    expect(await failure(utf8(html(HEADING, renamed, [A_0102])))).toMatchObject({ line: 1, field: "Valor Libro" })
    expect(await failure(page(tr("02/01/2025", "A", "CLP", "1375,0190")))).toMatchObject({ line: 2, field: "Valor Económico" })
  })
})

describe("FiBookValuesSource.detect and key", () => {
  it("recognises a values page (header case and accents aside) and keys it RUN:year", () => {
    const bytes = page(A_0102)
    expect(FiBookValuesSource.detect(bytes)).toBe(true)
    expect(FiBookValuesSource.detect(utf8(html(HEADING, HEADER.toUpperCase(), [A_0102])))).toBe(true)
    expect(FiBookValuesSource.key("any-name.html", bytes, "sha")).toBe("9251:2025")
  })

  it("keys a page spanning years by its range, and one without a range by its rows' dates", () => {
    const span = utf8(html(HEADING.replace("01/01/2025", "01/12/2024"), HEADER, [A_0102]))
    expect(FiBookValuesSource.key("x", span, "sha")).toBe("9251:2024-12-01..2025-12-31")
    const noRange = utf8(html(HEADING.replace(/<p>Desde.*<\/p>/, ""), HEADER, [A_0102, A_0103]))
    expect(FiBookValuesSource.key("x", noRange, "sha")).toBe("9251:2025")
  })

  it("recognises a large page by its head, and does not claim lists, portfolios or text", () => {
    const many = Array.from({ length: 3000 }, () => A_0102)
    expect(FiBookValuesSource.detect(page(...many))).toBe(true)
    const list = html("<h1>Fondos de Inversión Rescatables - Vigentes</h1>", "<tr><th>R.U.T.</th><th>Entidad</th><th>Administradora</th></tr>", [])
    expect(FiBookValuesSource.detect(utf8(list))).toBe(false)
    const fechaOnly = html(HEADING, "<tr><th>Fecha</th><th>Monto</th></tr>", [])
    expect(FiBookValuesSource.detect(utf8(fechaOnly))).toBe(false)
    expect(FiBookValuesSource.detect(utf8("RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA\n"))).toBe(false)
  })
})
