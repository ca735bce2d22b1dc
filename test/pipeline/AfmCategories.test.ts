import { describe, expect, it } from "vitest"
import { AfmCategoriesSource } from "../../pipeline/datasets/market/AfmCategories.ts"
import { AFM_CATEGORY_CODES, AFM_FAMILIES, afmFamilyOf } from "../../schemas/AfmFamilies.ts"
import { AFM_FILE, AFM_HEADER, failureOf, latin1, lines, parseWith } from "./marketFixtures.ts"

const FILE = "afm_categorias.txt"
const parse = (text: string) => parseWith(AfmCategoriesSource, latin1(text), FILE)
const failure = (text: string) => failureOf(AfmCategoriesSource, latin1(text), FILE)
const ROW = "8001;A;FDOACCNACLC;PESOS;2026-10-31"

describe("AfmCategoriesSource", () => {
  it("reads one record per series; S/C is an unclassified series", async () => {
    const { records, repairs } = await parse(AFM_FILE)
    expect(records).toEqual([
      { line: 2, run: 8001, serie: "A", category: "FDOACCNACLC", currency: "PESOS", date: "2026-10-31" },
      { line: 3, run: 8001, serie: "APV", category: "FDOACCNACLC", currency: "PESOS", date: "2026-10-31" },
      { line: 4, run: 8004, serie: "B", category: "RF<90INTUSD", currency: "DOLAR", date: "2026-10-31" },
      { line: 5, run: 8010, serie: "A", category: null, currency: "PESOS", date: "2026-10-31" }
    ])
    expect(repairs).toEqual({ duplicatesSkipped: 0, footnotesSkipped: 0 })
  })

  it("reads CRLF files, counts identical repeats and notes", async () => {
    const text = [AFM_HEADER, ROW, "8002;A;RF>365NUF>3<5;PESOS;2026-10-31", ROW, "(1) Fuente: AFM", ""].join("\r\n")
    const { records, repairs } = await parse(text)
    expect(records.map((r) => [r.run, r.category])).toEqual([
      [8001, "FDOACCNACLC"],
      [8002, "RF>365NUF>3<5"]
    ])
    expect(repairs).toEqual({ duplicatesSkipped: 1, footnotesSkipped: 1 })
  })

  it("rejects a series repeated with another category, naming both lines", async () => {
    const error = await failure(lines(AFM_HEADER, ROW, "8001;A;S/C;PESOS;2026-10-31"))
    expect(error).toMatchObject({ dataSet: "afm_categories", file: FILE, line: 3, field: "CATEGORIA_AFM" })
    expect(error.message).toContain("line 2")
    expect(error.message).toContain("FDOACCNACLC vs S/C")
  })

  it("rejects bad cells naming the column", async () => {
    const bad: ReadonlyArray<readonly [string, string]> = [
      ["8001;A;Accionario EEUU;PESOS;2026-10-31", "CATEGORIA_AFM"],
      ["8001;A;;PESOS;2026-10-31", "CATEGORIA_AFM"],
      ["8001;A;FDOACCNACLC;USD;2026-10-31", "MONEDA"],
      ["8001;A;FDOACCNACLC;PESOS;31/10/2026", "FECHA"],
      ["8001;A;FDOACCNACLC;PESOS;2026-02-30", "FECHA"],
      ["8001-5;A;FDOACCNACLC;PESOS;2026-10-31", "RUN"],
      ["8001;;FDOACCNACLC;PESOS;2026-10-31", "SERIE"],
      ["8001;A;FDOACCNACLC;PESOS", "FECHA"]
    ]
    for (const [row, field] of bad) {
      expect(await failure(lines(AFM_HEADER, ROW, row))).toMatchObject({ line: 3, field })
    }
  })

  it("rejects a file without its header", async () => {
    expect(await failure(lines(ROW))).toMatchObject({ line: 1, field: "RUN" })
    expect(await failure("")).toMatchObject({ line: 1 })
  })

  it("has one key: the newest file replaces the older ones", () => {
    expect(AfmCategoriesSource.key("a.txt", latin1(AFM_FILE), "a".repeat(64))).toBe(
      AfmCategoriesSource.key("b.txt", latin1(lines(AFM_HEADER, ROW)), "b".repeat(64))
    )
  })
})

describe("AFM_FAMILIES", () => {
  it("gives every Circular N°7 code a family with a display name and a URL-safe slug", () => {
    expect(AFM_CATEGORY_CODES).toHaveLength(24)
    for (const code of AFM_CATEGORY_CODES) {
      const family = AFM_FAMILIES[code]
      expect(family.familyRar.length).toBeGreaterThan(0)
      expect(family.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    }
    const families = Object.values(AFM_FAMILIES)
    expect(new Set(families.map((f) => f.slug)).size).toBe(families.length)
    expect(new Set(families.map((f) => f.familyRar)).size).toBe(families.length)
  })

  it("names the families as the reference contract does", () => {
    expect(afmFamilyOf("FDOACCEEUU")).toMatchObject({ familyRar: "Accionario eeuu", slug: "accionario-eeuu" })
    expect(afmFamilyOf("FDOACCNACLC")).toMatchObject({ familyRar: "Accionario nacional", displayGroup: "Accionario nacional" })
    expect(afmFamilyOf("FDOACCEEUU")?.displayGroup).toBe("Accionario internacional")
    expect(afmFamilyOf("RF<90NAC")?.familyRar).toBe("Deuda < 90 días nacional")
    expect(afmFamilyOf(null)).toBeNull()
  })
})
