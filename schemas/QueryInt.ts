/**
 * An integer query parameter written in decimal digits only. effect's own Int-from-query decoding
 * accepts any JavaScript number text (`1e2`, `2.0`, `+5`), which the screener's parameters refuse:
 * every integer parameter refuses them the same way (422 naming it), and the contract says so
 * (`pattern`, `minimum`, `maximum`).
 */
import { Schema, SchemaTransformation } from "effect"

/** Decimal digits only, at most 16 (any safe integer; the bounds are checked on the number). */
export const DECIMAL_DIGITS = /^[0-9]{1,16}$/u

export const QueryInt = (minimum: number, maximum: number, description: string) =>
  Schema.String.check(Schema.isPattern(DECIMAL_DIGITS, { message: `an integer from ${minimum} to ${maximum}, in decimal digits` }))
    // on the text: the contract describes what is sent
    .annotate({ description })
    .pipe(
    Schema.decodeTo(
      Schema.Int.check(Schema.isBetween({ minimum, maximum }, { message: `an integer from ${minimum} to ${maximum}` })),
      SchemaTransformation.numberFromString,
    ),
  )
