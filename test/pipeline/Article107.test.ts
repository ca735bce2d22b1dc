import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Article107Source } from "../../pipeline/datasets/fm/Article107.ts"

const HEADER = "REGLAMENTO INTERNO;RUN=8123;FECHA=2025-04-30"
const FOOTER = "FIN REGLAMENTO INTERNO"
const FILE = "art107_8123.txt"
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"))
const file = (...lines: Array<string>) => latin1(lines.join("\n") + "\n")
/** A whole regulation: header on line 1, `body` from line 2, the closing line last. */
const doc = (...body: Array<string>) => file(HEADER, ...body, FOOTER)
const parse = (bytes: Uint8Array) => Effect.runPromise(Article107Source.parse(bytes, FILE))
const failure = (bytes: Uint8Array) => Effect.runPromise(Effect.flip(Article107Source.parse(bytes, FILE)))
const classify = async (...body: Array<string>) => {
  const { status, evidence, seriesException } = (await parse(doc(...body))).records[0]!
  return { status, evidence, seriesException }
}

const ELIGIBLE = "El Fondo se acogerá a lo dispuesto en el artículo 107 de la Ley sobre Impuesto a la Renta."
const NOT_ELIGIBLE = "El Fondo no se acogerá al artículo 107 de la Ley sobre Impuesto a la Renta."

describe("Article107Source: the declaration", () => {
  it("reads the header and the declaration into one record", async () => {
    const { records, repairs } = await parse(doc("TÍTULO I. CARACTERÍSTICAS DEL FONDO", "", "El Fondo invierte en bonos.", ELIGIBLE))
    expect(records).toEqual([
      {
        run: 8123,
        regulationDate: "2025-04-30",
        status: "declares_eligible",
        evidence: [{ line: 5, text: ELIGIBLE }],
        seriesException: []
      }
    ])
    expect(repairs).toEqual({ mojibakeRepaired: 0 })
  })

  it("declares_not_eligible on a negated declaration, also 'ninguna de sus series'", async () => {
    expect(await classify(NOT_ELIGIBLE)).toEqual({ status: "declares_not_eligible", evidence: [{ line: 2, text: NOT_ELIGIBLE }], seriesException: [] })
    const none = "Ninguna de las series del Fondo podrá acogerse al art. 107 de la LIR."
    expect((await classify(none)).status).toBe("declares_not_eligible")
  })

  it("reads a series exception, even when its clause is negative", async () => {
    const text =
      "Las cuotas del Fondo podrán acogerse al beneficio tributario del artículo 107 de la Ley sobre Impuesto a la Renta, " +
      "con excepción de la Serie APV, la cual no podrá acogerse a dicho beneficio."
    expect(await classify(text)).toEqual({ status: "declares_eligible", evidence: [{ line: 2, text }], seriesException: ["APV"] })
  })

  it("reads a list of excepted series in a sentence spread over lines, with D.L. and N° inside", async () => {
    const { status, evidence, seriesException } = await classify(
      "Conforme a la Ley, el Fondo invierte en valores de oferta pública. El Fondo se acogerá al artículo 107 del D.L.",
      "N° 824, Ley sobre Impuesto a la Renta, con excepción de las Series A, B e I. Las demás series no tienen restricciones."
    )
    expect(status).toBe("declares_eligible")
    expect(evidence).toEqual([
      {
        line: 2,
        text: "El Fondo se acogerá al artículo 107 del D.L. N° 824, Ley sobre Impuesto a la Renta, con excepción de las Series A, B e I."
      }
    ])
    expect(seriesException).toEqual(["A", "B", "I"])
  })

  it("takes the series a separate negative sentence names as exceptions", async () => {
    const negative = "Las Series I y APV no se acogerán al artículo 107."
    expect(await classify(ELIGIBLE, negative)).toEqual({
      status: "declares_eligible",
      evidence: [{ line: 2, text: ELIGIBLE }, { line: 3, text: negative }],
      seriesException: ["I", "APV"]
    })
  })

  it("is unknown when contradictory, when the article is named without a declaration, or not named", async () => {
    expect(await classify(ELIGIBLE, NOT_ELIGIBLE)).toMatchObject({ status: "unknown", seriesException: [] })
    expect((await classify(ELIGIBLE, NOT_ELIGIBLE)).evidence).toHaveLength(2)
    const mention = "Para efectos del artículo 107 de la Ley sobre Impuesto a la Renta, los partícipes deberán consultar a sus asesores."
    expect(await classify(mention)).toEqual({ status: "unknown", evidence: [{ line: 2, text: mention }], seriesException: [] })
    expect(await classify("El Fondo se acogerá a las normas generales de tributación.")).toEqual({ status: "unknown", evidence: [], seriesException: [] })
  })

  it("ignores headings (no lower-case letters)", async () => {
    const { status } = await classify("TÍTULO IV. BENEFICIO TRIBUTARIO DEL ARTÍCULO 107", "", NOT_ELIGIBLE)
    expect(status).toBe("declares_not_eligible")
  })

  it("repairs a UTF-8 file, counting the lines", async () => {
    const utf8 = new Uint8Array(Buffer.from([HEADER, ELIGIBLE, FOOTER].join("\n"), "utf8"))
    const { records, repairs } = await parse(utf8)
    expect(records[0]!.evidence).toEqual([{ line: 2, text: ELIGIBLE }])
    expect(repairs).toEqual({ mojibakeRepaired: 1 })
  })
})

