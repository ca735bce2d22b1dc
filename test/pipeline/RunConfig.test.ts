/**
 * The pipeline's settings through Effect Config: the defaults from an empty provider, values from
 * a map, a bad value's message (the one `./fds` prints before exiting 2), and the secrets redacted.
 */
import { ConfigProvider, Effect, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { daemonSettings } from "../../pipeline/daemon/DaemonCommand.ts"
import { runOptions, runSettings } from "../../pipeline/daemon/RunConfig.ts"
import { envProvider, readSettings, withEnvironment } from "../../pipeline/Settings.ts"

const parse = <A>(config: { readonly parse: (p: ConfigProvider.ConfigProvider) => Effect.Effect<A, { readonly cause: { readonly message: string } }> }, map: Record<string, string>) =>
  Effect.runSync(Effect.result(config.parse(ConfigProvider.fromUnknown(map))))

const message = <A>(config: Parameters<typeof parse<A>>[0], map: Record<string, string>): string => {
  const result = parse(config, map)
  if (result._tag === "Success") throw new Error(`expected a configuration error, got ${JSON.stringify(result.success)}`)
  return result.failure.cause.message
}

describe("pipeline settings (Effect Config)", () => {
  it("without any setting: the documented defaults", () => {
    expect(parse(runSettings, {})).toMatchObject({
      _tag: "Success",
      success: {
        dataDir: "./data",
        historyStart: "2007-12-31",
        retentionDays: 14,
        bprDays: 10,
        coverageMin: 0.9,
        fetchTimeoutMillis: 60_000,
        fetchRetries: 4,
        cmfBaseUrl: "https://www.cmfchile.cl",
        inboxDir: "data/inbox",
        captcha: null,
        indicators: null,
      },
    })
    expect(parse(daemonSettings, {})).toMatchObject({ _tag: "Success", success: { cron: "30 7 * * 1-6", retries: 3, baseMillis: 300_000 } })
  })

  it("values from a map; the inbox follows the data folder; a captcha command brings its tries and timeout", () => {
    const result = parse(runSettings, {
      FDS_DATA_DIR: "/srv/fds",
      FDS_RETENTION_DAYS: "30",
      FDS_COVERAGE_MIN: "0",
      FDS_CAPTCHA_COMMAND: "  ocr --fast ",
      FDS_CAPTCHA_TRIES: "5",
      FDS_BCCH_USER: "someone",
      FDS_BCCH_PASS: "hunter2",
    })
    expect(result).toMatchObject({
      _tag: "Success",
      success: {
        dataDir: "/srv/fds",
        inboxDir: "/srv/fds/inbox",
        retentionDays: 30,
        coverageMin: 0,
        captcha: { tries: 5, timeoutMillis: 60_000 },
        indicators: { provider: "bcentral_siete", baseUrl: "https://si3.bcentral.cl", user: "someone" },
      },
    })
    // the command line may hold a solving service's key: it is read redacted, trimmed inside
    if (result._tag !== "Success" || result.success.captcha === null) throw new Error("expected a captcha setting")
    expect(Redacted.isRedacted(result.success.captcha.command)).toBe(true)
    expect(Redacted.value(result.success.captcha.command)).toBe("ocr --fast")
  })

  it("a bad value: the setting's name and the value given, as before", () => {
    expect(message(runSettings, { FDS_FETCH_TIMEOUT_MS: "soon" })).toBe('FDS_FETCH_TIMEOUT_MS must be a non-negative number, got "soon"')
    expect(message(runSettings, { FDS_RETENTION_DAYS: "-1" })).toBe('FDS_RETENTION_DAYS must be a non-negative number, got "-1"')
    expect(message(runSettings, { FDS_COVERAGE_MIN: "1.5" })).toBe('FDS_COVERAGE_MIN must be a share from 0 to 1, got "1.5"')
    // a day count past a year (one GET a weekday) or not whole is refused, not a failed run
    expect(message(runSettings, { FDS_BPR_DAYS: "99999999" })).toBe('FDS_BPR_DAYS must be a whole number of weekdays from 0 to 260 (a year), got "99999999"')
    expect(message(runSettings, { FDS_BPR_DAYS: "1.5" })).toBe('FDS_BPR_DAYS must be a whole number of weekdays from 0 to 260 (a year), got "1.5"')
    expect(message(runSettings, { FDS_CAPTCHA_COMMAND: "ocr", FDS_CAPTCHA_TRIES: "2.5" })).toBe('FDS_CAPTCHA_TRIES must be a whole number ≥ 1, got "2.5"')
    expect(message(runSettings, { FDS_CAPTCHA_COMMAND: "ocr", FDS_CAPTCHA_TIMEOUT_MS: "0" })).toBe("FDS_CAPTCHA_TIMEOUT_MS must be above 0")
    expect(message(runSettings, { FDS_BCCH_USER: "someone" })).toBe("FDS_BCCH_USER and FDS_BCCH_PASS go together: one of them is unset")
    expect(message(daemonSettings, { FDS_PIPELINE_RETRIES: "-1" })).toBe('FDS_PIPELINE_RETRIES must be a non-negative number, got "-1"')
    // the commands say it through an Error before anything runs
    expect(() => readSettings(runOptions({}), envProvider({ FDS_BPR_DAYS: "ten" }))).toThrow('FDS_BPR_DAYS must be a non-negative number, got "ten"')
  })

  it("an empty number is its default; the captcha settings are not read without a command", () => {
    expect(parse(runSettings, { FDS_RETENTION_DAYS: "", FDS_CAPTCHA_TRIES: "zero" })).toMatchObject({ _tag: "Success", success: { retentionDays: 14, captcha: null } })
  })

  it("the CMF API key and the SIETE password stay redacted in the settings", () => {
    const result = parse(runSettings, { FDS_CMF_API_KEY: " key-123456 " })
    if (result._tag !== "Success") throw new Error("expected settings")
    const indicators = result.success.indicators
    expect(indicators).toMatchObject({ provider: "cmf_api", baseUrl: "https://api.cmfchile.cl" })
    expect(JSON.stringify(result.success)).not.toContain("key-123456")
    expect(String(indicators?.provider === "cmf_api" ? indicators.apiKey : "")).not.toContain("key-123456")
    expect(indicators?.provider === "cmf_api" && Redacted.value(indicators.apiKey)).toBe("key-123456")
    const siete = parse(runSettings, { FDS_BCCH_USER: "u", FDS_BCCH_PASS: "hunter2" })
    expect(JSON.stringify(siete)).not.toContain("hunter2")
  })

  it("a run's options come from the effect's ConfigProvider, whichever is installed", () => {
    const options = Effect.runSync(
      runOptions({ date: "2026-11-20" }, new Date("2026-11-21T12:00:00Z")).pipe(
        Effect.provideService(ConfigProvider.ConfigProvider, envProvider({ FDS_DATA_DIR: "/srv/fds", FDS_FETCH_RETRIES: "7", FDS_CAPTCHA_COMMAND: "ocr" })),
      ),
    )
    expect(options).toMatchObject({ dataDir: "/srv/fds", date: "2026-11-20", today: "2026-11-21", fetch: { retries: 7 }, captcha: { program: "ocr" } })
    expect(options.sources).toEqual([{ kind: "http", baseUrl: "https://www.cmfchile.cl" }])
  })

  it("the commands' provider is the process's environment, an empty value kept as a value", () => {
    const before = { dir: process.env.FDS_DATA_DIR, history: process.env.FDS_HISTORY_START }
    try {
      process.env.FDS_DATA_DIR = "/from/the/environment"
      process.env.FDS_HISTORY_START = ""
      expect(Effect.runSync(withEnvironment(runSettings))).toMatchObject({ dataDir: "/from/the/environment", historyStart: "" })
      expect(readSettings(runOptions({})).dataDir).toBe("/from/the/environment")
    } finally {
      for (const [name, value] of [["FDS_DATA_DIR", before.dir], ["FDS_HISTORY_START", before.history]] as const) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    }
  })
})
