/** Calendar dates as the API and the CMF files write them; no time zones involved. */
import { Schema } from "effect"

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/

/** True when `y-m-d` is a real calendar date (2026-02-30 is not). */
export const isCalendarDate = (y: number, m: number, d: number): boolean => {
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2200) return false
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate()
}

export const isIsoDate = (s: string): boolean => {
  const m = ISO.exec(s)
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))
}

/** `YYYY-MM-DD` that is a real calendar date. */
export const IsoDate = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/u),
  // the pattern says the format in JSON Schema; the calendar check stays with the code (declared so, the description is kept)
  Schema.makeFilter((s: string) => isIsoDate(s) || "a real calendar date as YYYY-MM-DD", { toJsonSchema: () => [{}, true] }),
).annotate({ description: "A calendar date, YYYY-MM-DD", examples: ["2026-11-20"] })

/** 20261120 ⇄ "2026-11-20": quota dates are stored as integers in snapshots. */
export const dateToInt = (iso: string): number => Number(iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10))
export const intToDate = (n: number): string => {
  const s = String(n)
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`
}
