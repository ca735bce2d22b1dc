/**
 * Runs Debian's /usr/bin/python3 (it has pandas; the python3 on PATH may not) with the Python
 * package (clients/python) on PYTHONPATH: a script's stdout lines come back parsed as JSON. The
 * wheel test runs a virtual environment's programs through it too, without the checkout.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import type { Writable } from "node:stream"

// biome-ignore lint/suspicious/noExplicitAny: the scripts print whatever JSON; the tests assert on it
export type Json = any

export const PYTHON = "/usr/bin/python3"
export const PACKAGE_DIR = join(import.meta.dirname, "../../clients/python")

/** Printed by every script before its own code: `out(value)` writes one JSON line; `caught(f)` describes what f raised. */
const PRELUDE = `
import json, sys, time
import fds_client
def out(value):
    print(json.dumps(value, default=str), flush=True)
def caught(f):
    try:
        f()
    except Exception as e:
        fields = ("status", "type", "title", "detail", "instance", "code", "parameter", "retry_after", "request_id", "method", "path",
                  "reset", "reset_at", "limit")
        d = {k: getattr(e, k, None) for k in fields}
        d["reset_at"] = d["reset_at"] and d["reset_at"].isoformat()
        d.update({"class": type(e).__name__, "fds_error": isinstance(e, fds_client.FdsError), "str": str(e), "repr": repr(e),
                  "problem": getattr(e, "problem", None)})
        return d
    return None
`

export interface PythonRun {
  /** Each line of stdout, parsed as JSON. */
  readonly lines: Json[]
  /** The last line. */
  readonly result: Json
  /** stdout as printed. */
  readonly stdout: string
  readonly stderr: string
  readonly code: number | null
}

export interface PythonOptions {
  /** The script's arguments (sys.argv[1:]). */
  readonly argv?: ReadonlyArray<string>
  readonly env?: Record<string, string>
  readonly onLine?: (line: Json, stdin: Writable) => void
  /** The program to run (default Debian's python3; e.g. a virtual environment's pip or script). */
  readonly program?: string
  readonly cwd?: string
  /** false: no PYTHONPATH, no user site, HOME the cwd (a program that must not see the checkout). Default true. */
  readonly checkoutPackage?: boolean
  /** Stopped after this long (default 50 s, before a test's own timeout). */
  readonly timeoutMillis?: number
}

/**
 * Runs `code` (after PRELUDE) in Debian's python3 with the package on PYTHONPATH and nothing of
 * this process's environment but `env`; `onLine` sees each line as it comes (and may answer on stdin).
 */
export const python = (code: string, options: PythonOptions = {}): Promise<PythonRun> =>
  runPython(["-c", `${PRELUDE}\n${code}`, ...(options.argv ?? [])], options)

/** Runs python3 (or `options.program`) with `args` (e.g. `-m fds_client …`), as `python` does. */
export const runPython = (args: ReadonlyArray<string>, options: PythonOptions): Promise<PythonRun> =>
  new Promise((resolve, reject) => {
    const base =
      options.checkoutPackage === false
        ? { PATH: "/usr/bin:/bin", HOME: options.cwd ?? "/nonexistent", PYTHONNOUSERSITE: "1", LANG: "C.UTF-8" }
        : { PATH: "/usr/bin:/bin", PYTHONPATH: PACKAGE_DIR, PYTHONDONTWRITEBYTECODE: "1", LANG: "C.UTF-8" }
    const child = spawn(options.program ?? PYTHON, [...args], {
      cwd: options.cwd,
      env: { ...base, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      // a script left waiting (for stdin, or a server) is stopped before the test's own timeout
      timeout: options.timeoutMillis ?? 50_000,
    })
    if (options.onLine === undefined) child.stdin.end()
    const lines: Json[] = []
    let pending = ""
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk
      pending += chunk
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
        const text = pending.slice(0, nl)
        pending = pending.slice(nl + 1)
        let line: Json
        try {
          line = JSON.parse(text)
        } catch {
          line = text
        }
        lines.push(line)
        options.onLine?.(line, child.stdin)
      }
    })
    child.stderr.setEncoding("utf8")
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk
    })
    child.on("error", reject)
    child.on("close", (code) => {
      if (pending !== "") lines.push(pending)
      resolve({ lines, result: lines.at(-1), stdout, stderr, code })
    })
  })

