/**
 * The cartola's rows are decoded without the schema when every cell passes its plain test
 * (`fastRow`): each cell's plain test must say exactly what its schema says, and a fast row must be
 * what the schema's decoding gives, or undefined where the schema refuses the row.
 */
import { Result, Schema, SchemaParser } from "effect"
import { describe, expect, it } from "vitest"
import {
  AnyText,
  acceptsOf,
  Code,
  cmfRow,
  DateYmd,
  fastRow,
  Name,
  NullableDateDmy,
  NullableDecimal,
  NullableFactor,
  NullableFundType,
  NullableWholeNumber,
  PositiveDecimal,
  Text,
  WholeNumber,
  YesNo,
} from "../../pipeline/cmf/CmfCells.ts"

const CELLS = {
  WholeNumber,
  NullableWholeNumber,
  NullableDecimal,
  PositiveDecimal,
  NullableFactor,
  Text,
  Code,
  Name,
  AnyText,
  YesNo,
  DateYmd,
  NullableDateDmy,
  NullableFundType,
}

/** Strings at the edges of what the cells accept. */
const CORPUS = [
  "",
  " ",
  "0",
  "1",
  "-1",
  "-0",
  "007",
  "12345678901234567890",
  "9007199254740991",
  "9007199254740992",
  "1.5",
  "1,5",
  "1,5,5",
  "1.",
  ".5",
  ",5",
  "-.5",
  "1e5",
  "1E-3",
  "Infinity",
  "NaN",
  "0x10",
  "1 000",
  "1.000,5",
  `1${"0".repeat(400)}`,
  `${"9".repeat(400)}.5`,
  "0.0000",
  "-0.0001",
  "S",
  "N",
  "s",
  "SI",
  "20260229",
  "20240229",
  "20261301",
  "2026111",
  "202611201",
  "29/02/2024",
  "29/02/2026",
  "1/2/2026",
  "01/02/2026",
  "1",
  "8",
  "9",
  "$$",
  "PROM",
  "x".repeat(100),
  "x".repeat(101),
  "x".repeat(1000),
  "x".repeat(1001),
  "ADMINISTRADORA GENERAL DE FONDOS SURA S.A.",
  "Ñandú",
]

describe("fast row decoding", () => {
  it("gives each cell a plain test that accepts exactly what its schema accepts", () => {
    for (const [name, schema] of Object.entries(CELLS)) {
      const accepts = acceptsOf(schema)
      expect(accepts, name).toBeDefined()
      const is = Schema.is(schema as Schema.Codec<unknown, unknown>)
      for (const s of CORPUS) expect(accepts!(s), `${name} ${JSON.stringify(s.slice(0, 40))}`).toBe(is(s))
    }
  })

  it("decodes a row as the schema does, and leaves to the schema every row it refuses", () => {
    const cells = [WholeNumber, Name, DateYmd, PositiveDecimal, NullableDecimal, NullableFactor, YesNo, Code, NullableWholeNumber] as const
    const convert = (c: ReadonlyArray<string>) => ({ rut: Number(c[0]), name: c[1], date: c[2], price: Number(c[3]), rest: c.slice(4) })
    const schema = SchemaParser.decodeUnknownResult(cmfRow(cells, convert))
    const fast = fastRow(cells, convert)!
    expect(fast).toBeDefined()
    // every row of cells drawn from the corpus, column by column, with a fixed-seed generator
    let seed = 42
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed
    }
    const valid = ["96767630", "FONDO Ñ", "20261120", "1234.5678", "", "0", "S", "A", "12"]
    let accepted = 0
    let refused = 0
    for (let n = 0; n < 5000; n++) {
      // mostly valid rows with one or two cells drawn from the corpus
      const row = [...valid]
      for (let k = 0; k < 1 + (next() % 2); k++) row[next() % row.length] = CORPUS[next() % CORPUS.length]!
      const slow = schema(row)
      const quick = fast(row)
      if (Result.isSuccess(slow)) {
        expect(quick, JSON.stringify(row)).toEqual(slow.success)
        accepted++
      } else {
        expect(quick, JSON.stringify(row)).toBeUndefined()
        refused++
      }
    }
    // both kinds were drawn
    expect(accepted).toBeGreaterThan(500)
    expect(refused).toBeGreaterThan(500)
    // a row of the wrong length is the schema's to refuse
    expect(fast(valid.slice(1))).toBeUndefined()
  })

  it("is not offered for a table with a cell that has no plain test", () => {
    const opaque = Schema.String.check(Schema.isPattern(/^a$/))
    expect(fastRow([WholeNumber, opaque] as const, (c) => ({ c }))).toBeUndefined()
  })
})
