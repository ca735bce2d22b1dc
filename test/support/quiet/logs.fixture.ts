/**
 * Two tests that each log in-process and through a child process: one passes, one fails on
 * purpose. Run only by test/testOutput.test.ts, through the config beside this file.
 */
import { spawn } from "node:child_process"
import { expect, it } from "vitest"
import { logChildOutput } from "../testLog.ts"

/** A child that writes `line` to its stdout and `line (stderr)` to its stderr, then exits. */
const child = (line: string): Promise<void> =>
  new Promise((resolve) => {
    const script = `console.log(${JSON.stringify(line)}); console.error(${JSON.stringify(`${line} (stderr)`)})`
    const c = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "pipe"] })
    logChildOutput(c, "child").on("close", () => resolve())
  })

it("passes", async () => {
  console.error("in-process line of the passing test")
  await child("child line of the passing test")
  expect(1 + 1).toBe(2)
})

it("fails", async () => {
  console.error("in-process line of the failing test")
  await child("child line of the failing test")
  expect("the value the failing test got").toBe("the value it wanted")
})
