/** Calendar arithmetic on YYYYMMDD integers; expected dates read off a calendar. */
import { describe, expect, it } from "vitest"
import {
  addDays,
  daysBetween,
  endOfMonth,
  fromIsoDate,
  isValidDate,
  lastClosedMonthEnd,
  previousMonthEnd,
  previousYearEnd,
  shiftMonths,
  toIsoDate,
} from "../../snapshots/compute/Calendar.ts"

describe("shiftMonths", () => {
  it.each([
    [20260331, -1, 20260228], // 31 Feb does not exist → last day of Feb 2026
    [20240331, -1, 20240229], // leap year: Feb has 29
    [20240229, -12, 20230228], // 29 Feb 2023 does not exist
    [20260430, -1, 20260330], // 30 Mar exists: no clamp to 31
    [20260531, -1, 20260430],
    [20260430, 1, 20260530],
    [20260115, -1, 20251215], // across a year
    [20260831, -6, 20260228],
    [20260331, -36, 20230331],
    [20240229, -60, 20190228],
    [20251231, 2, 20260228],
  ])("%i %+i months → %i", (date, months, expected) => {
    expect(shiftMonths(date, months)).toBe(expected)
  })
})

describe("month and year ends", () => {
  it("endOfMonth handles leap years, including the century rules", () => {
    expect(endOfMonth(20240215)).toBe(20240229)
    expect(endOfMonth(20230215)).toBe(20230228)
    expect(endOfMonth(21000201)).toBe(21000228) // 2100 is not a leap year
    expect(endOfMonth(20000201)).toBe(20000229) // 2000 is
    expect(endOfMonth(20261105)).toBe(20261130)
  })
  it("previousMonthEnd and previousYearEnd", () => {
    expect(previousMonthEnd(20260315)).toBe(20260228)
    expect(previousMonthEnd(20260105)).toBe(20251231)
    expect(previousYearEnd(20260105)).toBe(20251231)
    expect(previousYearEnd(20261231)).toBe(20251231)
  })
  it("lastClosedMonthEnd: a month closes on its last calendar day", () => {
    expect(lastClosedMonthEnd(20261130)).toBe(20261130)
    expect(lastClosedMonthEnd(20261129)).toBe(20261031)
    expect(lastClosedMonthEnd(20261101)).toBe(20261031)
    expect(lastClosedMonthEnd(20260101)).toBe(20251231)
    expect(lastClosedMonthEnd(20240229)).toBe(20240229)
    expect(lastClosedMonthEnd(20240228)).toBe(20240131)
  })
})

describe("day counts", () => {
  it("daysBetween counts calendar days", () => {
    expect(daysBetween(20240228, 20240301)).toBe(2) // through 29 Feb
    expect(daysBetween(20230228, 20230301)).toBe(1)
    expect(daysBetween(20251231, 20260101)).toBe(1)
    expect(daysBetween(20261120, 20261113)).toBe(-7)
    expect(daysBetween(20250101, 20260101)).toBe(365)
    expect(daysBetween(20240101, 20250101)).toBe(366)
  })
  it("addDays crosses months and years", () => {
    expect(addDays(20240228, 2)).toBe(20240301)
    expect(addDays(20260101, -1)).toBe(20251231)
  })
})

describe("ISO conversion and validation", () => {
  it("round-trips and rejects dates that do not exist", () => {
    expect(toIsoDate(20260305)).toBe("2026-03-05")
    expect(fromIsoDate("2026-03-05")).toBe(20260305)
    expect(fromIsoDate("2026-02-30")).toBeNull()
    expect(fromIsoDate("2026-3-5")).toBeNull()
    expect(isValidDate(20240229)).toBe(true)
    expect(isValidDate(20230229)).toBe(false)
    expect(isValidDate(20261301)).toBe(false)
  })
})
