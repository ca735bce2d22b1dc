import { describe, expect, it } from "vitest"
import { CmfSpheresSource } from "../../pipeline/datasets/market/CmfSpheres.ts"
import { failureOf, latin1, lines, parseWith, SPHERES_FILE, SPHERES_HEADER, utf8 } from "./marketFixtures.ts"

const FILE = "cmf_esferas.txt"
const parse = (bytes: Uint8Array) => parseWith(CmfSpheresSource, bytes, FILE)
const failure = (text: string) => failureOf(CmfSpheresSource, latin1(text), FILE)
const ROW = "8001;A;Accionario Nacional;Público general;4;2026-10-30"

describe("CmfSpheresSource", () => {
  it("reads the spheres of each series; blank ESFERAS is a series CMF does not rate", async () => {
    const { records, repairs } = await parse(latin1(SPHERES_FILE))
    expect(records).toEqual([
      { line: 2, run: 8001, serie: "A", family: "Accionario Nacional", investorType: "Público general", spheres: 4, date: "2026-10-30" },
      { line: 3, run: 8001, serie: "APV", family: "Accionario Nacional", investorType: "APV", spheres: null, date: "2026-10-30" }
    ])
    expect(repairs).toEqual({ duplicatesSkipped: 0, footnotesSkipped: 0 })
  })

  it("repairs labels that arrive as UTF-8 (mojibake once read as latin-1)", async () => {
    const { records } = await parse(utf8(SPHERES_FILE))
    expect(records[0]!.investorType).toBe("Público general")
  })

  it("counts identical repeats and rejects a series rated twice differently", async () => {
    expect((await parse(latin1(lines(SPHERES_HEADER, ROW, ROW)))).repairs.duplicatesSkipped).toBe(1)
    const error = await failure(lines(SPHERES_HEADER, ROW, ROW.replace(";4;", ";5;")))
    expect(error).toMatchObject({ dataSet: "cmf_spheres", file: FILE, line: 3, field: "ESFERAS" })
    expect(error.message).toContain("line 2")
  })

  it("rejects spheres outside 1–5, empty labels and bad dates, naming the column", async () => {
    const bad: ReadonlyArray<readonly [string, string]> = [
      [ROW.replace(";4;", ";0;"), "ESFERAS"],
      [ROW.replace(";4;", ";6;"), "ESFERAS"],
      [ROW.replace(";4;", ";3.5;"), "ESFERAS"],
      [ROW.replace(";4;", ";-;"), "ESFERAS"],
      [ROW.replace("Accionario Nacional", ""), "FAMILIA"],
      [ROW.replace("Público general", " "), "TIPO_INVERSIONISTA"],
      [ROW.replace("2026-10-30", "20261030"), "FECHA"],
      [ROW.replace("2026-10-30", ""), "FECHA"],
      [ROW.replace("8001", "RUN8001"), "RUN"]
    ]
    for (const [row, field] of bad) {
      expect(await failure(lines(SPHERES_HEADER, row))).toMatchObject({ line: 2, field })
    }
  })

  it("rejects a file without its header", async () => {
    expect(await failure(lines("RUN;SERIE;FAMILIA;TIPO_INVERSIONISTA;ESFERAS", ROW))).toMatchObject({ line: 1 })
  })

  it("has one key: the newest file replaces the older ones", () => {
    expect(CmfSpheresSource.key("x", latin1(SPHERES_FILE), "1".repeat(64))).toBe("cmf_spheres")
  })
})
