import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FiRegistrySource } from "../../pipeline/datasets/fi/FiRegistry.ts"

const FILE = "consulta_FIRES_VI.html"
// Check digits by módulo 11: 9251 → 1·2+5·3+2·4+9·5 = 70, 11 − 70 mod 11 = 7; 9160 → 67, 11 − 1 = 10 → K;
// 7002 → 2·2+7·5 = 39, 11 − 6 = 5.
const ROW_9251 =
  '<tr><td><a href="entidad.php?mercado=V&amp;rut=9251&amp;tipoentidad=FIRES&amp;vig=VI&amp;pestania=1">9251-7</a></td><td>FONDO DE INVERSIÓN ÑUÑOA RENTA</td><td>ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A.</td></tr>'
const ROW_9160 =
  '<tr><td><a href="entidad.php?mercado=V&amp;rut=9160&amp;tipoentidad=FIRES&amp;vig=VI&amp;pestania=1">9160-K</a></td><td>FONDO DE INVERSIÓN ANDES &amp; MAR</td><td>ANDES AGF S.A.</td></tr>'
const HEADER = "<tr><th>R.U.T.</th><th>Entidad</th><th>Administradora</th></tr>"

const html = (title: string, header: string, rows: ReadonlyArray<string>, charset = "iso-8859-1") =>
  `<!DOCTYPE html>\n<html><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}">` +
  `<title>${title}</title><script>var m = "<table><tr><td>R.U.T.</td></tr></table>";</script></head>\n` +
  `<body><div id="menu">Fondos Mutuos Vigentes</div>\n<table class="tabla">\n<thead>${header}</thead>\n<tbody>\n${rows.join("\n")}\n</tbody></table></body></html>\n`
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const vigentes = (...rows: Array<string>) => latin1(html("CMF Chile - Fondos de Inversión Rescatables - Vigentes", HEADER, rows))
const parse = (bytes: Uint8Array) => Effect.runPromise(FiRegistrySource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(FiRegistrySource.parse(bytes, FILE)))

