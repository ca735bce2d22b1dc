/**
 * Quota days are America/Santiago calendar days. Chile changes its clocks at local midnight (the
 * first Saturday/Sunday of April and September): one day has 25 hours, another 23, and on that one
 * local 00:00 does not exist. So the reset is "the first instant of the next local date", found
 * from the zone itself, never "now + 24 h".
 */
const dayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Santiago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
})

// Intl formatting costs microseconds on every request; the day only changes at a second boundary.
let memoSecond = Number.NaN
let memoDay = ""

const dayOfSecond = (second: number): string => dayFormat.format(new Date(second * 1000))

/** The America/Santiago calendar date of an instant, as YYYY-MM-DD. */
export const santiagoDay = (at: Date): string => {
  const second = Math.floor(at.getTime() / 1000)
  if (second !== memoSecond) {
    memoSecond = second
    memoDay = dayOfSecond(second)
  }
  return memoDay
}

// The next reset only depends on the local date, so it is worked out once per date.
const resetMemo = new Map<string, number>()

/**
 * Unix time (seconds) at which the local date after `at`'s begins: the next quota reset.
 * Local days last 23 to 25 hours and zone changes fall on whole seconds, so the answer is the
 * first second within the next 26 hours whose local date differs (a binary search over Intl).
 */
export const nextSantiagoMidnight = (at: Date): number => {
  const now = Math.floor(at.getTime() / 1000)
  const today = santiagoDay(at)
  const known = resetMemo.get(today)
  if (known !== undefined && known > now) return known
  let lo = now // its date is today
  let hi = now + 26 * 3600 // its date is after today
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (dayOfSecond(mid) === today) lo = mid
    else hi = mid
  }
  if (resetMemo.size > 16) resetMemo.clear()
  resetMemo.set(today, hi)
  return hi
}
