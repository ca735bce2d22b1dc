/**
 * Bad arguments to the pipeline commands exit 2 with a one-line message (exit 1 means "batch
 * rejected" to cron and monitoring), and touch neither the ledger nor STATUS.json.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runCli } from "./support/ops.ts"

const elsewhere = mkdtempSync(join(tmpdir(), "fds-cli-file-"))
const aFile = join(elsewhere, "ffmm_todos_20261101_20261120.txt")
writeFileSync(aFile, "not a folder\n")

describe("pipeline command line", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "fds-cli-args-"))
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(elsewhere, { recursive: true, force: true })
  })

  it.each([
    [["pipeline", "run", "--bogus"]],
    [["pipeline", "run", "--source"]],
    [["pipeline", "run", "--source", "/nonexistent/cmf-files"]],
    [["pipeline", "run", "--source", aFile]], // a file, not a folder
    [["pipeline", "run", "--source", "http://"]],
    [["pipeline", "reproduce", "--bogus"]],
    [["pipeline", "rollback", "--to"]],
    [["pipeline", "withdraw", "--sha", "zz"]],
    [["pipeline", "withdraw"]],
    [["sample", "--nope"]],
  ])("%j exits 2 with a message, not a stack trace, and records nothing", async (args) => {
    const out = await runCli(dataDir, args)
    expect(out.code, out.stderr).toBe(2)
    expect(out.stderr).toMatch(/^fds: /m)
    expect(out.stderr).not.toMatch(/\n\s+at /)
    expect(existsSync(join(dataDir, "ledger.sqlite"))).toBe(false)
    expect(existsSync(join(dataDir, "snapshots", "STATUS.json"))).toBe(false)
  })
})
