/** When a series is active: weekday counts read off a calendar (March 2026: the 1st is a Sunday). */
import { describe, expect, it } from "vitest"
import {
  earliestActiveDate,
  fundCurrent,
  fundEnded,
  seriesActive,
  weekdaysAfter,
} from "../../snapshots/compute/SeriesActivity.ts"

describe("weekdaysAfter (after the first date, up to and including the second)", () => {
  it.each([
    [20260316, 20260317, 1], // Mon → Tue
    [20260313, 20260316, 1], // Fri → Mon: the weekend does not count
    [20260312, 20260317, 3], // Thu → Tue: Fri, Mon, Tue
    [20260303, 20260317, 10], // two weeks
    [20260302, 20260317, 11],
    [20260320, 20260322, 0], // Fri → Sun
    [20260321, 20260323, 1], // Sat → Mon
    [20260317, 20260317, 0],
    [20260317, 20260316, 0], // a later last value counts nothing
    [20251231, 20260105, 3], // Wed → Mon across the year: Thu 1 Jan (a holiday, not known), Fri 2, Mon 5
    [20240228, 20240301, 2], // leap day: Thu 29 Feb, Fri 1 Mar
    [20260102, 20261225, 255], // Fri to Fri: 357 days, 51 whole weeks of 5
  ])("%i → %i: %i weekdays", (from, to, expected) => {
    expect(weekdaysAfter(from, to)).toBe(expected)
  })

  it("equals a day-by-day count over three years of pairs", () => {
    const days: number[] = []
    for (let t = Date.UTC(2025, 0, 1); t <= Date.UTC(2027, 11, 31); t += 86_400_000) days.push(t)
    const asInt = (t: number) => {
      const d = new Date(t)
      return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()
    }
    for (let i = 0; i < days.length; i += 37) {
      let count = 0
      for (let j = i + 1; j < days.length; j++) {
        const wd = new Date(days[j]!).getUTCDay()
        if (wd !== 0 && wd !== 6) count++
        if (j % 11 === 0) expect(weekdaysAfter(asInt(days[i]!), asInt(days[j]!))).toBe(count)
      }
    }
  })
})

describe("seriesActive", () => {
  const at = (lastDate: number, graceWeekdays = 10, fundEndDate: string | null = null) =>
    seriesActive({ fundEndDate, lastDate, batchDate: 20260317, graceWeekdays })

  it("a value 1, 3 or 10 weekdays back is active; 11 back has ended", () => {
    expect([20260317, 20260316, 20260312, 20260303, 20260302].map((d) => at(d))).toEqual([true, true, true, true, false])
  })

  it("with 3 weekdays of grace: 3 back (5 calendar days, across the weekend) is active, 4 back is not", () => {
    expect(at(20260312, 3)).toBe(true)
    expect(at(20260311, 3)).toBe(false)
  })

  it("with no grace only a value on the batch date (or the Friday before a weekend batch) is active", () => {
    expect(at(20260317, 0)).toBe(true)
    expect(at(20260316, 0)).toBe(false)
    expect(seriesActive({ fundEndDate: null, lastDate: 20260320, batchDate: 20260321, graceWeekdays: 0 })).toBe(true)
  })

  it("a registry end date on or before the batch date ends it, whatever its values; a later one does not", () => {
    expect(at(20260317, 10, "2026-03-17")).toBe(false)
    expect(at(20260316, 10, "2026-03-16")).toBe(false)
    expect(at(20260317, 10, "2026-03-18")).toBe(true)
    expect(fundEnded("2026-03-17", 20260317)).toBe(true)
    expect(fundEnded("2026-03-18", 20260317)).toBe(false)
    expect(fundEnded(null, 20260317)).toBe(false)
  })
})

describe("fundCurrent", () => {
  const current = (latestDate: number | null, fundEndDate: string | null = null) =>
    fundCurrent({ fundEndDate, latestDate, batchDate: 20260317, graceWeekdays: 10 })

  it("with an active series it is current; when its latest series has ended, it is not", () => {
    expect(current(20260303)).toBe(true)
    expect(current(20260302)).toBe(false)
  })

  it("registered without any value yet, it is current until the registry ends it", () => {
    expect(current(null)).toBe(true)
    expect(current(null, "2026-03-31")).toBe(true)
    expect(current(null, "2026-03-17")).toBe(false)
  })
})

/** The calendar day before a YYYYMMDD date, through Date (independent of Calendar.ts). */
const dayBefore = (date: number): number => {
  const d = new Date(Date.UTC(Math.floor(date / 10_000), (Math.floor(date / 100) % 100) - 1, (date % 100) - 1))
  return d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()
}

describe("earliestActiveDate", () => {
  it.each([
    [20260317, 10, 20260303],
    [20260317, 3, 20260312],
    [20260317, 1, 20260316],
    [20260317, 0, 20260317],
    [20260316, 1, 20260313], // Monday: Friday is one weekday back
    [20260316, 0, 20260316], // Monday, no grace: Friday's value has missed Monday
    [20260321, 0, 20260320], // Saturday: Friday's value has missed no weekday
    [20260322, 1, 20260319], // Sunday: Thursday's value missed only Friday
  ])("batch %i, grace %i → %i", (batchDate, grace, expected) => {
    expect(earliestActiveDate(batchDate, grace)).toBe(expected)
  })

  it("is exactly where seriesActive turns false, for every grace up to 30 and batch dates on every weekday", () => {
    for (const batchDate of [20260316, 20260317, 20260318, 20260319, 20260320, 20260321, 20260322]) {
      for (let grace = 0; grace <= 30; grace++) {
        const floor = earliestActiveDate(batchDate, grace)
        const active = (d: number) => seriesActive({ fundEndDate: null, lastDate: d, batchDate, graceWeekdays: grace })
        expect(active(floor), `${batchDate} ${grace}`).toBe(true)
        expect(active(dayBefore(floor)), `${batchDate} ${grace}`).toBe(false)
      }
    }
  })
})
