/** Quota days are America/Santiago calendar days. */
const dayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Santiago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
})

// Intl formatting costs microseconds on every request; the day only changes at a second boundary.
let memoSecond = Number.NaN
let memoDay = ""

/** The America/Santiago calendar date of an instant, as YYYY-MM-DD. */
export const santiagoDay = (at: Date): string => {
  const second = Math.floor(at.getTime() / 1000)
  if (second !== memoSecond) {
    memoSecond = second
    memoDay = dayFormat.format(at)
  }
  return memoDay
}
