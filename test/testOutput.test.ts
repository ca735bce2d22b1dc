/**
 * What a run prints: a test's own log lines (in-process, and its children's through
 * test/support/testLog.ts) only when it fails, next to its failure. Runs vitest with the
 * project's settings on a fixture holding one passing and one failing test, the way .ci/run does.
 */
import { spawn } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it, vi } from "vitest"
import { logChildOutput } from "./support/testLog.ts"

const root = join(import.meta.dirname, "..")

const runFixture = (extra: ReadonlyArray<string>): Promise<{ readonly code: number | null; readonly output: string }> =>
  new Promise((resolve) => {
    // the outer run's worker variables would make the inner vitest think it is a worker
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST")))
    const child = spawn(
      process.execPath,
      [join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", "test/support/quiet/vitest.config.ts", "--reporter=dot", ...extra],
      { cwd: root, env: { ...env, NO_COLOR: "1", CI: "true" }, stdio: ["ignore", "pipe", "pipe"] },
    )
    let output = ""
    child.stdout.on("data", (c: Buffer) => (output += c.toString()))
    child.stderr.on("data", (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })

describe("test output", () => {
  it("prints a failing test's log lines and its children's, with its failure, and none of a passing test's", async () => {
    const { code, output } = await runFixture([])
    expect(code, output).toBe(1)
    expect(output).toContain("the value the failing test got")
    expect(output).toContain("in-process line of the failing test")
    expect(output).toContain("[child] child line of the failing test\n")
    expect(output).toContain("[child] child line of the failing test (stderr)")
    expect(output).not.toContain("of the passing test")
    expect(output).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/)
  }, 120_000)

  it("prints every line with --silent=false (the passing test's lines are there to hide)", async () => {
    const { code, output } = await runFixture(["--silent=false"])
    expect(code, output).toBe(1)
    expect(output).toContain("in-process line of the passing test")
    expect(output).toContain("[child] child line of the passing test\n")
    expect(output).toContain("[child] child line of the passing test (stderr)")
  }, 120_000)

  it("a child's lines bypass a spy on console.log / console.error (the store-log capture reads only its own server's)", async () => {
    const seen: unknown[][] = []
    const keep = (...args: unknown[]) => void seen.push(args)
    vi.spyOn(console, "log").mockImplementation(keep)
    vi.spyOn(console, "error").mockImplementation(keep)
    try {
      const c = spawn(process.execPath, ["-e", `console.log('{"level":"info","msg":"from the child"}')`], { stdio: ["ignore", "pipe", "pipe"] })
      await new Promise((resolve) => logChildOutput(c, "child").on("close", resolve))
      console.log("from the test")
    } finally {
      vi.restoreAllMocks()
    }
    expect(seen).toEqual([["from the test"]])
  })
})
