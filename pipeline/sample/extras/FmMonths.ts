/** Closed calendar months for the monthly FM files of the sample (no clock is read). */
import { dayOf, isoOf } from "../Calendar.ts"

export interface ClosedMonth {
  /** YYYY-MM */
  readonly month: string
  /** First and last calendar day of the month (day numbers). */
  readonly first: number
  readonly last: number
}

/**
 * The months from `from` (YYYY-MM) whose last day plus `lagDays` (CMF's publication delay) is on
 * or before `endDay`, oldest first; only the newest `keep` when given.
 */
export const closedMonths = (from: string, endDay: number, lagDays: number, keep?: number): Array<ClosedMonth> => {
  const months: Array<ClosedMonth> = []
  let y = Number(from.slice(0, 4))
  let m = Number(from.slice(5, 7))
  for (;;) {
    const first = dayOf(`${y}-${String(m).padStart(2, "0")}-01`)
    const last = Date.UTC(y, m, 1) / 86_400_000 - 1
    if (last + lagDays > endDay) break
    months.push({ month: isoOf(first).slice(0, 7), first, last })
    m++
    if (m === 13) [y, m] = [y + 1, 1]
  }
  return keep === undefined ? months : months.slice(-keep)
}

/** Decimal text without a leading zero and without trailing zeros, as CMF's portfolio files write numbers (`.004`). */
export const cmfDecimal = (x: number, digits: number): string => {
  const s = x.toFixed(digits).replace(/\.?0+$/, "")
  return s.replace(/^(-?)0\./, "$1.") || "0"
}
