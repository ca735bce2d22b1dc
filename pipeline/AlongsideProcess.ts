/**
 * Work on both cores in a cold build: a child process does part of it while this thread does the
 * rest. A process rather than a worker thread because its memory goes back to the system when it
 * exits (a worker thread that parsed half of the history left ~300 MB resident in this process at
 * market scale, past the pipeline's 1 GB). The request goes through a file (this thread does not
 * return to the event loop while it works, so a pipe would not drain); the child prints its answer
 * as one JSON line and exits.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * Starts `script` with the request, runs `work` on this thread meanwhile, then waits for the child
 * and gives its answer (`noAnswer` when it printed none: killed, crashed). `work` throwing stops
 * the child.
 */
export const alongsideProcess = async <Answer>(script: URL, request: unknown, work: () => void, noAnswer: Answer): Promise<Answer> => {
  const dir = mkdtempSync(join(tmpdir(), "fds-alongside-"))
  try {
    const requestFile = join(dir, "request.json")
    writeFileSync(requestFile, JSON.stringify(request))
    // the options this process runs with (--expose-gc), not a profiler's
    const execArgv = process.execArgv.filter((a) => !a.startsWith("--cpu-prof") && !a.startsWith("--heap-prof") && !a.startsWith("--inspect"))
    const child = spawn(process.execPath, [...execArgv, fileURLToPath(script), requestFile], { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (d: string) => {
      out += d
    })
    const closed = new Promise<void>((resolve) => {
      child.on("close", () => resolve())
      child.on("error", () => resolve())
    })
    try {
      work()
    } catch (e) {
      child.kill()
      throw e
    }
    await closed
    const line = out.trim().split("\n").at(-1) ?? ""
    try {
      return line === "" ? noAnswer : (JSON.parse(line) as Answer)
    } catch {
      return noAnswer
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The child's side: its request, from the file its parent named. */
export const childRequest = <Request>(): Request => JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Request

/** The child's side: its answer, one JSON line on stdout. */
export const childAnswer = (answer: unknown): void => {
  process.stdout.write(`${JSON.stringify(answer)}\n`)
}
