/**
 * The options of one pipeline run, from the environment through Effect Config: shared by
 * `pipeline run` and each tick of `pipeline daemon`, so that both run exactly the same batch.
 */

import { existsSync } from "node:fs"
import { join } from "node:path"
import { Config, Effect } from "effect"
import type { Progress } from "../Load.ts"
import { captchaSettings, captchaSolverOf } from "../fetch/CaptchaSolver.ts"
import { defaultFetchOptions } from "../fetch/CmfHttp.ts"
import { indicatorFetcherOf, indicatorSettings } from "../fetch/IndicatorFetch.ts"
import type { RunOptions, Source } from "../RunOptions.ts"
import { invalidSetting, numberSetting, textSetting } from "../Settings.ts"

/** FDS_COVERAGE_MIN: a share from 0 (off) to 1. */
const coverageMin = numberSetting("FDS_COVERAGE_MIN", 0.9).pipe(
  Config.mapEffect((share) =>
    share > 1 ? Effect.fail(invalidSetting(`FDS_COVERAGE_MIN must be a share from 0 to 1, got "${share}"`, share)) : Effect.succeed(share),
  ),
)

/** FDS_DATA_DIR: the data folder. */
export const dataDir = textSetting("FDS_DATA_DIR", "./data")

/** The pipeline's settings (every FDS_* a run reads), with their defaults. */
export const runSettings = Config.all({
  dataDir,
  historyStart: textSetting("FDS_HISTORY_START", "2007-12-31"),
  retentionDays: numberSetting("FDS_RETENTION_DAYS", 14),
  bprDays: numberSetting("FDS_BPR_DAYS", 10).pipe(
    Config.mapEffect((days) =>
      Number.isInteger(days) && days <= 260
        ? Effect.succeed(days)
        : Effect.fail(invalidSetting(`FDS_BPR_DAYS must be a whole number of weekdays from 0 to 260 (a year), got "${days}"`, days)),
    ),
  ),
  coverageMin,
  /** FDS_INCREMENT: 1 (default) builds a day from the previous batch's snapshot when it can; 0 always from nothing. */
  increment: numberSetting("FDS_INCREMENT", 1).pipe(
    Config.mapEffect((v) =>
      v === 0 || v === 1 ? Effect.succeed(v === 1) : Effect.fail(invalidSetting(`FDS_INCREMENT must be 0 or 1, got "${v}"`, v)),
    ),
  ),
  fetchTimeoutMillis: numberSetting("FDS_FETCH_TIMEOUT_MS", defaultFetchOptions.timeoutMillis),
  fetchRetries: numberSetting("FDS_FETCH_RETRIES", defaultFetchOptions.retries),
  cmfBaseUrl: textSetting("FDS_CMF_BASE_URL", "https://www.cmfchile.cl"),
  /** The inbox folder; default <data>/inbox. */
  inboxDir: Config.all({ dataDir, inbox: Config.option(Config.String("FDS_INBOX_DIR")) }).pipe(
    Config.map(({ dataDir, inbox }) => (inbox._tag === "Some" ? inbox.value : join(dataDir, "inbox"))),
  ),
  captcha: captchaSettings,
  indicators: indicatorSettings,
})

export type RunSettings = Config.Success<typeof runSettings>

/** Today's date in America/Santiago, YYYY-MM-DD. */
export const santiagoToday = (now: Date = new Date()): string =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit" }).format(now)

/**
 * `--source DIR|URL` when given; else the CMF at FDS_CMF_BASE_URL plus the inbox folder
 * (FDS_INBOX_DIR, default <data>/inbox) when it exists.
 */
export const sourcesOf = (settings: Pick<RunSettings, "cmfBaseUrl" | "inboxDir">, source: string | undefined): Source[] => {
  if (source !== undefined) {
    return [/^https?:\/\//.test(source) ? { kind: "http", baseUrl: source } : { kind: "folder", path: source }]
  }
  const sources: Source[] = [{ kind: "http", baseUrl: settings.cmfBaseUrl }]
  if (existsSync(settings.inboxDir)) sources.push({ kind: "folder", path: settings.inboxDir })
  return sources
}

/** The options of a run: its settings through the ConfigProvider, with `--source` and `--date`. */
export const runOptions = (
  args: { readonly source?: string | undefined; readonly date?: string | undefined; readonly progress?: Progress | undefined },
  now: Date = new Date(),
): Effect.Effect<RunOptions, Config.ConfigError> =>
  Effect.map(runSettings, (s) => ({
    dataDir: s.dataDir,
    sources: sourcesOf(s, args.source),
    date: args.date,
    today: santiagoToday(now),
    historyStart: s.historyStart,
    retentionDays: s.retentionDays,
    progress: args.progress,
    captcha: captchaSolverOf(s.captcha),
    bprDays: s.bprDays,
    coverageMin: s.coverageMin,
    increment: s.increment,
    indicators: indicatorFetcherOf(s.indicators),
    fetch: { ...defaultFetchOptions, timeoutMillis: s.fetchTimeoutMillis, retries: s.fetchRetries },
  }))
