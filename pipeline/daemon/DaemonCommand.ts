/**
 * `./fds pipeline daemon`: the schedule from the environment; stops on SIGINT or SIGTERM. The
 * composition root (ops/main.ts) passes `afterPublish` to send the alert mails.
 */
import { type Daemon, type DaemonOptions, DEFAULT_CRON, startDaemon } from "./Daemon.ts"
import { jsonLog } from "./Log.ts"
import { Config, Effect } from "effect"
import { invalidSetting, numberSetting, readSettings, textSetting } from "../Settings.ts"
import { childTick } from "./ChildTick.ts"
import { runOptions } from "./RunConfig.ts"

/**
 * The schedule, the retry of source failures and each run's memory limit (FDS_PIPELINE_CRON,
 * FDS_PIPELINE_RETRIES, FDS_PIPELINE_RETRY_BASE_MS, FDS_PIPELINE_MAX_MEMORY_MB: whole MB, 0 none).
 */
/** Each run's memory limit by default: above a cold build at market scale, far below a runaway. */
export const DEFAULT_MAX_MEMORY_MB = 4096

export const daemonSettings = Config.all({
  cron: textSetting("FDS_PIPELINE_CRON", DEFAULT_CRON),
  retries: numberSetting("FDS_PIPELINE_RETRIES", 3),
  baseMillis: numberSetting("FDS_PIPELINE_RETRY_BASE_MS", 300_000),
  maxMemoryMb: numberSetting("FDS_PIPELINE_MAX_MEMORY_MB", DEFAULT_MAX_MEMORY_MB).pipe(
    Config.mapEffect((mb) =>
      Number.isInteger(mb) && (mb === 0 || mb >= 64)
        ? Effect.succeed(mb)
        : Effect.fail(invalidSetting(`FDS_PIPELINE_MAX_MEMORY_MB must be a whole number of MB, 64 or more (0: no limit), got "${mb}"`, mb)),
    ),
  ),
})

/** The daemon, its settings read from the environment (each tick's child reads its own, the same). */
export const daemonCommand = (hooks: Pick<DaemonOptions, "afterPublish"> = {}): void => {
  const log = jsonLog()
  let daemon: Daemon
  try {
    const { dataDir } = readSettings(runOptions({})) // settings checked now, not at the first tick
    const { cron, retries, baseMillis, maxMemoryMb } = readSettings(daemonSettings)
    const retry = { retries, baseMillis }
    daemon = startDaemon({
      cron,
      retry,
      // Each run in a child process that reads its options at the tick: today changes, and so may the inbox.
      tick: childTick({ dataDir, retry, maxMemoryMb }),
      log,
      afterPublish: hooks.afterPublish,
    })
  } catch (e) {
    console.error(`fds: ${(e as Error).message}`)
    process.exit(2)
  }
  const stop = (signal: NodeJS.Signals) => {
    log("info", "signal received", { signal })
    daemon.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        log("error", "stop failed", { error: String(e) })
        process.exit(1)
      },
    )
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}
