/**
 * The published return rule written again, independently of snapshots/compute, for the property
 * test: from a list of (date, price) as /days gives it, the value of each window at a cutoff.
 * Dates are "YYYY-MM-DD" strings (they sort as dates); day arithmetic through Date.UTC.
 */

const parts = (iso: string): [number, number, number] => [Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10))]
const iso = (y: number, m: number, d: number): string =>
  `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`
const lastDay = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate()
const days = (from: string, to: string): number => {
  const [a, b, c] = parts(from)
  const [x, y, z] = parts(to)
  return (Date.UTC(x, y - 1, z) - Date.UTC(a, b - 1, c)) / 86_400_000
}

/** Whole calendar months back, the day kept unless the month is shorter (then its last day). */
const monthsBack = (date: string, months: number): string => {
  const [y, m, d] = parts(date)
  const index = y * 12 + (m - 1) - months
  const year = Math.floor(index / 12)
  const month = (index % 12) + 1
  return iso(year, month, Math.min(d, lastDay(year, month)))
}
const monthEnd = (date: string): string => {
  const [y, m] = parts(date)
  return iso(y, m, lastDay(y, m))
}
const endOfPreviousMonth = (date: string): string => {
  const [y, m] = parts(date)
  return m === 1 ? iso(y - 1, 12, 31) : iso(y, m - 1, lastDay(y, m - 1))
}

export type Day = readonly [date: string, price: number]

const lastOnOrBefore = (rows: ReadonlyArray<Day>, date: string): Day | undefined => {
  let found: Day | undefined
  for (const r of rows) if (r[0] <= date) found = r
  return found
}

export interface RuleWindow {
  readonly value: number | null
  readonly start: string | null
  readonly end: string | null
}

const MONTHS: Record<string, number> = { "1m": 1, "3m": 3, "6m": 6, "1y": 12, "3y_ann": 36, "5y_ann": 60 }
const YEARS: Record<string, number> = { "3y_ann": 3, "5y_ann": 5 }

/** One window by the rule: price return, 7-day staleness, no partial windows, 3y/5y annualized. */
export const ruleWindow = (rows: ReadonlyArray<Day>, cutoff: string, key: string): RuleWindow => {
  const d = lastOnOrBefore(rows, cutoff)
  if (d === undefined) return { value: null, start: null, end: null }
  let targetStart: string
  let targetEnd = cutoff
  if (key === "ytd") targetStart = iso(parts(d[0])[0] - 1, 12, 31)
  else if (key === "last_closed_month") {
    targetEnd = cutoff === monthEnd(cutoff) ? cutoff : endOfPreviousMonth(cutoff)
    targetStart = endOfPreviousMonth(targetEnd)
  } else targetStart = monthsBack(d[0], MONTHS[key] as number)
  const end = key === "last_closed_month" ? lastOnOrBefore(rows, targetEnd) : d
  const start = lastOnOrBefore(rows, targetStart)
  if (end === undefined || start === undefined) return { value: null, start: start?.[0] ?? null, end: end?.[0] ?? null }
  if (days(end[0], targetEnd) > 7 || days(start[0], targetStart) > 7) return { value: null, start: start[0], end: end[0] }
  const growth = end[1] / start[1]
  const years = YEARS[key]
  return { value: years === undefined ? growth - 1 : growth ** (1 / years) - 1, start: start[0], end: end[0] }
}
