/**
 * The one log format of every process (server, pipeline, daemon and its run child, ops commands):
 * one JSON object per line, `{"time":ISO,"level":"info"|"warn"|"error"|…,"msg":…, …fields}`, the
 * fields being the log's annotations (`Effect.annotateLogs`), then `spans` (label → ms) and
 * `cause` when there are any. Code in Effect logs with `Effect.log*` under `JsonLogger` (each
 * main installs it in place of Effect's default logger); plain synchronous code outside any
 * Effect (a pool's error event, a signal handler) calls `logLine`. Both go through `formatLine`,
 * the only place a log line is made (test/architecture/logging.test.ts holds that). The access
 * log (api/http/RequestLog.ts, ServerErrors.ts) keeps its own line.
 *
 * Lines go to stderr through `console.error` (so a test's console spy sees them), except where a
 * process's contract says otherwise: the daemon writes its own lines on stdout (pipeline/daemon/Log.ts).
 *
 * It lives in snapshots/, the lowest layer with I/O, so that pipeline/, api/, accounts/ and ops/ all
 * reach it (schemas/ has no I/O).
 */
import { Cause, Effect, Formatter, type Layer, Logger, References } from "effect"

export type Level = "trace" | "debug" | "info" | "warn" | "error" | "fatal"

/** The one formatter: time, level, msg, then the fields in their order. */
export const formatLine = (level: Level, msg: string, fields: Readonly<Record<string, unknown>> = {}, date: Date = new Date()): string =>
  Formatter.formatJson({ time: date.toISOString(), level, msg, ...fields })

/** One log line on stderr, for synchronous code that runs outside any Effect. */
export const logLine = (level: Level, msg: string, fields: Readonly<Record<string, unknown>> = {}): void => {
  console.error(formatLine(level, msg, fields))
}

const messageText = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts.map((p) => (typeof p === "string" ? p : Formatter.formatJson(p))).join(" ")
}

/** Effect's level names (`Warn`, `Error`, …) as the lines spell them. */
const levelOf = (logLevel: string): Level => logLevel.toLowerCase() as Level

/** The Effect `Logger` of the format above, writing each line with `write` (default: stderr). */
export const jsonLogger = (write: (line: string) => void = (line) => console.error(line)): Logger.Logger<unknown, void> =>
  Logger.make(({ message, logLevel, cause, fiber, date }) => {
    const fields: Record<string, unknown> = { ...fiber.getRef(References.CurrentLogAnnotations) }
    const spans = fiber.getRef(References.CurrentLogSpans)
    if (spans.length > 0) fields.spans = Object.fromEntries(spans.map(([label, start]) => [label, date.getTime() - start]))
    if (cause.reasons.length > 0) fields.cause = Cause.pretty(cause)
    write(formatLine(levelOf(logLevel), messageText(message), fields, date))
  })

/** Every main's logger: the JSON lines on stderr, in place of Effect's default logger. */
export const JsonLogger: Layer.Layer<never> = Logger.layer([jsonLogger()])

/** `self` with its logs written by `JsonLogger`, for a main's `Effect.run*`. */
export const withJsonLogs = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => Effect.provide(self, JsonLogger)
