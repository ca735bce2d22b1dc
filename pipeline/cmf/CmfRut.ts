/**
 * Chilean RUT/RUN strings as CMF pages write them ("9251-7", "96.639.280-0"): the body without
 * dots and the check digit (módulo 11, "K" for 10), so a mistyped identifier is caught.
 */

/** The módulo-11 check digit of a RUT body: "0"–"9" or "K". */
export const rutCheckDigit = (body: number): string => {
  let sum = 0
  let factor = 2
  for (let n = body; n > 0; n = Math.floor(n / 10)) {
    sum += (n % 10) * factor
    factor = factor === 7 ? 2 : factor + 1
  }
  const digit = 11 - (sum % 11)
  return digit === 11 ? "0" : digit === 10 ? "K" : String(digit)
}

/** Body with or without thousands dots, a dash, the check digit. */
export const RUT_TEXT = /^(\d{1,3}(?:\.\d{3})+|\d+)-([0-9kK])$/

export interface RutText {
  readonly body: number
  /** As written, upper-cased. */
  readonly dv: string
  readonly valid: boolean
}

/** Reads "9251-7" / "96.639.280-0"; undefined when the text is not shaped like a RUT. */
export const readRut = (text: string): RutText | undefined => {
  const m = RUT_TEXT.exec(text.trim())
  if (m === null) return undefined
  const body = Number(m[1]!.replaceAll(".", ""))
  const dv = m[2]!.toUpperCase()
  return { body, dv, valid: body > 0 && rutCheckDigit(body) === dv }
}

/** "9251-7" */
export const formatRut = (body: number): string => `${body}-${rutCheckDigit(body)}`
