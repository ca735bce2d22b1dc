/**
 * `./fds follow --from URL [--every SECONDS] [--once]` with FDS_FOLLOW_KEY (a key of the primary),
 * or `./fds follow --bucket` with the FDS_BUCKET_* settings (the bucket `./fds publish` fills,
 * ops/BucketSource.ts), and FDS_DATA_DIR (the replica's data folder): polls every SECONDS (default 60) and
 * keeps the folder's snapshots in step (ops/Follow.ts). One JSON log line per event on stdout.
 * A failed poll (primary unreachable or refusing, a transfer cut or refused) is logged and tried
 * again at the next poll; SIGTERM or SIGINT stops it between polls or mid-transfer (a cut
 * transfer resumes next time). `--once`: one poll, exit 0 when the replica is in step, 1 when not.
 * FDS_FOLLOW_MAX_BYTES: the most bytes a snapshot download may hold (default 4 GiB).
 * Exit 2: bad arguments or settings.
 */
import { parseArgs } from "node:util"
import { Config, type ConfigProvider, Effect, Redacted } from "effect"
import { fleetSwitch } from "../api/snapshot/FleetSettings.ts"
import { jsonLog, type Log } from "../pipeline/daemon/Log.ts"
import { dataDir } from "../pipeline/daemon/RunConfig.ts"
import { environmentProvider, invalidSetting, readSettings, textSetting } from "../pipeline/Settings.ts"
import { fleetTarget } from "./FleetTarget.ts"
import { DEFAULT_MAX_BYTES, pollFleet, pollOnce } from "./Follow.ts"
import type { BatchSource } from "./BatchSource.ts"
import type { BucketSettings } from "./Bucket.ts"
import { PrimaryRefused, primarySource } from "./FollowTransfer.ts"

const usage =
  "usage: follow --from URL | --bucket [--every SECONDS] [--once]   (FDS_FOLLOW_KEY: a key of the primary; FDS_BUCKET*: the bucket)"

interface Settings {
  /** The primary's URL, or null when following the bucket. */
  readonly from: string | null
  readonly bucket: BucketSettings | null
  readonly everyMillis: number
  readonly once: boolean
  readonly key: string
  readonly dataDir: string
  readonly retentionDays: number
  readonly maxBytes: number
  /** The fleet's PostgreSQL URL when the replica is a fleet member; null otherwise. */
  readonly fleet: string | null
}

/** A whole number from `min`, `fallback` when unset; refused with `message`. */
const wholeSetting = (name: string, fallback: number, min: number, message: string) =>
  textSetting(name, String(fallback)).pipe(
    Config.mapEffect((raw) => {
      const n = Number(raw)
      return Number.isSafeInteger(n) && n >= min ? Effect.succeed(n) : Effect.fail(invalidSetting(message, raw))
    }),
  )

/** The follower's settings from the ConfigProvider (FDS_FLEET is read first, with the arguments). */
const followSettings = Config.all({
  key: Config.Redacted("FDS_FOLLOW_KEY").pipe(Config.withDefault(Redacted.make(""))),
  retentionDays: wholeSetting("FDS_RETENTION_DAYS", 14, 1, "FDS_RETENTION_DAYS must be a whole number of days, at least 1"),
  maxBytes: wholeSetting("FDS_FOLLOW_MAX_BYTES", DEFAULT_MAX_BYTES, 1, "FDS_FOLLOW_MAX_BYTES must be a whole number of bytes, at least 1"),
  dataDir,
})

/** The fleet's PostgreSQL when the replica is a member (FDS_ACCOUNTS_URL set, FDS_FLEET not off); else null. */
const fleetUrl = Config.all({ url: Config.Redacted("FDS_ACCOUNTS_URL").pipe(Config.withDefault(Redacted.make(""))), fleet: fleetSwitch }).pipe(
  Config.map(({ url, fleet }) => (Redacted.value(url) === "" || fleet === "off" ? null : Redacted.value(url))),
)

