/**
 * `./fds pipeline daemon`: the schedule from the environment; stops on SIGINT or SIGTERM. The
 * composition root (ops/main.ts) passes `afterPublish` to send the alert mails.
 */
import { type Daemon, type DaemonOptions, DEFAULT_CRON, startDaemon } from "./Daemon.ts"
import { jsonLog } from "./Log.ts"
import { Config } from "effect"
import { numberSetting, readSettings, textSetting } from "../Settings.ts"
import { runOptionsFromEnv } from "./RunConfig.ts"

/** The schedule and the retry of source failures (FDS_PIPELINE_CRON, FDS_PIPELINE_RETRIES, FDS_PIPELINE_RETRY_BASE_MS). */
export const daemonSettings = Config.all({
  cron: textSetting("FDS_PIPELINE_CRON", DEFAULT_CRON),
  retries: numberSetting("FDS_PIPELINE_RETRIES", 3),
  baseMillis: numberSetting("FDS_PIPELINE_RETRY_BASE_MS", 300_000),
})

export const daemonCommand = (
  env: NodeJS.ProcessEnv = process.env,
  hooks: Pick<DaemonOptions, "afterPublish"> = {},
): void => {
  const log = jsonLog()
  let daemon: Daemon
  try {
    runOptionsFromEnv(env, {}) // settings checked now, not at the first tick
    const { cron, retries, baseMillis } = readSettings(daemonSettings, env)
    daemon = startDaemon({
      cron,
      retry: { retries, baseMillis },
      // Read at each tick: today changes, and so may the inbox.
      runOptions: () => runOptionsFromEnv(env, {}),
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
