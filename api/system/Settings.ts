/**
 * Every setting the server reads (FDS_*, PORT, HOST), in one table: its default, what it accepts
 * and whether it is a secret. `./fds serve` reads them all through Effect Config before it
 * listens and stops at the first bad one, naming the variable, the value (never a secret's) and
 * what it accepts; `./fds config check` prints the effective settings (secrets as ***).
 *
 * Secrets may come from files, the container convention: FDS_SECRET_FILE, FDS_ACCOUNTS_URL_FILE,
 * FDS_SMTP_URL_FILE, FDS_OIDC_CLIENT_SECRET_FILE name a file whose content (less a final newline)
 * is the value (`withSecretFiles`: the ConfigProvider every setting is then read through).
 */
import { readFileSync, statSync } from "node:fs"
import { Config, ConfigProvider, Effect, Option } from "effect"
import { parseNetworks } from "../ratelimit/Edge.ts"

/** A setting that stops the server: the variable, the value as given and what it accepts. */
export class SettingInvalid extends Error {
  readonly variable: string
  constructor(variable: string, shown: string, accepts: string) {
    super(`${variable}=${shown} is not valid: ${accepts}`)
    this.variable = variable
  }
}

interface Setting {
  readonly name: string
  /** The value when unset (shown by `config check`); undefined: unset means "none". */
  readonly fallback?: string
  readonly accepts: string
  readonly secret?: boolean
  /** True when the text is acceptable. */
  readonly valid: (text: string) => boolean
}

const wholeIn = (min: number, max = Number.MAX_SAFE_INTEGER) => (t: string) => /^\s*\d+\s*$/.test(t) && Number(t) >= min && Number(t) <= max
const numberAtLeast = (min: number, strict = false) => (t: string) =>
  t.trim() !== "" && Number.isFinite(Number(t)) && (strict ? Number(t) > min : Number(t) >= min)
const anything = () => true
const url = (protocols: ReadonlyArray<string>) => (t: string) => {
  try {
    return protocols.includes(new URL(t).protocol)
  } catch {
    return false
  }
}
const networks = (t: string) => {
  try {
    parseNetworks(t.split(",").map((p) => p.trim()).filter((p) => p !== ""))
    return true
  } catch {
    return false
  }
}
/** A folder, or nothing yet (made at start): never a file, which failed later with a stack trace. */
const folderOrNothing = (t: string) => {
  try {
    return statSync(t).isDirectory()
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT"
  }
}
const bool = (t: string) => /^(true|false|yes|no|on|off|1|0)$/i.test(t.trim())
const oneOf = (values: ReadonlyArray<string>) => (t: string) => values.includes(t.trim())

