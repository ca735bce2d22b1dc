/**
 * Per-source freshness on worked dates: 2026-11-25 is a Wednesday; two weekdays before it is
 * Monday 2026-11-23; two weekdays before Monday 2026-11-30 is Thursday 2026-11-26 (the weekend is
 * skipped). A monthly file is fresh while it describes the month-end two months back or later.
 */
import { describe, expect, it } from "vitest"
import { freshSince, type SourceReport, sourceState, weekdaysBefore } from "../../snapshots/Status.ts"

const report = (over: Partial<SourceReport>): SourceReport => ({
  data_set: "x",
  cadence: "daily",
  how: "fetched",
  latest_value_date: null,
  last_received_at: "2026-11-25T10:30:00.000Z",
  waiting: null,
  ...over,
})

describe("per-source freshness", () => {
  it("counts weekdays back over weekends", () => {
    expect(weekdaysBefore("2026-11-25", 2)).toBe("2026-11-23")
    expect(weekdaysBefore("2026-11-30", 2)).toBe("2026-11-26")
    expect(weekdaysBefore("2026-11-30", 1)).toBe("2026-11-27")
    expect(weekdaysBefore("2026-11-25", 0)).toBe("2026-11-25")
  })

  it("daily values a business day behind are fresh; three behind are late", () => {
    expect(freshSince("daily", "2026-11-25")).toBe("2026-11-23")
    expect(sourceState(report({ latest_value_date: "2026-11-24" }), "2026-11-25")).toBe("fresh")
    expect(sourceState(report({ latest_value_date: "2026-11-23" }), "2026-11-25")).toBe("fresh")
    expect(sourceState(report({ latest_value_date: "2026-11-20" }), "2026-11-25")).toBe("late")
    // Monday: Thursday's values are still fresh, Wednesday's are late.
    expect(sourceState(report({ latest_value_date: "2026-11-26" }), "2026-11-30")).toBe("fresh")
    expect(sourceState(report({ latest_value_date: "2026-11-25" }), "2026-11-30")).toBe("late")
  })

  it("a monthly file is fresh for its month-end two months back; a quarterly for six", () => {
    expect(freshSince("monthly", "2026-11-25")).toBe("2026-09-30")
    expect(sourceState(report({ cadence: "monthly", latest_value_date: "2026-09-30" }), "2026-11-25")).toBe("fresh")
    expect(sourceState(report({ cadence: "monthly", latest_value_date: "2026-08-31" }), "2026-11-25")).toBe("late")
    expect(freshSince("monthly", "2026-01-10")).toBe("2025-11-30")
    expect(freshSince("quarterly", "2026-11-25")).toBe("2026-05-31")
  })

  it("waiting: not fetched unattended and no fresh drop; missing: no input and nothing to wait for", () => {
    const off = "FDS_CAPTCHA_COMMAND is not set"
    expect(sourceState(report({ last_received_at: null, how: null, waiting: off }), "2026-11-25")).toBe("waiting")
    expect(sourceState(report({ latest_value_date: "2026-11-02", how: "dropped", waiting: off }), "2026-11-25")).toBe("waiting")
    expect(sourceState(report({ latest_value_date: "2026-11-24", how: "dropped", waiting: off }), "2026-11-25")).toBe("fresh")
    expect(sourceState(report({ last_received_at: null, how: null }), "2026-11-25")).toBe("missing")
    // An irregular data set (a registry, a list) is never late.
    expect(sourceState(report({ cadence: "irregular" }), "2026-11-25")).toBe("fresh")
  })
})
