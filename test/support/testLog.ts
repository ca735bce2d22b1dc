/**
 * Log lines of what a test runs (an in-process server's access and error lines, a child process's
 * output: an API server's or the pipeline's), labelled, on the test's console: vitest keeps a
 * test's console output and prints it only for a test, suite or file that fails (`silent:
 * "passed-only"` in vitest.config.ts). A line is kept with the test running when it came, so a
 * server started in beforeAll has its lines of each test kept with that test.
 */
import type { ChildProcess } from "node:child_process"
import type { Readable } from "node:stream"
import { StringDecoder } from "node:string_decoder"

// The console vitest gives the test file, taken before a test can spy on console.log or
// console.error (test/ops/support/storeLog.ts does, to read the in-process store's own lines):
// these lines must not be read as those.
const toStdout = console.log.bind(console)
const toStderr = console.error.bind(console)

/**
 * A sink for structured log lines (an in-process server's `accessLog` or `errorLog`): each line as
 * JSON, prefixed with `[label]`. Writing to stdout or stderr directly would bypass vitest: the
 * line would be printed whether the test passes or not.
 */
export const logLinesTo =
  (label: string) =>
  (line: object): void =>
    toStdout(`[${label}] ${JSON.stringify(line)}`)

const passLines = (stream: Readable | null, label: string, write: (line: string) => void): void => {
  if (stream === null) return
  const decoder = new StringDecoder("utf8")
  let partial = ""
  const emit = (text: string) => {
    const lines = (partial + text).split("\n")
    partial = lines.pop()!
    for (const line of lines) write(`[${label}] ${line}`)
  }
  // An added listener: the caller's own "data" listeners still see every chunk.
  stream.on("data", (chunk: Buffer | string) => emit(typeof chunk === "string" ? chunk : decoder.write(chunk)))
  stream.on("end", () => {
    emit(decoder.end())
    if (partial !== "") write(`[${label}] ${partial}`)
    partial = ""
  })
}

/** Passes `child`'s piped stdout and stderr to the test console, each line prefixed with `[label]`. */
export const logChildOutput = <C extends ChildProcess>(child: C, label: string): C => {
  passLines(child.stdout, label, toStdout)
  passLines(child.stderr, label, toStderr)
  return child
}
