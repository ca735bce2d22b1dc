/**
 * A cold build's work on both cores (pipeline/offload/ChildProcess.ts): a child process does part of
 * it while this thread does the rest. Whatever becomes of the child — it answers, hangs past its
 * deadline, cannot be started, runs other code than its parent — this thread's part is done, and a
 * missing answer is `noAnswer` (the caller then does the child's part itself), never a hang or a
 * crash of the build.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { alongsideProcess } from "../../pipeline/offload/ChildProcess.ts"
import { PARSE_CHILD_HEAP_MB } from "../../pipeline/cmf/ParseLimits.ts"
import type { ParseAheadAnswer } from "../../pipeline/ParseAhead.ts"

const dir = mkdtempSync(join(tmpdir(), "fds-alongside-test-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const script = (name: string, body: string): URL => {
  const path = join(dir, name)
  writeFileSync(path, body)
  return pathToFileURL(path)
}
const NO = { _tag: "none" } as const
const leftovers = () => readdirSync(tmpdir()).filter((f) => f.startsWith("fds-alongside-") && !dir.endsWith(f))

describe("a child process alongside this thread", () => {
  it("gives the child's answer (its last line), read from the request file it was given, after this thread's work", async () => {
    const echo = script(
      "echo.mjs",
      `import { readFileSync } from "node:fs"
       const request = JSON.parse(readFileSync(process.argv[2], "utf8"))
       console.log("a line before the answer")
       console.log(JSON.stringify({ doubled: request.n * 2 }))`,
    )
    const before = leftovers()
    let worked = false
    const answer = await alongsideProcess(echo, { n: 21 }, () => (worked = true), NO)
    expect(worked).toBe(true)
    expect(answer).toEqual({ doubled: 42 })
    // the request file's folder is gone
    expect(leftovers()).toEqual(before)
  })

  it("kills a child that outlives its deadline and gives noAnswer", async () => {
    const hang = script("hang.mjs", "setInterval(() => {}, 1000)\n")
    const started = performance.now()
    let worked = false
    const answer = await alongsideProcess(hang, {}, () => (worked = true), NO, 500)
    expect([worked, answer]).toEqual([true, NO])
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it("gives noAnswer for a child that crashes or prints no JSON", async () => {
    expect(await alongsideProcess(script("crash.mjs", "process.exit(3)\n"), {}, () => {}, NO)).toEqual(NO)
    expect(await alongsideProcess(script("junk.mjs", "console.log('not json')\n"), {}, () => {}, NO)).toEqual(NO)
  })

  it("does this thread's work and gives noAnswer when no child can be started (no writable temporary folder)", async () => {
    const saved = process.env.TMPDIR
    process.env.TMPDIR = join(dir, "missing", "folder")
    try {
      let worked = false
      const answer = await alongsideProcess(script("never.mjs", "console.log('{}')\n"), {}, () => (worked = true), NO)
      expect([worked, answer]).toEqual([true, NO])
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
    }
  })

  it("runs the child with its heap capped at PARSE_CHILD_HEAP_MB, whatever this process was given", async () => {
    const limit = script(
      "limit.mjs",
      `import { getHeapStatistics } from "node:v8"
       console.log(JSON.stringify({ execArgv: process.execArgv, heapLimitMb: getHeapStatistics().heap_size_limit / 2 ** 20 }))`,
    )
    const answer = await alongsideProcess<{ execArgv: Array<string>; heapLimitMb: number } | typeof NO>(limit, {}, () => {}, NO)
    expect(answer).not.toEqual(NO)
    const { execArgv, heapLimitMb } = answer as { execArgv: Array<string>; heapLimitMb: number }
    expect(execArgv.filter((a) => a.startsWith("--max-old-space-size"))).toEqual([`--max-old-space-size=${PARSE_CHILD_HEAP_MB}`])
    // the old space plus V8's young generation and code space: near the cap, far below the default
    expect(heapLimitMb).toBeGreaterThanOrEqual(PARSE_CHILD_HEAP_MB)
    expect(heapLimitMb).toBeLessThan(PARSE_CHILD_HEAP_MB + 256)
  })

  it("stops the child when this thread's work throws", async () => {
    const slow = script("slow.mjs", "setTimeout(() => console.log('{}'), 60000)\n")
    await expect(
      alongsideProcess(
        slow,
        {},
        () => {
          throw new Error("boom")
        },
        NO,
      ),
    ).rejects.toThrow("boom")
  })

  it("the parse ahead's child parses nothing when the code on disk is another pipeline version than its parent's", async () => {
    const child = new URL("../../pipeline/ParseChild.ts", import.meta.url)
    const answer = await alongsideProcess<ParseAheadAnswer | typeof NO>(
      child,
      { versions: { pipeline: "0.0.1", cache: 1 }, rawDir: join(dir, "raw"), dataDir: join(dir, "data"), inputs: [] },
      () => {},
      NO,
    )
    expect(answer).toMatchObject({ _tag: "Failed" })
    expect((answer as { reason: string }).reason).toContain("not the build's")
  })
})
