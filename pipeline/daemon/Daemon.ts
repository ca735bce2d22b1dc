/**
 * `pipeline daemon`: runs the daily batch on a node-cron schedule in America/Santiago. Each tick
 * is the same run as `pipeline run` (options read afresh: today changes), under the data folder's
 * lock, with a bounded retry of source failures; `./fds pipeline daemon` runs it in a child
 * process with a memory limit (ChildTick.ts), so a run that exhausts memory fails, not the daemon. Runs never overlap: a tick that comes while a run
 * (or its retry wait) is going on is skipped and logged. A rejected batch is never published
 * (runPipeline leaves CURRENT alone). Stopping interrupts a run in progress: it has published
 * nothing yet or already everything, and its temporary files are swept by the next run.
 *
 * A run that published a batch calls `afterPublish` (the alert mails, wired by ops/main.ts) before
 * the daemon takes the next tick; its failure is logged and never fails the run, and stopping the
 * daemon interrupts it through its signal.
 */
import cron from "node-cron"
import type { RunOptions } from "../RunOptions.ts"
import type { Log } from "./Log.ts"
import type { RetryPolicy } from "./Retry.ts"
import { inProcessTick, type Published, type RunTick } from "./Tick.ts"

export type { Published } from "./Tick.ts"

export const TIMEZONE = "America/Santiago"
export const DEFAULT_CRON = "30 7 * * 1-6"

export interface DaemonOptions {
  /** node-cron expression (five fields, or six with seconds first), in America/Santiago. */
  readonly cron: string
  readonly retry: RetryPolicy
  /** The run of one tick, in this process; called at each tick (unless `tick` is given). */
  readonly runOptions?: () => RunOptions
  /** How a tick runs: default, in this process on `runOptions` (ChildTick.ts runs it in a child with a memory limit). */
  readonly tick?: RunTick
  readonly log: Log
  /**
   * Called after a run that published (not after an unchanged, rejected or failed one), outside
   * the data folder's lock; `signal` aborts when the daemon stops. The fields it returns go into
   * the "after publish finished" log line.
   */
  readonly afterPublish?: ((published: Published, signal: AbortSignal) => Promise<Readonly<Record<string, unknown>> | undefined>) | undefined
}

export interface Daemon {
  /** Stops the schedule, interrupts a run in progress and waits for it to end. */
  readonly stop: () => Promise<void>
}

export const startDaemon = (options: DaemonOptions): Daemon => {
  if (!cron.validate(options.cron)) throw new Error(`FDS_PIPELINE_CRON is not a cron expression: "${options.cron}"`)
  const { log } = options
  let running: { readonly controller: AbortController; readonly done: Promise<void> } | null = null
  let stopping = false
  let runs = 0

  const afterPublish = async (run: number, published: Published, signal: AbortSignal): Promise<void> => {
    if (options.afterPublish === undefined) return
    const started = performance.now()
    const seconds = () => Number(((performance.now() - started) / 1000).toFixed(1))
    try {
      const fields = await options.afterPublish(published, signal)
      log("info", "after publish finished", { run, batch_date: published.batchDate, ...fields, seconds: seconds() })
    } catch (e) {
      log(signal.aborted ? "warn" : "error", "after publish failed", {
        run,
        batch_date: published.batchDate,
        reason: String(e).slice(0, 2000),
        seconds: seconds(),
      })
    }
  }

  const runTick: RunTick =
    options.tick ??
    (options.runOptions === undefined
      ? () => Promise.reject(new Error("the daemon needs runOptions or tick"))
      : inProcessTick(options.runOptions, options.retry))

  const runOnce = async (): Promise<void> => {
    const run = ++runs
    const controller = new AbortController()
    const started = performance.now()
    let done!: () => void
    running = { controller, done: new Promise<void>((resolve) => (done = resolve)) }
    try {
      const { level, fields, published } = await runTick(run, controller.signal, log)
      log(level, "run finished", { run, ...fields, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) })
      if (published !== null) await afterPublish(run, published, controller.signal)
    } catch (e) {
      log("error", "run finished", { run, outcome: "failed", reason: String(e) })
    } finally {
      running = null
      done()
    }
  }

  const tick = async (): Promise<void> => {
    if (stopping) return
    if (running !== null) {
      log("info", "tick skipped: the previous run is still going on")
      return
    }
    await runOnce()
  }

  const task = cron.schedule(options.cron, tick, { timezone: TIMEZONE, noOverlap: true, name: "fds-pipeline" })
  task.on("execution:overlap", () => log("info", "tick skipped: the previous run is still going on"))
  task.on("execution:missed", (ctx) => log("info", "tick missed", { at: ctx.date.toISOString() }))
  log("info", "daemon started", { cron: options.cron, timezone: TIMEZONE, next_run: task.getNextRun()?.toISOString() ?? null })

  return {
    stop: async () => {
      if (stopping) return
      stopping = true
      await task.destroy()
      const current = running as { readonly controller: AbortController; readonly done: Promise<void> } | null
      if (current !== null) {
        log("warn", "stopping: interrupting the run in progress")
        current.controller.abort()
        await current.done
      }
      log("info", "daemon stopped")
    },
  }
}