describe("FiRegistrySource.parse", () => {
  it("reads a latin-1 list page: RUN without check digit, names, type and status from the page title", async () => {
    const { records, repairs } = await parse(vigentes(ROW_9251, ROW_9160))
    expect(records).toEqual([
      {
        line: 2,
        run: 9251,
        name: "FONDO DE INVERSIÓN ÑUÑOA RENTA",
        agfName: "ADMINISTRADORA GENERAL DE FONDOS ÑUÑOA S.A.",
        regulatoryType: "FIRES",
        status: "active",
        stateText: null
      },
      { line: 3, run: 9160, name: "FONDO DE INVERSIÓN ANDES & MAR", agfName: "ANDES AGF S.A.", regulatoryType: "FIRES", status: "active", stateText: null }
    ])
    expect(repairs).toMatchObject({ duplicatesSkipped: 0, mojibakeRepaired: 0 })
  })

  it("reads a no-vigentes page with an Estado column, repairing UTF-8 sent under a latin-1 declaration", async () => {
    const header = "<tr><th>R.U.T.</th><th>Entidad</th><th>Administradora</th><th>Estado</th></tr>"
    const row = "<tr><td>9251-7</td><td>FONDO DE INVERSIÓN ÑUÑOA RENTA</td><td>ÑUÑOA AGF S.A.</td><td>No Vigente</td></tr>"
    const page = html("Fondos de Inversión Rescatables - No Vigentes", header, [row])
    const { records, repairs } = await parse(new Uint8Array(Buffer.from(page, "utf8")))
    expect(records).toEqual([
      { line: 2, run: 9251, name: "FONDO DE INVERSIÓN ÑUÑOA RENTA", agfName: "ÑUÑOA AGF S.A.", regulatoryType: "FIRES", status: "inactive", stateText: "No Vigente" }
    ])
    // The title, the fund name and the administrator were mojibake.
    expect(repairs.mojibakeRepaired).toBe(3)
  })

  it("tells the list from its rows' links when the page has no title saying it (UTF-8 declared)", async () => {
    const row = '<tr><td><a href="entidad.php?rut=7002&amp;tipoentidad=FINRE&amp;vig=NV">7002-5</a></td><td>FONDO DE INVERSIÓN X</td><td>X AGF</td></tr>'
    const bytes = new Uint8Array(Buffer.from(html("CMF Chile", HEADER, [row], "utf-8"), "utf8"))
    const { records } = await parse(bytes)
    expect(records).toEqual([
      { line: 2, run: 7002, name: "FONDO DE INVERSIÓN X", agfName: "X AGF", regulatoryType: "FINRE", status: "inactive", stateText: null }
    ])
    expect(FiRegistrySource.key("x.html", bytes, "sha")).toBe("FINRE-NV")
  })

  it("skips a repeated identical row and counts it; rejects a RUN repeated with other values", async () => {
    const { records, repairs } = await parse(vigentes(ROW_9251, ROW_9160, ROW_9251))
    expect(records.map((r) => r.run)).toEqual([9251, 9160])
    expect(repairs.duplicatesSkipped).toBe(1)
    const renamed = ROW_9251.replace("RENTA", "RENTA II")
    const error = await failure(vigentes(ROW_9251, renamed))
    expect(error).toMatchObject({ dataSet: "fi_registry", file: FILE, line: 3, field: "Entidad" })
    expect(error.message).toBe(
      `fi_registry ${FILE} line 3 field Entidad: row 3 of the funds table (row 1 = its header): ` +
        "conflicts with row 2 for RUN 9251: FONDO DE INVERSIÓN ÑUÑOA RENTA vs FONDO DE INVERSIÓN ÑUÑOA RENTA II"
    )
    const moved = await failure(vigentes(ROW_9251, ROW_9160, ROW_9251.replace("ÑUÑOA S.A.", "ANDES S.A.")))
    expect(moved).toMatchObject({ line: 4, field: "Administradora" })
    expect(moved.message).toContain("row 4 of the funds table (row 1 = its header): conflicts with row 2 for RUN 9251:")
  })

  it("rejects a RUN repeated with another Estado on a no-vigentes page, a blank Estado named as such", async () => {
    const header = "<tr><th>R.U.T.</th><th>Entidad</th><th>Administradora</th><th>Estado</th></tr>"
    const row = (estado: string) => `<tr><td>9251-7</td><td>FONDO X</td><td>X AGF</td><td>${estado}</td></tr>`
    const page = (...rows: Array<string>) => latin1(html("Fondos de Inversión Rescatables - No Vigentes", header, rows))
    const same = await parse(page(row("No Vigente"), row("No Vigente")))
    expect(same.records).toHaveLength(1)
    expect(same.repairs.duplicatesSkipped).toBe(1)
    const error = await failure(page(row(""), row("No Vigente")))
    expect(error).toMatchObject({ line: 3, field: "Estado" })
    expect(error.message).toContain("conflicts with row 2 for RUN 9251: blank vs No Vigente")
  })

  it("rejects a wrong check digit, naming the table row and column", async () => {
    const error = await failure(vigentes(ROW_9160, ROW_9251.replace("9251-7", "9251-1")))
    expect(error).toMatchObject({ line: 3, field: "R.U.T." })
    expect(error.message).toContain(`fi_registry ${FILE} line 3 field R.U.T.: row 3 of the funds table`)
    expect(error.message).toContain('wrong check digit in "9251-1"')
  })

  it("rejects a malformed R.U.T., a missing column and a row with too few cells", async () => {
    expect(await failure(vigentes(ROW_9251.replace("9251-7", "9251")))).toMatchObject({ line: 2, field: "R.U.T." })
    const noAdmin = latin1(html("Fondos de Inversión Rescatables - Vigentes", "<tr><th>R.U.T.</th><th>Entidad</th></tr>", [ROW_9251]))
    expect(await failure(noAdmin)).toMatchObject({ line: 1, field: "Administradora" })
    expect(await failure(vigentes("<tr><td>9251-7</td><td>FONDO X</td></tr>"))).toMatchObject({ line: 2, field: "Administradora" })
  })

  it("rejects a page that does not say which list it is", async () => {
    const row = "<tr><td>9251-7</td><td>FONDO X</td><td>X AGF</td></tr>"
    const error = await failure(latin1(html("CMF Chile", HEADER, [row])))
    expect(error).toMatchObject({ line: 0, field: "list" })
    expect(error.message).toContain("line 0 field list: page (line 0 = outside the tables)")
  })
})

describe("FiRegistrySource.detect and key", () => {
  it("recognises the four lists by content and keys them entidad-estado", () => {
    const titles: Array<[string, string]> = [
      ["Fondos de Inversión Rescatables - Vigentes", "FIRES-VI"],
      ["Fondos de Inversión Rescatables - No Vigentes", "FIRES-NV"],
      ["Fondos de Inversión No Rescatables - Vigentes", "FINRE-VI"],
      ["Fondos de Inversión No Rescatables - No Vigentes", "FINRE-NV"]
    ]
    for (const [title, key] of titles) {
      const bytes = latin1(html(title, HEADER, ["<tr><td>9251-7</td><td>F</td><td>A</td></tr>"]))
      expect(FiRegistrySource.detect(bytes)).toBe(true)
      expect(FiRegistrySource.key("whatever.html", bytes, "sha")).toBe(key)
    }
  })

  it("does not claim other CMF lists, other FI pages or text files", () => {
    const fm = html("CMF Chile - Fondos Mutuos - Vigentes", "<tr><th>R.U.T.</th><th>Entidad</th></tr>", [
      '<tr><td><a href="entidad.php?rut=8638&amp;tipoentidad=RGFMU&amp;vig=VI">8638-1</a></td><td>FONDO MUTUO X</td></tr>'
    ])
    expect(FiRegistrySource.detect(latin1(fm))).toBe(false)
    const values = html("Fondos de Inversión Rescatables - Vigentes", "<tr><th>Fecha</th><th>Serie</th><th>Valor Libro</th></tr>", [])
    expect(FiRegistrySource.detect(latin1(values))).toBe(false)
    expect(FiRegistrySource.detect(latin1("RUN;SERIE;TICKER;BOLSA\n9251;UNICA;CFIETFIPSA;BCS\n"))).toBe(false)
    expect(FiRegistrySource.detect(latin1(""))).toBe(false)
  })
})