const settings = async (args: string[], provider: ConfigProvider.ConfigProvider): Promise<Settings | string> => {
  let values: { from?: string; bucket?: boolean; every?: string; once?: boolean }
  try {
    values = parseArgs({
      args,
      options: { from: { type: "string" }, bucket: { type: "boolean" }, every: { type: "string" }, once: { type: "boolean" } },
    }).values
  } catch (e) {
    return (e as Error).message
  }
  if (values.from !== undefined && values.bucket === true) return "--from and --bucket: follow one source"
  let from: URL | null = null
  let bucket: BucketSettings | null = null
  if (values.bucket === true) {
    try {
      // the S3 client (~0.25 s to load) only when a bucket is followed
      bucket = readSettings((await import("./Bucket.ts")).bucketSettings, provider)
    } catch (e) {
      return (e as Error).message
    }
    if (bucket === null) return "--bucket needs FDS_BUCKET (the bucket's name) and its settings (docs/replicas.md)"
  } else {
    if (values.from === undefined) return "--from URL (the primary's base URL) or --bucket is required"
    try {
      from = new URL(values.from)
    } catch {
      return `--from ${values.from} is not a URL`
    }
    if (from.protocol !== "http:" && from.protocol !== "https:") return "--from must be an http or https URL"
  }
  let fleet: string | null
  try {
    fleet = readSettings(fleetUrl, provider)
  } catch (e) {
    return (e as Error).message
  }
  const every = Number(values.every ?? "60")
  if (!(every >= 1 && every <= 86_400)) return "--every must be a number of seconds from 1 to 86400"
  let read: Config.Success<typeof followSettings>
  try {
    read = readSettings(followSettings, provider)
  } catch (e) {
    return (e as Error).message
  }
  const key = Redacted.value(read.key)
  if (from !== null && key === "") return "FDS_FOLLOW_KEY is not set (a key of the primary: ./fds keys create --tier internal on it)"
  return {
    from: from === null ? null : from.href.replace(/\/+$/, ""),
    bucket,
    everyMillis: every * 1000,
    once: values.once === true,
    key,
    dataDir: read.dataDir,
    retentionDays: read.retentionDays,
    maxBytes: read.maxBytes,
    fleet,
  }
}

const why = (e: unknown): Record<string, unknown> =>
  e instanceof PrimaryRefused ? { status: e.status, error: e.message, retry_after: e.retryAfterSeconds } : { error: String(e) }

/** The command; its settings read through `provider` (default: the environment). */
export const followCommand = async (args: string[], provider: ConfigProvider.ConfigProvider = environmentProvider(), log: Log = jsonLog()): Promise<number> => {
  const s = await settings(args, provider)
  if (typeof s === "string") {
    console.error(`fds: ${s}\n${usage}`)
    return 2
  }
  const stop = new AbortController()
  const onSignal = () => stop.abort()
  process.once("SIGTERM", onSignal)
  process.once("SIGINT", onSignal)
  const source: BatchSource =
    s.bucket !== null
      ? (await import("./BucketSource.ts")).bucketSource({ settings: s.bucket, signal: stop.signal })
      : primarySource({ url: s.from ?? "", key: s.key, signal: stop.signal })
  // in a fleet: what the fleet wants (its proposal), and a wake-up when it proposes a batch
  const fleet = s.fleet === null ? null : fleetTarget(s.fleet)
  let wake: () => void = () => undefined
  fleet?.onProposal(() => wake())
  log("info", "following", { from: source.describe, data_dir: s.dataDir, every_s: s.everyMillis / 1000, fleet: fleet !== null })
  try {
    for (;;) {
      let inStep = false
      let wait = s.everyMillis
      try {
        const options = {
          source,
          dataDir: s.dataDir,
          retentionDays: s.retentionDays,
          maxBytes: s.maxBytes,
          log,
        }
        const outcome = fleet === null ? await pollOnce(options) : await pollFleet(options, fleet)
        inStep = outcome.outcome !== "nothing_published"
        if (outcome.outcome === "nothing_published") log("warn", "the primary has published nothing yet", { from: source.describe })
        else log("info", "polled", outcome)
      } catch (e) {
        if (stop.signal.aborted) break
        log("error", "poll failed; the replica keeps what it serves", why(e))
        if (e instanceof PrimaryRefused && e.retryAfterSeconds !== null) wait = Math.max(wait, e.retryAfterSeconds * 1000)
      }
      if (s.once) return inStep ? 0 : 1
      if (stop.signal.aborted) break
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait)
        wake = () => {
          clearTimeout(timer)
          resolve()
        }
        stop.signal.addEventListener("abort", () => {
          clearTimeout(timer)
          resolve()
        })
      })
      if (stop.signal.aborted) break
    }
    log("info", "stopped following", { from: source.describe })
    return 0
  } finally {
    await fleet?.close().catch(() => undefined)
    process.off("SIGTERM", onSignal)
    process.off("SIGINT", onSignal)
  }
}
