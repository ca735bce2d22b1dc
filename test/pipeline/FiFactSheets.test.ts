import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { FiFactSheetsSource } from "../../pipeline/datasets/fi/FiFactSheets.ts"

const FILE = "fi_fichas.txt"
const HEADER = "RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA"
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\r\n") + "\r\n")
const parse = (bytes: Uint8Array) => Effect.runPromise(FiFactSheetsSource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(FiFactSheetsSource.parse(bytes, FILE)))

describe("FiFactSheetsSource.parse", () => {
  it("reads TAC in percent with ',' or '.', the review state and the sheet date; NO_INFORMADA and CONFLICTO may lack a TAC", async () => {
    const { records } = await parse(
      file(HEADER, "9251;UNICA;1,25;REVISADA;15/10/2026", "9251;B;0.95;PENDIENTE;01/11/2026", "7011;A;;NO_INFORMADA;", "7008;UNICA;;CONFLICTO;24/09/2026")
    )
    expect(records).toEqual([
      { line: 2, run: 9251, serie: "UNICA", tacPercent: 1.25, review: "REVISADA", sheetDate: "2026-10-15" },
      { line: 3, run: 9251, serie: "B", tacPercent: 0.95, review: "PENDIENTE", sheetDate: "2026-11-01" },
      { line: 4, run: 7011, serie: "A", tacPercent: null, review: "NO_INFORMADA", sheetDate: null },
      { line: 5, run: 7008, serie: "UNICA", tacPercent: null, review: "CONFLICTO", sheetDate: "2026-09-24" }
    ])
  })

  it("skips repeated identical lines and text-only notes, counting them", async () => {
    const line = "9251;UNICA;1,25;REVISADA;15/10/2026"
    const { records, repairs } = await parse(file(HEADER, line, line, "", "Fuente: fichas CMF revisadas a mano"))
    expect(records).toHaveLength(1)
    expect(repairs).toEqual({ duplicatesSkipped: 1, footnotesSkipped: 1 })
  })

  it("rejects bad cells and broken review rules, naming line and column", async () => {
    const cases: Array<[string, string]> = [
      ["9251;UNICA;1,25;REVISAD;15/10/2026", "ESTADO_REVISION"],
      ["9251;UNICA;;REVISADA;15/10/2026", "TAC"],
      ["9251;UNICA;1,25;PENDIENTE;", "FECHA_FICHA"],
      ["9251;UNICA;0,50;NO_INFORMADA;", "TAC"],
      ["9251;UNICA;1,2,5;REVISADA;15/10/2026", "TAC"],
      ["9251;UNICA;-0,5;REVISADA;15/10/2026", "TAC"],
      ["9251;UNICA;1,25;REVISADA;31/09/2026", "FECHA_FICHA"],
      ["9251-7;UNICA;1,25;REVISADA;15/10/2026", "RUN"],
      ["9251;UNICA;1,25;REVISADA", "FECHA_FICHA"]
    ]
    for (const [line, field] of cases) {
      const error = await failure(file(HEADER, "7002;UNICA;0,56;REVISADA;05/08/2026", line))
      expect(error, line).toMatchObject({ dataSet: "fi_fact_sheets", file: FILE, line: 3, field })
      expect(error.message).toContain(`fi_fact_sheets ${FILE} line 3 field ${field}:`)
    }
  })

  it("rejects a series repeated with other values, naming both lines, the column and both values", async () => {
    const error = await failure(file(HEADER, "9251;UNICA;1,25;REVISADA;15/10/2026", "9251;UNICA;1,30;REVISADA;15/10/2026"))
    expect(error).toMatchObject({ line: 3, field: "TAC" })
    expect(error.message).toBe(`fi_fact_sheets ${FILE} line 3 field TAC: conflicts with line 2 for RUN 9251 SERIE UNICA: 1.25 vs 1.3`)
    const state = await failure(file(HEADER, "9251;UNICA;1,25;REVISADA;15/10/2026", "7002;A;;NO_INFORMADA;", "9251;UNICA;1,25;CONFLICTO;15/10/2026"))
    expect(state).toMatchObject({ line: 4, field: "ESTADO_REVISION" })
    expect(state.message).toContain("conflicts with line 2 for RUN 9251 SERIE UNICA: REVISADA vs CONFLICTO")
    const date = await failure(file(HEADER, "7002;A;;CONFLICTO;", "7002;A;;CONFLICTO;24/09/2026"))
    expect(date).toMatchObject({ line: 3, field: "FECHA_FICHA" })
    expect(date.message).toContain("conflicts with line 2 for RUN 7002 SERIE A: blank vs 2026-09-24")
  })

  it("rejects a missing column in the header", async () => {
    expect(await failure(file("RUN;SERIE;TAC;ESTADO_REVISION", "9251;UNICA;1,25;REVISADA"))).toMatchObject({ line: 1, field: "FECHA_FICHA" })
  })
})

describe("FiFactSheetsSource.detect and key", () => {
  it("recognises its header (latin-1 or UTF-8) and keeps one file: the newest replaces the older", () => {
    expect(FiFactSheetsSource.detect(file(HEADER, "9251;UNICA;1,25;REVISADA;15/10/2026"))).toBe(true)
    expect(FiFactSheetsSource.detect(new Uint8Array(Buffer.from(`\ufeff${HEADER}\n`, "utf8")))).toBe(true)
    expect(FiFactSheetsSource.key("a.txt", file(HEADER), "sha1")).toBe(FiFactSheetsSource.key("b.txt", file(HEADER, "1;A;;NO_INFORMADA;"), "sha2"))
  })

  it("does not claim other files", () => {
    expect(FiFactSheetsSource.detect(file("RUN;SERIE;TICKER;BOLSA"))).toBe(false)
    expect(FiFactSheetsSource.detect(file("RUN;SERIE;TAC;ESTADO_REVISION;FECHA_FICHA;EXTRA"))).toBe(false)
    expect(FiFactSheetsSource.detect(file("9251;UNICA;1,25;REVISADA;15/10/2026"))).toBe(false)
    expect(FiFactSheetsSource.detect(latin1("<html><table><tr><th>RUN</th></tr></table></html>"))).toBe(false)
  })
})
