/** Calendar arithmetic for the sample on whole UTC days (days since 1970-01-01); no clock is read. */

const DAY_MS = 86_400_000

/** Chilean holidays on fixed dates (MM-DD); the sample has no rows on them. */
export const FIXED_HOLIDAYS: ReadonlySet<string> = new Set([
  "01-01", "05-01", "05-21", "06-29", "08-15", "09-18", "09-19", "10-12", "10-31", "11-01", "12-08", "12-25"
])

export const dayOf = (iso: string): number => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (m === null) throw new Error(`expected a date YYYY-MM-DD, got "${iso}"`)
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const ms = Date.UTC(y, mo - 1, d)
  if (new Date(ms).getUTCDate() !== d) throw new Error(`not a calendar date: "${iso}"`)
  return ms / DAY_MS
}

/** YYYY-MM-DD */
export const isoOf = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** YYYYMMDD, as in FECHA_INF and the cartola file names. */
export const ymdOf = (day: number): string => isoOf(day).replaceAll("-", "")

/** DD/MM/YYYY, as in the registry. */
export const dmyOf = (day: number): string => {
  const iso = isoOf(day)
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`
}

export const isBusinessDay = (day: number): boolean => {
  const weekday = new Date(day * DAY_MS).getUTCDay()
  return weekday !== 0 && weekday !== 6 && !FIXED_HOLIDAYS.has(isoOf(day).slice(5))
}

/** The first business day on or after `day`. */
export const businessDayOnOrAfter = (day: number): number => {
  let d = day
  while (!isBusinessDay(d)) d++
  return d
}

/** The last business day on or before `day`. */
export const businessDayOnOrBefore = (day: number): number => {
  let d = day
  while (!isBusinessDay(d)) d--
  return d
}

/**
 * The last business day before `today` (YYYY-MM-DD): where `make run`'s sample ends, so that its
 * batch is the one a daily run would serve today and /health is not stale on the day it is tried.
 */
export const businessDayBefore = (today: string): string => isoOf(businessDayOnOrBefore(dayOf(today) - 1))

export interface MonthRange {
  /** First calendar day of the month. */
  readonly first: number
  /** Last calendar day of the month, clamped to the end of the sample. */
  readonly last: number
  /** Business days in [first, last], ascending. */
  readonly businessDays: ReadonlyArray<number>
}

/** Calendar months covering [from, to]: first day of from's month .. to. */
export const monthsBetween = (from: number, to: number): ReadonlyArray<MonthRange> => {
  const months: Array<MonthRange> = []
  const start = new Date(from * DAY_MS)
  let y = start.getUTCFullYear()
  let m = start.getUTCMonth()
  for (;;) {
    const first = Date.UTC(y, m, 1) / DAY_MS
    if (first > to) break
    const last = Math.min(Date.UTC(y, m + 1, 1) / DAY_MS - 1, to)
    const businessDays: Array<number> = []
    for (let d = Math.max(first, from); d <= last; d++) if (isBusinessDay(d)) businessDays.push(d)
    months.push({ first, last, businessDays })
    m++
    if (m === 12) {
      m = 0
      y++
    }
  }
  return months
}
