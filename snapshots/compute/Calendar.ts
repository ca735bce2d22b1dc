/**
 * Calendar arithmetic on YYYYMMDD integers (the snapshot's date encoding): pure integer maths, no
 * clock and no time zone, so the pipeline and the API get the same windows on any machine.
 */

const DAY_MS = 86_400_000

/** The year of a YYYYMMDD date. */
export const yearOf = (date: number): number => Math.floor(date / 10_000)

/** The month (1–12) of a YYYYMMDD date. */
export const monthOf = (date: number): number => Math.floor(date / 100) % 100

/** The day of month of a YYYYMMDD date. */
export const dayOf = (date: number): number => date % 100

/** Builds a YYYYMMDD date from its parts (no validation). */
export const makeDate = (year: number, month: number, day: number): number => year * 10_000 + month * 100 + day

/** Gregorian leap year. */
export const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

/** Number of days of a month (1–12) in a year. */
export const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** True when the integer is a real calendar date YYYYMMDD (rejects 20260230, 20261301, …). */
export const isValidDate = (date: number): boolean => {
  if (!Number.isInteger(date) || date < 10_000_101 || date > 99_991_231) return false
  const m = monthOf(date)
  const d = dayOf(date)
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(yearOf(date), m)
}

/**
 * Shifts by whole calendar months, keeping the day of month and clamping to the month's last day
 * only when that day does not exist (dateutil's rule): 20260331 −1 → 20260228, 20240229 −12 →
 * 20230228, 20260430 −1 → 20260330 (not 0331: the 30th exists in March).
 */
export const shiftMonths = (date: number, months: number): number => {
  const index = yearOf(date) * 12 + (monthOf(date) - 1) + months
  const year = Math.floor(index / 12)
  const month = index - year * 12 + 1
  return makeDate(year, month, Math.min(dayOf(date), daysInMonth(year, month)))
}

/** The last calendar day of the date's month. */
export const endOfMonth = (date: number): number =>
  makeDate(yearOf(date), monthOf(date), daysInMonth(yearOf(date), monthOf(date)))

/** The last calendar day of the month before the date's month. */
export const previousMonthEnd = (date: number): number => endOfMonth(shiftMonths(makeDate(yearOf(date), monthOf(date), 1), -1))

/**
 * The end of the last calendar month that is complete on `asOf`. A month is complete once its
 * last day is reached, so on 20261130 November itself counts (that day's quotes are inside the
 * cutoff); on 20261129 the answer is 20261031.
 */
export const lastClosedMonthEnd = (asOf: number): number => (asOf === endOfMonth(asOf) ? asOf : previousMonthEnd(asOf))

/** 31 December of the year before the date's year (the `ytd` base target). */
export const previousYearEnd = (date: number): number => makeDate(yearOf(date) - 1, 12, 31)

/** Days since 1970-01-01 (UTC calendar, so no daylight-saving gaps). */
export const dayNumber = (date: number): number => Date.UTC(yearOf(date), monthOf(date) - 1, dayOf(date)) / DAY_MS

/** Calendar days from `from` to `to` (positive when `to` is later). */
export const daysBetween = (from: number, to: number): number => dayNumber(to) - dayNumber(from)

/** The date `days` calendar days after (or before, if negative) `date`. */
export const addDays = (date: number, days: number): number => {
  const d = new Date((dayNumber(date) + days) * DAY_MS)
  return makeDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())
}

/** YYYYMMDD → "YYYY-MM-DD" (the API's date format). */
export const toIsoDate = (date: number): string =>
  `${String(yearOf(date)).padStart(4, "0")}-${String(monthOf(date)).padStart(2, "0")}-${String(dayOf(date)).padStart(2, "0")}`

/** "YYYY-MM-DD" → YYYYMMDD, or null when it is not a real calendar date. */
export const fromIsoDate = (iso: string): number | null => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (m === null) return null
  const date = makeDate(Number(m[1]), Number(m[2]), Number(m[3]))
  return isValidDate(date) ? date : null
}
