/**
 * `pipeline daemon`: runs the daily batch on a node-cron schedule in America/Santiago. Each tick
 * is the same run as `pipeline run` (options read afresh: today changes), under the data folder's
 * lock, with a bounded retry of source failures. Runs never overlap: a tick that comes while a run
 * (or its retry wait) is going on is skipped and logged. A rejected batch is never published
 * (runPipeline leaves CURRENT alone). Stopping interrupts a run in progress: it has published
 * nothing yet or already everything, and its temporary files are swept by the next run.
 *
 * A run that published a batch calls `afterPublish` (the alert mails, wired by ops/main.ts) before
 * the daemon takes the next tick; its failure is logged and never fails the run, and stopping the
 * daemon interrupts it through its signal.
 */
import { Cause, Effect, Exit } from "effect"
import cron from "node-cron"
import { type RunOptions, type RunOutcome, runPipelineLive, withoutFi } from "../Pipeline.ts"
import type { Log } from "./Log.ts"
import { type RetryPolicy, withSourceRetry } from "./Retry.ts"
import { lockedMessage, withRunLock } from "./RunLock.ts"

export const TIMEZONE = "America/Santiago"
export const DEFAULT_CRON = "30 7 * * 1-6"

/** The outcome of a run that published a batch. */
export type Published = Extract<RunOutcome, { readonly outcome: "published" }>

export interface DaemonOptions {
  /** node-cron expression (five fields, or six with seconds first), in America/Santiago. */
  readonly cron: string
  readonly retry: RetryPolicy
  /** The run of one tick; called at each tick. */
  readonly runOptions: () => RunOptions
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

const summarize = (exit: Exit.Exit<RunOutcome, unknown>): { level: "info" | "warn" | "error"; fields: Record<string, unknown> } => {
  if (Exit.isSuccess(exit)) {
    const r = exit.value
    // a batch out without its FI/ETF part is a warning: part of the API answers 503 until the next one
    if (r.outcome === "published" && r.fiUnavailable !== null) {
      return { level: "warn", fields: { outcome: r.outcome, batch_date: r.batchDate, file: r.file, reason: withoutFi(r.fiUnavailable) } }
    }
    const waiting = r.waiting.length === 0 ? {} : { waiting: r.waiting.map((w) => `${w.dataSet}: ${w.why}`) }
    return {
      level: r.waiting.length === 0 ? "info" : "warn",
      fields: { outcome: r.outcome, batch_date: r.batchDate, file: r.file, ...(r.outcome === "unchanged" && r.note !== undefined ? { note: r.note } : {}), ...waiting },
    }
  }
  if (Exit.hasInterrupts(exit)) return { level: "warn", fields: { outcome: "interrupted" } }
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")?.error as { _tag?: string; kind?: string; reason?: string } | undefined
  if (error?._tag === "BatchRejectedError") {
    return { level: "error", fields: { outcome: error.kind === "content" ? "rejected" : "failed", kind: error.kind, reason: error.reason } }
  }
  if (error?._tag === "RunLocked") return { level: "warn", fields: { outcome: "skipped", reason: lockedMessage(error as never) } }
  return { level: "error", fields: { outcome: "failed", reason: Cause.pretty(exit.cause).slice(0, 2000) } }
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

  const runOnce = async (): Promise<void> => {
    const run = ++runs
    const controller = new AbortController()
    const started = performance.now()
    let done!: () => void
    running = { controller, done: new Promise<void>((resolve) => (done = resolve)) }
    try {
      const runOptions = options.runOptions()
      log("info", "run started", { run, today: runOptions.today })
      const attempt = withRunLock(runOptions.dataDir, runPipelineLive(runOptions))
      const onRetry = (r: { retry: number; delayMillis: number; reason: string }) =>
        log("warn", "source failed; retrying the run", { run, retry: r.retry, of: options.retry.retries, after_ms: r.delayMillis, reason: r.reason })
      const exit = await Effect.runPromiseExit(withSourceRetry(attempt, options.retry, onRetry), { signal: controller.signal })
      const { level, fields } = summarize(exit)
      log(level, "run finished", { run, ...fields, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) })
      if (Exit.isSuccess(exit) && exit.value.outcome === "published") await afterPublish(run, exit.value, controller.signal)
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
