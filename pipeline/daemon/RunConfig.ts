/**
 * The options of one pipeline run, from the environment: shared by `pipeline run` and each tick
 * of `pipeline daemon`, so that both run exactly the same batch.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import type { Progress } from "../Build.ts"
import { captchaSolverFromEnv } from "../fetch/CaptchaSolver.ts"
import { defaultFetchOptions } from "../fetch/CmfHttp.ts"
import { indicatorFetcherFromEnv } from "../fetch/IndicatorFetch.ts"
import type { RunOptions, Source } from "../Pipeline.ts"

export type Env = Readonly<Record<string, string | undefined>>

export const envOr = (env: Env, name: string, fallback: string): string => env[name] ?? fallback

/** A non-negative number from the environment; a bad value is a configuration error, said at start. */
export const envNumber = (env: Env, name: string, fallback: number): number => {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`)
  return n
}

/** FDS_COVERAGE_MIN: a share from 0 (off) to 1. */
const coverageMinOf = (env: Env): number => {
  const share = envNumber(env, "FDS_COVERAGE_MIN", 0.9)
  if (share > 1) throw new Error(`FDS_COVERAGE_MIN must be a share from 0 to 1, got "${env.FDS_COVERAGE_MIN}"`)
  return share
}

export const dataDirOf = (env: Env): string => envOr(env, "FDS_DATA_DIR", "./data")

/** Today's date in America/Santiago, YYYY-MM-DD. */
export const santiagoToday = (now: Date = new Date()): string =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/Santiago", year: "numeric", month: "2-digit", day: "2-digit" }).format(now)

/**
 * `--source DIR|URL` when given; else the CMF at FDS_CMF_BASE_URL plus the inbox folder
 * (FDS_INBOX_DIR, default <data>/inbox) when it exists.
 */
export const sourcesOf = (env: Env, source: string | undefined): Source[] => {
  if (source !== undefined) {
    return [/^https?:\/\//.test(source) ? { kind: "http", baseUrl: source } : { kind: "folder", path: source }]
  }
  const sources: Source[] = [{ kind: "http", baseUrl: envOr(env, "FDS_CMF_BASE_URL", "https://www.cmfchile.cl") }]
  const inbox = envOr(env, "FDS_INBOX_DIR", join(dataDirOf(env), "inbox"))
  if (existsSync(inbox)) sources.push({ kind: "folder", path: inbox })
  return sources
}

export const runOptionsFromEnv = (
  env: Env,
  args: { readonly source?: string | undefined; readonly date?: string | undefined; readonly progress?: Progress | undefined },
  now: Date = new Date(),
): RunOptions => ({
  dataDir: dataDirOf(env),
  sources: sourcesOf(env, args.source),
  date: args.date,
  today: santiagoToday(now),
  historyStart: envOr(env, "FDS_HISTORY_START", "2007-12-31"),
  retentionDays: envNumber(env, "FDS_RETENTION_DAYS", 14),
  progress: args.progress,
  captcha: captchaSolverFromEnv(env),
  bprDays: envNumber(env, "FDS_BPR_DAYS", 10),
  coverageMin: coverageMinOf(env),
  indicators: indicatorFetcherFromEnv(env),
  fetch: {
    ...defaultFetchOptions,
    timeoutMillis: envNumber(env, "FDS_FETCH_TIMEOUT_MS", defaultFetchOptions.timeoutMillis),
    retries: envNumber(env, "FDS_FETCH_RETRIES", defaultFetchOptions.retries),
  },
})
