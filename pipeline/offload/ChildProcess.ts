/**
 * Work on both cores in a cold build: a child process does part of it while this thread does the
 * rest. A process rather than a worker thread because its memory goes back to the system when it
 * exits (a worker thread that parsed half of the history left ~300 MB resident in this process at
 * market scale, past the pipeline's 1 GB). The request goes through a file (this thread does not
 * return to the event loop while it works, so a pipe would not drain); the child prints its answer
 * as one JSON line and exits.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PARSE_CHILD_HEAP_MB } from "../cmf/ParseLimits.ts"

/**
 * Starts `script` with the request, runs `work` on this thread meanwhile, then waits for the child
 * and gives its answer: `noAnswer` when it printed none (it could not be started, crashed, was
 * killed, or outlived `deadlineMs` and was killed then), which callers treat as "do that part
 * here". `work` throwing stops the child. The child is killed if this process exits first.
 */
export const alongsideProcess = async <Answer>(
  script: URL,
  request: unknown,
  work: () => void,
  noAnswer: Answer,
  deadlineMs = 30 * 60_000,
): Promise<Answer> => {
  let dir: string | null = null
  let child: ChildProcess | null = null
  try {
    dir = mkdtempSync(join(tmpdir(), "fds-alongside-"))
    const requestFile = join(dir, "request.json")
    writeFileSync(requestFile, JSON.stringify(request))
    // The options this process runs with (--expose-gc), not a profiler's; the child's heap capped
    // (ParseLimits.ts): a child past it dies, and its part is done here, under the parse limits.
    const execArgv = [
      ...process.execArgv.filter(
        (a) => !a.startsWith("--cpu-prof") && !a.startsWith("--heap-prof") && !a.startsWith("--inspect") && !a.startsWith("--max-old-space-size"),
      ),
      `--max-old-space-size=${PARSE_CHILD_HEAP_MB}`,
    ]
    child = spawn(process.execPath, [...execArgv, fileURLToPath(script), requestFile], { stdio: ["ignore", "pipe", "inherit"] })
  } catch {
    child = null // no child (a full or unwritable tmpdir, no process to spare): all of it here
  }
  const started = child
  if (started === null || started.stdout === null) {
    started?.kill()
    if (dir !== null) rmSync(dir, { recursive: true, force: true })
    work()
    return noAnswer
  }
  const killChild = () => started.kill("SIGKILL")
  process.once("exit", killChild)
  try {
    let out = ""
    started.stdout.setEncoding("utf8")
    started.stdout.on("data", (d: string) => {
      out += d
    })
    const closed = new Promise<void>((resolve) => {
      started.on("close", () => resolve())
      started.on("error", () => resolve())
    })
    try {
      work()
    } catch (e) {
      killChild()
      throw e
    }
    const timer = setTimeout(killChild, deadlineMs)
    await closed
    clearTimeout(timer)
    const line = out.trim().split("\n").at(-1) ?? ""
    try {
      return line === "" ? noAnswer : (JSON.parse(line) as Answer)
    } catch {
      return noAnswer
    }
  } finally {
    process.removeListener("exit", killChild)
    rmSync(dir!, { recursive: true, force: true })
  }
}

/** The child's side: its request, from the file its parent named. */
export const childRequest = <Request>(): Request => JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Request

/** The child's side: its answer, one JSON line on stdout. */
export const childAnswer = (answer: unknown): void => {
  process.stdout.write(`${JSON.stringify(answer)}\n`)
}
