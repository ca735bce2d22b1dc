/** Quota days are America/Santiago calendar days. */
const dayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Santiago",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
})

/** The America/Santiago calendar date of an instant, as YYYY-MM-DD. */
export const santiagoDay = (at: Date): string => dayFormat.format(at)