export const SETTINGS: ReadonlyArray<Setting> = [
  { name: "HOST", fallback: "127.0.0.1", accepts: "an address of this machine to listen on", valid: (t) => t.trim() !== "" },
  { name: "PORT", fallback: "8080", accepts: "a whole number from 0 to 65535 (0: any free port)", valid: wholeIn(0, 65535) },
  {
    name: "FDS_DATA_DIR",
    fallback: "./data",
    accepts: "a folder (one that does not exist yet is made)",
    valid: (t) => t.trim() !== "" && folderOrNothing(t),
  },
  {
    name: "FDS_DRAIN_SECONDS",
    fallback: "5",
    accepts: "seconds from 0 to 3600 to keep serving after SIGTERM while readiness fails",
    valid: (t) => numberAtLeast(0)(t) && Number(t) <= 3600,
  },
  { name: "FDS_RATE_LIMIT_PER_SECOND", fallback: "10", accepts: "requests per second per address, a number ≥ 0 (0: no limit)", valid: numberAtLeast(0) },
  { name: "FDS_RATE_LIMIT_BURST", fallback: "20", accepts: "a whole number ≥ 1", valid: wholeIn(1) },
  {
    name: "FDS_RATE_LIMIT_STORE",
    fallback: "auto",
    accepts: "auto (shared when FDS_ACCOUNTS_URL is set), shared or process",
    valid: oneOf(["auto", "shared", "process"]),
  },
  { name: "FDS_TRUSTED_PROXIES", fallback: "", accepts: "comma-separated addresses or CIDR networks", valid: networks },
  { name: "FDS_METRICS_ALLOW", fallback: "127.0.0.0/8,::1", accepts: "comma-separated addresses or CIDR networks", valid: networks },
  { name: "FDS_STALE_AFTER_HOURS", fallback: "36", accepts: "hours, a number > 0", valid: numberAtLeast(0, true) },
  { name: "FDS_HEADERS_TIMEOUT_MS", fallback: "10000", accepts: "a whole number of ms ≥ 1", valid: wholeIn(1) },
  { name: "FDS_REQUEST_TIMEOUT_MS", fallback: "30000", accepts: "a whole number of ms ≥ 1", valid: wholeIn(1) },
  { name: "FDS_MAX_CONNECTIONS_PER_IP", fallback: "64", accepts: "a whole number ≥ 0 (0: no cap)", valid: wholeIn(0) },
  {
    name: "FDS_ANSWER_CACHE_MB",
    fallback: "64",
    accepts: "a number of megabytes ≥ 0 (0: off): the data answers kept, every open batch together",
    valid: numberAtLeast(0),
  },
  {
    name: "FDS_HIT_PATH",
    fallback: "1",
    accepts: "0 or 1 (1: a kept answer is sent at the Node level, before the router; 0: every request goes through the router)",
    valid: (t) => t.trim() === "0" || t.trim() === "1",
  },
  {
    name: "FDS_WARM_ANSWERS",
    fallback: "64",
    accepts: "a whole number from 0 to 1024 (0: none): how many of the previous batch's hottest answers a new batch computes before it serves",
    valid: wholeIn(0, 1024),
  },
  { name: "FDS_WARM_ANSWERS_MS", fallback: "1000", accepts: "a whole number of ms from 1 to 60000: the most a swap spends on warming", valid: wholeIn(1, 60_000) },
  { name: "FDS_PAST_BATCHES_OPEN", fallback: "4", accepts: "a whole number from 1 to 64", valid: wholeIn(1, 64) },
  { name: "FDS_SERIES_GRACE_DAYS", fallback: "10", accepts: "a whole number of weekdays from 0 to 260", valid: wholeIn(0, 260) },
  { name: "FDS_ENABLE_CLP", fallback: "false", accepts: "true or false", valid: bool },
  { name: "FDS_ENABLE_REAL_UF", fallback: "false", accepts: "true or false", valid: bool },
  { name: "FDS_ENABLE_TOTAL", fallback: "false", accepts: "true or false", valid: bool },
  { name: "FDS_ACCOUNTS_URL", accepts: "a postgres:// or postgresql:// URL (unset: the SQLite file)", secret: true, valid: url(["postgres:", "postgresql:"]) },
  {
    name: "FDS_FLEET",
    fallback: "on",
    accepts: "on or off (off: a process with FDS_ACCOUNTS_URL that is not a member of the fleet)",
    valid: oneOf(["on", "off"]),
  },
  { name: "FDS_FLEET_ROLE", fallback: "replica", accepts: "primary or replica", valid: oneOf(["primary", "replica"]) },
  {
    name: "FDS_FLEET_SWITCH_TIMEOUT_SECONDS",
    fallback: "60",
    accepts: "seconds from 1 to 3600",
    valid: (t) => numberAtLeast(1)(t) && Number(t) <= 3600,
  },
  { name: "FDS_FLEET_HEARTBEAT_MS", fallback: "1000", accepts: "a whole number of ms from 50 to 60000", valid: wholeIn(50, 60_000) },
  { name: "FDS_ACCOUNTS_PATH", accepts: "a file path (unset: <data dir>/accounts.sqlite)", valid: anything },
  { name: "FDS_PUBLIC_URL", accepts: "an http(s) URL (unset: the bound address)", valid: url(["http:", "https:"]) },
  { name: "FDS_TRUSTED_ORIGINS", fallback: "", accepts: "comma-separated origins", valid: anything },
  { name: "FDS_SECRET", accepts: "at least 32 bytes (unset: generated into data/secret.key)", secret: true, valid: (t) => Buffer.byteLength(t) >= 32 },
  { name: "FDS_SMTP_URL", accepts: "an smtp:// or smtps:// URL (unset: mails go to data/outbox/)", secret: true, valid: url(["smtp:", "smtps:"]) },
  { name: "FDS_MAIL_FROM", accepts: "a From address", valid: anything },
  { name: "FDS_MAIL_PER_EMAIL_PER_HOUR", fallback: "5", accepts: "a whole number ≥ 1", valid: wholeIn(1) },
  { name: "FDS_MAIL_PER_IP_PER_HOUR", fallback: "20", accepts: "a whole number ≥ 1", valid: wholeIn(1) },
  { name: "FDS_MAIL_PER_DOMAIN_PER_HOUR", fallback: "50", accepts: "a whole number ≥ 1", valid: wholeIn(1) },
  { name: "FDS_OIDC_ISSUER", fallback: "https://accounts.google.com", accepts: "an https URL", valid: url(["https:", "http:"]) },
  { name: "FDS_OIDC_CLIENT_ID", accepts: "a client id", valid: (t) => t.trim() !== "" },
  { name: "FDS_OIDC_CLIENT_SECRET", accepts: "a client secret", secret: true, valid: (t) => t.trim() !== "" },
  { name: "FDS_WEBHOOKS_ALLOW_PRIVATE", fallback: "0", accepts: "1 or true (webhooks to loopback, private addresses and http://), 0 or false", valid: oneOf(["0", "1", "true", "false"]) },
  { name: "FDS_WEBHOOKS_TIMEOUT_MS", fallback: "10000", accepts: "a whole number of ms from 1 to 60000", valid: wholeIn(1, 60_000) },
  { name: "FDS_WEBHOOKS_MAX_ENDPOINTS", fallback: "10", accepts: "a whole number from 1 to 1000", valid: wholeIn(1, 1000) },
]

