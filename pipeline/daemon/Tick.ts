/**
 * One daemon tick: a run of the batch with the retry of source failures, summed up as the log line
 * "run finished" says it. Two ways to run it: in this process (tests that hand the daemon their
 * own run options) or in a child process of its own with a memory limit (ChildTick.ts, what
 * `./fds pipeline daemon` does), so that a run that exhausts memory fails that run, not the daemon.
 */
import { Cause, Effect, Exit } from "effect"
import { runPipelineLive, withoutFi } from "../Pipeline.ts"
import type { RunOutcome } from "../run/Outcome.ts"
import type { RunOptions } from "../RunOptions.ts"
import type { Level, Log } from "./Log.ts"
import { type RetryPolicy, withSourceRetry } from "./Retry.ts"
import { lockedMessage, withRunLock } from "./RunLock.ts"
import { withJsonLogs } from "../../snapshots/Log.ts"

/** The outcome of a run that published a batch. */
export type Published = Extract<RunOutcome, { readonly outcome: "published" }>

/** How a tick ended: the "run finished" line's level and fields, and the batch it published (for afterPublish). */
export interface TickResult {
  readonly level: Level
  readonly fields: Readonly<Record<string, unknown>>
  readonly published: Published | null
}

/** What a run child (RunChild.ts) says to the daemon over IPC: its log lines, then its result. */
export type ChildMessage =
  | { readonly type: "log"; readonly level: Level; readonly msg: string; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly type: "result"; readonly result: TickResult }

/** Runs tick number `run`; `signal` aborts it (the daemon stops); `log` writes the daemon's lines. */
export type RunTick = (run: number, signal: AbortSignal, log: Log) => Promise<TickResult>

export const summarize = (exit: Exit.Exit<RunOutcome, unknown>): TickResult => {
  if (Exit.isSuccess(exit)) {
    const r = exit.value
    const published = r.outcome === "published" ? r : null
    // a batch out without its FI/ETF part is a warning: part of the API answers 503 until the next one
    if (r.outcome === "published" && r.fiUnavailable !== null) {
      return { level: "warn", fields: { outcome: r.outcome, batch_date: r.batchDate, file: r.file, reason: withoutFi(r.fiUnavailable) }, published }
    }
    const waiting = r.waiting.length === 0 ? {} : { waiting: r.waiting.map((w) => `${w.dataSet}: ${w.why}`) }
    return {
      level: r.waiting.length === 0 ? "info" : "warn",
      fields: { outcome: r.outcome, batch_date: r.batchDate, file: r.file, ...(r.outcome === "unchanged" && r.note !== undefined ? { note: r.note } : {}), ...waiting },
      published,
    }
  }
  if (Exit.hasInterrupts(exit)) return { level: "warn", fields: { outcome: "interrupted" }, published: null }
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")?.error as { _tag?: string; kind?: string; reason?: string } | undefined
  if (error?._tag === "BatchRejectedError") {
    return { level: "error", fields: { outcome: error.kind === "content" ? "rejected" : "failed", kind: error.kind, reason: error.reason }, published: null }
  }
  if (error?._tag === "RunLocked") return { level: "warn", fields: { outcome: "skipped", reason: lockedMessage(error as never) }, published: null }
  return { level: "error", fields: { outcome: "failed", reason: Cause.pretty(exit.cause).slice(0, 2000) }, published: null }
}

/** The run of `runOptions()` under the data folder's lock, retried after source failures. */
export const runTickEffect = (runOptions: RunOptions, retry: RetryPolicy, log: Log, run: number, signal: AbortSignal): Promise<TickResult> => {
  const attempt = withRunLock(runOptions.dataDir, runPipelineLive(runOptions))
  const onRetry = (r: { retry: number; delayMillis: number; reason: string }) =>
    log("warn", "source failed; retrying the run", { run, retry: r.retry, of: retry.retries, after_ms: r.delayMillis, reason: r.reason })
  return Effect.runPromiseExit(withJsonLogs(withSourceRetry(attempt, retry, onRetry)), { signal }).then(summarize)
}

/** Each tick in this process, on the run options read at the tick. */
export const inProcessTick =
  (runOptions: () => RunOptions, retry: RetryPolicy): RunTick =>
  (run, signal, log) => {
    const options = runOptions()
    log("info", "run started", { run, today: options.today })
    return runTickEffect(options, retry, log, run, signal)
  }
