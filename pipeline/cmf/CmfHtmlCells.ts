/**
 * Cell formats of the CMF HTML tables: Chilean numbers ("1.375,0190", "30.775.492.090": "." groups
 * thousands, "," is the decimal mark), dates DD/MM/YYYY with an optional time ("24/01/2019
 * 00:00:00", since 2024-06), RUT-shaped cells. A cell is validated first (`HtmlCell.valid`), then
 * converted by a trusted function (`chileanNumber`, ...) that assumes it is valid.
 */
import { RUT_TEXT } from "./CmfRut.ts"

export interface HtmlCell {
  /** Human wording of what the cell must hold, for `CmfFileInvalid` messages. */
  readonly expected: string
  readonly valid: (cell: string) => boolean
}

const cell = (expected: string, valid: (cell: string) => boolean): HtmlCell => ({ expected, valid })

// Either grouped by "." in threes, or plain digits; "," then decimals. "1375.0190" is refused: in a
// Chilean page a "." before four digits is a mistake, not a decimal point.
const CHILEAN = /^-?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$/
const DMY = /^(\d{2})\/(\d{2})\/(\d{4})(?: \d{1,2}:\d{2}(?::\d{2})?)?$/
/** Blank and "-" mean "no value" in the CMF tables. */
const isBlank = (s: string): boolean => s === "" || s === "-"

export const chileanNumber = (s: string): number => Number(s.replaceAll(".", "").replace(",", "."))
export const nullableChileanNumber = (s: string): number | null => (isBlank(s) ? null : chileanNumber(s))

const isCalendarDate = (y: number, m: number, d: number): boolean => {
  const t = new Date(Date.UTC(y, m - 1, d))
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d
}
const validDmy = (s: string): boolean => {
  const m = DMY.exec(s)
  return m !== null && isCalendarDate(Number(m[3]), Number(m[2]), Number(m[1]))
}

/** `DD/MM/YYYY[ hh:mm[:ss]]` → `YYYY-MM-DD` (the time is dropped). */
export const isoOfDmy = (s: string): string => `${s.slice(6, 10)}-${s.slice(3, 5)}-${s.slice(0, 2)}`
/** Blank, "-" and year 9999 ("no maturity") → null. */
export const nullableIsoOfDmy = (s: string): string | null => (isBlank(s) || s.slice(6, 10) === "9999" ? null : isoOfDmy(s))
export const nullableText = (s: string): string | null => (isBlank(s) ? null : s)

/** A number a double holds: a cell of hundreds of digits reads as Infinity, which no JSON answer can carry. */
const finite = (s: string): boolean => Number.isFinite(chileanNumber(s))

export const ChileanNumber = cell("a number like 1.234,56", (s) => CHILEAN.test(s) && finite(s))
export const PositiveChileanNumber = cell("a positive number like 1.375,0190", (s) => CHILEAN.test(s) && chileanNumber(s) > 0 && finite(s))
export const NullableChileanNumber = cell("a number like 1.234,56, or blank", (s) => isBlank(s) || (CHILEAN.test(s) && finite(s)))
export const NullableCount = cell(
  "a whole number like 1.234, or blank",
  (s) => isBlank(s) || (/^(?:\d{1,3}(?:\.\d{3})+|\d+)$/.test(s) && Number.isSafeInteger(chileanNumber(s))),
)
export const DateDmy = cell("a date DD/MM/YYYY", validDmy)
export const NullableDateDmy = cell("a date DD/MM/YYYY, or blank", (s) => isBlank(s) || validDmy(s))
export const Text = cell("a non-empty text", (s) => s !== "")
export const AnyText = cell("text", () => true)
export const RutCell = cell("a RUT like 9251-7", (s) => RUT_TEXT.test(s))
/** Issuer RUTs in portfolios: with or without check digit, blank or "-" when not Chilean. */
export const NullableIssuerRut = cell("a RUT like 97036000-K or 97036000, or blank", (s) => isBlank(s) || /^(?:\d{1,3}(?:\.\d{3})+|\d+)(?:-[0-9kK])?$/.test(s))
export const nullableIssuerRut = (s: string): number | null => (isBlank(s) ? null : Number(s.split("-")[0]!.replaceAll(".", "")))