/**
 * A numeric setting of the table, read through Config when a service starts: unset or empty, its
 * default; a value the table refuses stops the server, naming it and what it accepts
 * (`NAME must be <accepts>, got "<value>"`).
 */
export const numberSetting = (name: string): Effect.Effect<number, Error> => {
  const setting = SETTINGS.find((s) => s.name === name)
  const fallback = setting?.fallback
  if (setting === undefined || fallback === undefined) throw new Error(`${name} is not a setting with a default in SETTINGS`)
  return Config.String(name).pipe(
    Config.withDefault(fallback),
    Effect.mapError((e) => new Error(`${name}: ${e.message}`)),
    Effect.flatMap((text) => {
      const value = text === "" ? fallback : text
      return setting.valid(value) ? Effect.succeed(Number(value)) : Effect.fail(new Error(`${name} must be ${setting.accepts}, got ${JSON.stringify(text)}`))
    }),
  )
}

/** The largest secret file read (a secret is a line, a URL or a key). */
const SECRET_FILE_MAX_BYTES = 64 * 1024

/** The secrets that may be given as `<NAME>_FILE`. */
export const SECRET_FILE_SETTINGS = SETTINGS.filter((s) => s.secret === true).map((s) => s.name)

/** A setting as given; unset or empty: none (as `readSettings` takes them). */
const given = (name: string): Effect.Effect<string | undefined> =>
  Config.option(Config.String(name)).pipe(
    Effect.map((v) => (Option.isSome(v) && v.value !== "" ? v.value : undefined)),
    Effect.orElseSucceed(() => undefined),
  )

