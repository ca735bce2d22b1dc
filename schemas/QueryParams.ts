/**
 * Building blocks of the routes' query schemas. A query value arrives as text; each block decodes
 * it to the type the handler works with, or refuses it with the rule it broke (the 422 naming the
 * parameter is made in one place, api/security/SecurityLive.ts). The OpenAPI document shows the
 * decoded side (api/http/QueryDocs.ts): integers with their bounds, booleans, closed lists as
 * `enum`, defaults as `default`. Descriptions are set on both sides, so the MCP tools (which show
 * the text side) keep them too.
 */
import { Effect, Schema, SchemaTransformation } from "effect"
import { IsoDate } from "./Dates.ts"

/**
 * A check by a rule JSON Schema cannot state (a closed list read case-insensitively, an id list):
 * the document leaves the rule to the description. (Without a declared translation, effect's
 * JSON Schema compiler also drops the schema's description.)
 */
export const ruleCheck = <T>(check: (input: T) => Schema.FilterOutput) =>
  Schema.makeFilter(check, { toJsonSchema: () => [{}, true] })

/** A date range's ends, both inclusive and optional (/days, FI prices). */
export const dateRangeFields = {
  from_date: Schema.optionalKey(IsoDate.annotate({ description: "First date, inclusive (YYYY-MM-DD)" })),
  to_date: Schema.optionalKey(IsoDate.annotate({ description: "Last date, inclusive (YYYY-MM-DD); not before from_date" })),
}

/** from_date after to_date is refused, naming from_date: the range would be empty by construction. */
export const dateRangeCheck = ruleCheck<{ readonly from_date?: string; readonly to_date?: string }>(
  (q) =>
    q.from_date === undefined ||
    q.to_date === undefined ||
    q.from_date <= q.to_date || { path: ["from_date"], issue: `${q.from_date} is later than to_date ${q.to_date}` },
)

/** Decimal digits only, at most 16 (any safe integer; the bounds are checked on the number). */
export const DECIMAL_DIGITS = /^[0-9]{1,16}$/u

/**
 * An integer from `minimum` to `maximum`, written in decimal digits only. effect's own
 * Int-from-query decoding accepts any JavaScript number text (`1e2`, `2.0`, `+5`), which these
 * parameters refuse.
 */
export const QueryInt = (minimum: number, maximum: number, description: string) => {
  const rule = `an integer from ${minimum} to ${maximum}`
  return Schema.String.check(
    Schema.makeFilter((s: string) => DECIMAL_DIGITS.test(s) || `${rule} (got '${s}')`, {
      toJsonSchema: () => ({ pattern: DECIMAL_DIGITS.source }),
    }),
  )
    .annotate({ description })
    .pipe(
      Schema.decodeTo(
        Schema.Int.check(
          Schema.makeFilter((n: number) => (n >= minimum && n <= maximum) || `${rule} (got ${n})`, {
            toJsonSchema: () => ({ minimum, maximum }),
          }),
        ).annotate({ description }),
        SchemaTransformation.numberFromString,
      ),
    )
}

/** Text of at most `max` characters. */
export const QueryText = (max: number, description: string) =>
  Schema.String.check(Schema.isMaxLength(max, { message: `at most ${max} characters` })).annotate({ description })

/**
 * The annotation of a closed list's decoded side naming every spelling the parameter accepts (its
 * words and their aliases): the document's `enum` lists them (api/http/QueryDocs.ts), so a client
 * generated from it can send an alias (`currency: "USD"`), not only the canonical word.
 */
export const ACCEPTED_SPELLINGS = "fds/acceptedSpellings"

/**
 * A word of a closed list, read by `lookup` (case-insensitively, with aliases, as each list says)
 * and decoded to its canonical spelling; anything else is refused with `rule`. `spellings`: every
 * spelling `lookup` takes, up to letter case (the words and their aliases), as documented.
 */
export const QueryWord = <const W extends string>(
  words: ReadonlyArray<W>,
  lookup: (text: string) => W | undefined,
  rule: string,
  description: string,
  spellings: ReadonlyArray<string> = words,
) =>
  Schema.String.check(ruleCheck((s: string) => lookup(s) !== undefined || rule))
    .annotate({ description })
    .pipe(
      Schema.decodeTo(
        Schema.Literals(words).annotate({ description, [ACCEPTED_SPELLINGS]: spellings }),
        SchemaTransformation.transform({ decode: (s: string) => lookup(s) as W, encode: (w: W): string => w }),
      ),
    )

/** Case-insensitive lookup among `words`, each alias standing for the word it names. */
export const caseInsensitive = <const W extends string>(words: ReadonlyArray<W>, aliases: Readonly<Record<string, W>> = {}) => {
  const byKey = new Map<string, W>([
    ...words.map((w) => [w.toLowerCase(), w] as const),
    ...Object.entries(aliases).map(([alias, w]) => [alias.toLowerCase(), w] as const),
  ])
  return (text: string): W | undefined => byKey.get(text.toLowerCase())
}

/**
 * An optional parameter whose absence means `value`: the handler sees the value, and the
 * document declares it as the parameter's `default`.
 */
export const withDefault =
  <S extends Schema.Top>(value: S["Type"]) =>
  (self: S) =>
    Schema.withDecodingDefaultTypeKey(Effect.succeed(value))(self).annotate({ default: value })
