/** The pure FI status rules (snapshots/compute/FiStatus.ts) and the batch times, with worked examples. */
import { describe, expect, it } from "vitest"
import { batchTimes, nextWeekday } from "../../api/fi/FiMeta.ts"
import { daysBefore, priceStatus, tacStatus, usableTac } from "../../snapshots/compute/FiStatus.ts"

describe("priceStatus", () => {
  it.each([
    [null, "2026-02-06", "unavailable"],
    ["2026-02-06", "2026-02-06", "current"], // same day
    ["2026-01-30", "2026-02-06", "current"], // 7 days: the limit
    ["2026-01-29", "2026-02-06", "stale"], // 8 days
    ["2025-12-31", "2026-02-06", "stale"], // 37 days
    ["2019-01-02", "2026-02-06", "stale"], // years: still stale, never unavailable
    ["2024-02-23", "2024-03-01", "current"], // leap year: Feb 23 → Mar 1 is 7 days
    ["2024-02-22", "2024-03-01", "stale"], // 8 days
    ["2023-02-22", "2023-03-01", "current"], // common year: 7 days
    ["2026-02-09", "2026-02-06", "current"], // after the cutoff: age 0
  ] as const)("last value %s at cutoff %s is %s", (last, cutoff, expected) => {
    expect(priceStatus(last, cutoff)).toBe(expected)
  })

  it("counts calendar days across a year end", () => {
    expect(daysBefore("2025-12-31", "2026-01-07")).toBe(7)
    expect(daysBefore("2026-01-07", "2025-12-31")).toBe(-7)
  })
})

describe("tacStatus", () => {
  const cutoff = "2026-02-06"
  const sheet = (review: string, tac: number | null, sheet_date: string | null) => ({ review, tac, sheet_date })

  it.each([
    ["no line", "not_checked", undefined],
    ["null line", "not_checked", null],
    ["CONFLICTO", "unavailable_or_conflict", sheet("CONFLICTO", 0.01, "2026-01-31")],
    ["unknown review text", "unavailable_or_conflict", sheet("REVISION", 0.01, "2026-01-31")],
    ["NO_INFORMADA", "not_reported", sheet("NO_INFORMADA", null, "2026-01-31")],
    ["PENDIENTE", "pending_review", sheet("PENDIENTE", 0.01, "2026-01-31")],
    ["PENDIENTE and old: pending wins", "pending_review", sheet("PENDIENTE", 0.01, "2020-01-31")],
    ["CONFLICTO and old: conflict wins", "unavailable_or_conflict", sheet("CONFLICTO", 0.01, "2020-01-31")],
    ["REVISADA without TAC", "unavailable_or_conflict", sheet("REVISADA", null, "2026-01-31")],
    ["REVISADA without date", "stale", sheet("REVISADA", 0.01, null)],
    ["REVISADA 365 days old", "available", sheet("REVISADA", 0.01, "2025-02-06")],
    ["REVISADA 366 days old", "stale", sheet("REVISADA", 0.01, "2025-02-05")],
    ["REVISADA two years old", "stale", sheet("REVISADA", 0.01, "2024-02-06")],
    ["REVISADA recent", "available", sheet("REVISADA", 0.0125, "2025-09-30")],
    ["REVISADA dated after the cutoff", "available", sheet("REVISADA", 0.0125, "2026-02-10")],
    ["REVISADA with TAC 0", "available", sheet("REVISADA", 0, "2025-09-30")],
  ] as const)("%s → %s", (_name, expected, facts) => {
    expect(tacStatus(facts, cutoff)).toBe(expected)
  })

  it("usableTac gives the value only when available", () => {
    expect(usableTac(sheet("REVISADA", 0.0125, "2025-09-30"), cutoff)).toBe(0.0125)
    expect(usableTac(sheet("REVISADA", 0, "2025-09-30"), cutoff)).toBe(0)
    expect(usableTac(sheet("PENDIENTE", 0.0125, "2025-09-30"), cutoff)).toBeNull()
    expect(usableTac(sheet("REVISADA", 0.0125, "2024-09-30"), cutoff)).toBeNull()
    expect(usableTac(undefined, cutoff)).toBeNull()
  })
})

describe("batch times (America/Santiago)", () => {
  it("nextWeekday skips Saturday and Sunday", () => {
    expect(nextWeekday("2026-02-05")).toBe("2026-02-06") // Thu → Fri
    expect(nextWeekday("2026-02-06")).toBe("2026-02-09") // Fri → Mon
    expect(nextWeekday("2026-02-07")).toBe("2026-02-09") // Sat → Mon
    expect(nextWeekday("2026-12-31")).toBe("2027-01-01") // Thu → Fri, new year
  })

  it.each([
    // Summer time (UTC−3): Friday's batch is complete at Saturday 00:00 = 03:00Z; next is Monday's.
    ["2026-02-06", "2026-02-07T03:00:00Z", "2026-02-10T03:00:00Z"],
    // Chile leaves summer time at the end of Saturday 2026-04-04: the next batch ends in UTC−4.
    ["2026-04-03", "2026-04-04T03:00:00Z", "2026-04-07T04:00:00Z"],
    // Summer time starts at Sunday 2026-09-06 00:00 (clocks jump to 01:00 = 04:00Z).
    ["2026-09-04", "2026-09-05T04:00:00Z", "2026-09-08T03:00:00Z"],
    ["2026-09-05", "2026-09-06T04:00:00Z", "2026-09-08T03:00:00Z"],
  ])("batch %s: generated_at %s, expires_at %s", (batch, generated, expires) => {
    expect(batchTimes(batch)).toEqual({ generated_at: generated, expires_at: expires })
  })
})