/**
 * The current ConfigProvider with each `<NAME>_FILE`'s content as `<NAME>` (read once, before any
 * setting is); fails naming the variable when the file cannot be read, or when both are set.
 */
export const withSecretFiles: Effect.Effect<ConfigProvider.ConfigProvider, SettingInvalid> = Effect.gen(function* () {
  const fromFiles: Record<string, string> = {}
  for (const name of SECRET_FILE_SETTINGS) {
    const file = yield* given(`${name}_FILE`)
    if (file === undefined) continue
    if ((yield* given(name)) !== undefined) return yield* Effect.fail(new SettingInvalid(`${name}_FILE`, file, `not both ${name} and ${name}_FILE`))
    fromFiles[name] = yield* Effect.try({ try: () => secretFile(name, file), catch: (e) => e as SettingInvalid })
  }
  const current = yield* ConfigProvider.ConfigProvider
  return Object.keys(fromFiles).length === 0 ? current : ConfigProvider.fromEnvRecord(fromFiles).pipe(ConfigProvider.orElse(current))
})

/** The secret in `file` (less a final newline); throws SettingInvalid naming `<name>_FILE`. */
const secretFile = (name: string, file: string): string => {
  let text: string
  try {
    // a regular file of at most 64 KiB: never a device (/dev/zero), a FIFO (which blocks) or a huge file
    const stats = statSync(file)
    if (!stats.isFile()) throw new SettingInvalid(`${name}_FILE`, file, "a regular file (not a device, FIFO or folder)")
    if (stats.size > SECRET_FILE_MAX_BYTES) throw new SettingInvalid(`${name}_FILE`, file, `a file of at most ${SECRET_FILE_MAX_BYTES} bytes`)
    text = readFileSync(file, "utf8")
  } catch (e) {
    if (e instanceof SettingInvalid) throw e
    throw new SettingInvalid(`${name}_FILE`, file, `a readable file (${(e as NodeJS.ErrnoException).code ?? String(e)})`)
  }
  return text.replace(/\r?\n$/, "")
}

export interface EffectiveSetting {
  readonly name: string
  /** As shown: the value, "***" for a set secret, "(unset)". */
  readonly shown: string
  readonly source: "environment" | "default" | "unset"
}

/** Reads every setting through Config; fails with the first bad one. */
export const readSettings: Effect.Effect<ReadonlyArray<EffectiveSetting>, SettingInvalid> = Effect.gen(function* () {
  const out: Array<EffectiveSetting> = []
  for (const setting of SETTINGS) {
    const given = yield* Config.option(Config.String(setting.name)).pipe(Effect.orElseSucceed(() => Option.none<string>()))
    if (Option.isNone(given) || given.value === "") {
      out.push({
        name: setting.name,
        shown: setting.fallback === undefined ? "(unset)" : setting.fallback,
        source: setting.fallback === undefined ? "unset" : "default",
      })
      continue
    }
    const shown = setting.secret === true ? "***" : given.value
    if (!setting.valid(given.value)) return yield* Effect.fail(new SettingInvalid(setting.name, shown, setting.accepts))
    out.push({ name: setting.name, shown, source: "environment" })
  }
  // Node refuses it too, in its own words
  const headers = Number(out.find((s) => s.name === "FDS_HEADERS_TIMEOUT_MS")?.shown)
  const request = Number(out.find((s) => s.name === "FDS_REQUEST_TIMEOUT_MS")?.shown)
  if (headers > request) {
    return yield* Effect.fail(new SettingInvalid("FDS_HEADERS_TIMEOUT_MS", String(headers), `at most FDS_REQUEST_TIMEOUT_MS (${request})`))
  }
  return out
})

/** The effective settings as `config check` prints them: one `NAME=value  (source)` a line. */
export const formatSettings = (settings: ReadonlyArray<EffectiveSetting>): string =>
  settings.map((s) => `${s.name}=${s.shown}${s.source === "environment" ? "" : `  (${s.source})`}`).join("\n")