describe("Article107Source: malformed files", () => {
  it("rejects a missing or bad header naming the field", async () => {
    expect(await failure(file(""))).toMatchObject({ dataSet: "article107", file: FILE, line: 1, field: "REGLAMENTO INTERNO" })
    expect(await failure(file("", ELIGIBLE, FOOTER))).toMatchObject({ line: 2, field: "REGLAMENTO INTERNO" })
    expect(await failure(file("REGLAMENTO INTERNO;RUN=8123-K;FECHA=2025-04-30", ELIGIBLE, FOOTER))).toMatchObject({ line: 1, field: "RUN" })
    expect(await failure(file("REGLAMENTO INTERNO;RUN=8123;FECHA=2025-02-30", ELIGIBLE, FOOTER))).toMatchObject({ line: 1, field: "FECHA" })
    expect(await failure(file("REGLAMENTO INTERNO;RUN=8123;FECHA=30/04/2025", ELIGIBLE, FOOTER))).toMatchObject({ line: 1, field: "FECHA" })
    expect(await failure(file("REGLAMENTO INTERNO;RUN=8123", ELIGIBLE, FOOTER))).toMatchObject({ line: 1, field: "FECHA" })
  })

  it("rejects a truncated text, text after the closing line and an empty body", async () => {
    const truncated = await failure(file(HEADER, ELIGIBLE, "El Fondo invierte en"))
    expect(truncated).toMatchObject({ line: 3, field: "FIN REGLAMENTO INTERNO" })
    expect(truncated.message).toContain("truncated")
    expect(await failure(file(HEADER, ELIGIBLE, FOOTER, "", "más texto"))).toMatchObject({ line: 5, field: "FIN REGLAMENTO INTERNO" })
    expect(await failure(file(HEADER, "", FOOTER))).toMatchObject({ line: 3, field: "TEXTO" })
  })
})

describe("Article107Source: detect and key", () => {
  it("recognises its first line only", () => {
    expect(Article107Source.detect(doc(ELIGIBLE))).toBe(true)
    expect(Article107Source.detect(file("", "REGLAMENTO INTERNO;RUN=x"))).toBe(true)
    for (const other of [
      "RUN;OLD_SERIE;NEW_SERIE;FIRST_DATE",
      "RUN_ADM;NOM_ADM;RUN_FM;FECHA_INF",
      "Run Fondo;Nombre Fondo;FFM_6010100",
      "Periodo;Administradora;Nombre Fondo",
      "REGLAMENTO INTERNO DEL FONDO MUTUO X",
      ELIGIBLE
    ]) {
      expect(Article107Source.detect(file(other))).toBe(false)
    }
  })

  it("keys a text by its fund's RUN", () => {
    expect(Article107Source.key("any.txt", doc(ELIGIBLE), "sha")).toBe("8123")
    expect(Article107Source.key("any.txt", file("REGLAMENTO INTERNO;RUN=;FECHA=2025-04-30"), "sha")).toBe("sha")
  })
})
