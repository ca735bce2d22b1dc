import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { SeriesRenamesSource } from "../../pipeline/datasets/fm/SeriesRenames.ts"

const HEADER = "RUN;OLD_SERIE;NEW_SERIE;FIRST_DATE"
const FILE = "series_renames.txt"
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\n") + "\n")
const parse = (bytes: Uint8Array) => Effect.runPromise(SeriesRenamesSource.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(SeriesRenamesSource.parse(bytes, FILE)))

describe("SeriesRenamesSource: parse", () => {
  it("reads one relabel per line; a chain of renames is allowed", async () => {
    const { records, repairs } = await parse(
      file(HEADER, "8012;B;BPRIV;2024-03-01", "9001;A;CLASICA;2021-07-15", "9001;CLASICA;DIGITAL;2023-01-02")
    )
    expect(records).toEqual([
      { line: 2, run: 8012, oldSerie: "B", newSerie: "BPRIV", firstDate: "2024-03-01" },
      { line: 3, run: 9001, oldSerie: "A", newSerie: "CLASICA", firstDate: "2021-07-15" },
      { line: 4, run: 9001, oldSerie: "CLASICA", newSerie: "DIGITAL", firstDate: "2023-01-02" }
    ])
    expect(repairs).toEqual({ duplicatesSkipped: 0, footnotesSkipped: 0 })
  })

  it("skips a line repeated verbatim and a note line, counted", async () => {
    const { records, repairs } = await parse(file(HEADER, "8012;B;BPRIV;2024-03-01", "8012;B;BPRIV;2024-03-01", "Revisado por operaciones"))
    expect(records).toHaveLength(1)
    expect(repairs).toEqual({ duplicatesSkipped: 1, footnotesSkipped: 1 })
  })

  it("rejects contradictory renames naming the earlier line", async () => {
    const twice = await failure(file(HEADER, "8012;B;BPRIV;2024-03-01", "8012;B;BPLUS;2024-03-01"))
    expect(twice).toMatchObject({ line: 3, field: "NEW_SERIE" })
    expect(twice.message).toBe(`series_renames ${FILE} line 3 field NEW_SERIE: conflicts with line 2 for RUN 8012 OLD_SERIE B: BPRIV vs BPLUS`)
    const later = await failure(file(HEADER, "8012;B;BPRIV;2024-03-01", "9001;A;CLASICA;2021-07-15", "8012;B;BPRIV;2024-03-04"))
    expect(later).toMatchObject({ line: 4, field: "FIRST_DATE" })
    expect(later.message).toContain("conflicts with line 2 for RUN 8012 OLD_SERIE B: 2024-03-01 vs 2024-03-04")
    // Two old labels into one new label is a merge, not a rename.
    const merge = await failure(file(HEADER, "8012;B;BPRIV;2024-03-01", "8012;C;BPRIV;2024-03-01"))
    expect(merge).toMatchObject({ line: 3, field: "NEW_SERIE" })
    expect(merge.message).toContain("BPRIV is already the new label of B at line 2")
    // A rename repeated with another label is named as a repeat even when that label is taken.
    const both = await failure(file(HEADER, "8012;B;X;2024-03-01", "8012;C;Y;2024-03-01", "8012;B;Y;2024-03-01"))
    expect(both).toMatchObject({ line: 4, field: "NEW_SERIE" })
    expect(both.message).toContain("conflicts with line 2 for RUN 8012 OLD_SERIE B: X vs Y")
    expect(await failure(file(HEADER, "8012;B;B;2024-03-01"))).toMatchObject({ line: 2, field: "NEW_SERIE" })
  })

  it("rejects bad cells, column counts, a truncated line and a missing header", async () => {
    expect(await failure(file(HEADER, "8012-K;B;BPRIV;2024-03-01"))).toMatchObject({ line: 2, field: "RUN" })
    expect(await failure(file(HEADER, "8012;B;BPRIV;2024-02-30"))).toMatchObject({ line: 2, field: "FIRST_DATE" })
    expect(await failure(file(HEADER, "8012;B;BPRIV;01/03/2024"))).toMatchObject({ line: 2, field: "FIRST_DATE" })
    expect(await failure(file(HEADER, "8012;;BPRIV;2024-03-01"))).toMatchObject({ line: 2, field: "OLD_SERIE" })
    expect(await failure(file(HEADER, "8012;B;BPRIV;2024-03-01;x"))).toMatchObject({ line: 2, field: "column 5" })
    const cut = await failure(latin1(`${HEADER}\n8012;B;BPRIV;2024-03-01\n9001;A`))
    expect(cut).toMatchObject({ line: 3, field: "NEW_SERIE" })
    expect(cut.message).toContain("truncated")
    expect(await failure(file("8012;B;BPRIV;2024-03-01"))).toMatchObject({ line: 1, field: "RUN" })
    expect(await failure(file(""))).toMatchObject({ line: 1, field: "RUN" })
  })
})

describe("SeriesRenamesSource: detect and key", () => {
  it("recognises its header only", () => {
    expect(SeriesRenamesSource.detect(file(HEADER, "8012;B;BPRIV;2024-03-01"))).toBe(true)
    for (const other of [
      "RUN;OLD_SERIE;NEW_SERIE",
      "RUN;SERIE;FAMILIA;TIPO_INVERSIONISTA;ESFERAS;FECHA",
      "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF;ACTIVO_TOT;MONEDA",
      "Run Fondo;Nombre Fondo;FFM_6010100;FFM_6010211",
      "Periodo;Administradora;Nombre Fondo;Tipo Fondo;Moneda;Serie",
      "REGLAMENTO INTERNO;RUN=8123;FECHA=2025-04-30",
      "Sin información"
    ]) {
      expect(SeriesRenamesSource.detect(file(other))).toBe(false)
    }
  })

  it("has one key: the newest list replaces the older", () => {
    expect(SeriesRenamesSource.key("a.txt", file(HEADER), "sha1")).toBe(SeriesRenamesSource.key("b.txt", file(HEADER, "1;A;B;2020-01-01"), "sha2"))
  })
})
