/**
 * The API's numeric settings read from the one table (api/system/Settings.ts): unset or empty is
 * the table's default, a refused value names the variable, what it accepts and the value given.
 */
import { ConfigProvider, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { numberSetting } from "../../api/system/Settings.ts"
import { DEFAULT_SERIES_GRACE_WEEKDAYS } from "../../snapshots/compute/SeriesActivity.ts"

const read = (name: string, env: Record<string, string>) =>
  Effect.runSyncExit(numberSetting(name).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env))))

const value = (name: string, env: Record<string, string>) => {
  const exit = read(name, env)
  if (Exit.isFailure(exit)) throw new Error(`${name} failed: ${String(exit.cause)}`)
  return exit.value
}

const failure = (name: string, env: Record<string, string>) => {
  const exit = read(name, env)
  if (Exit.isSuccess(exit)) throw new Error(`${name} read ${exit.value}`)
  return String(exit.cause)
}

describe("numberSetting", () => {
  it("unset or empty: the table's default", () => {
    expect(value("FDS_WARM_ANSWERS", {})).toBe(64)
    expect(value("FDS_WARM_ANSWERS_MS", { FDS_WARM_ANSWERS_MS: "" })).toBe(1000)
    expect(value("FDS_ANSWER_CACHE_MB", { FDS_ANSWER_CACHE_MB: "" })).toBe(64)
    expect(value("FDS_PAST_BATCHES_OPEN", {})).toBe(4)
    // the table's default is the one the snapshot's own activity flags were computed with
    expect(value("FDS_SERIES_GRACE_DAYS", {})).toBe(DEFAULT_SERIES_GRACE_WEEKDAYS)
    expect(value("FDS_HEADERS_TIMEOUT_MS", {})).toBe(10_000)
    expect(value("FDS_MAX_CONNECTIONS_PER_IP", { FDS_MAX_CONNECTIONS_PER_IP: "0" })).toBe(0)
  })

  it("a value within the table's bounds, as a number", () => {
    expect(value("FDS_WARM_ANSWERS", { FDS_WARM_ANSWERS: "0" })).toBe(0)
    expect(value("FDS_WARM_ANSWERS", { FDS_WARM_ANSWERS: " 1024 " })).toBe(1024)
    expect(value("FDS_ANSWER_CACHE_MB", { FDS_ANSWER_CACHE_MB: "0.5" })).toBe(0.5)
  })

  it("a value outside them fails, naming the variable, what it accepts and the value", () => {
    expect(failure("FDS_WARM_ANSWERS", { FDS_WARM_ANSWERS: "1025" })).toContain('FDS_WARM_ANSWERS must be a whole number from 0 to 1024 (0: none)')
    expect(failure("FDS_WARM_ANSWERS", { FDS_WARM_ANSWERS: "1025" })).toContain('got "1025"')
    expect(failure("FDS_WARM_ANSWERS_MS", { FDS_WARM_ANSWERS_MS: "0" })).toContain("FDS_WARM_ANSWERS_MS must be a whole number of ms from 1 to 60000")
    expect(failure("FDS_ANSWER_CACHE_MB", { FDS_ANSWER_CACHE_MB: "-1" })).toContain('FDS_ANSWER_CACHE_MB must be a number of megabytes ≥ 0 (0: off)')
    expect(failure("FDS_ANSWER_CACHE_MB", { FDS_ANSWER_CACHE_MB: "lots" })).toContain('got "lots"')
    expect(failure("FDS_REQUEST_TIMEOUT_MS", { FDS_REQUEST_TIMEOUT_MS: "0" })).toContain("FDS_REQUEST_TIMEOUT_MS must be a whole number of ms ≥ 1")
  })

  it("a name the table does not hold with a default is a programming error, said at once", () => {
    expect(() => numberSetting("FDS_NO_SUCH_SETTING")).toThrow(/FDS_NO_SUCH_SETTING is not a setting with a default/)
    expect(() => numberSetting("FDS_SECRET")).toThrow(/FDS_SECRET/)
  })
})
