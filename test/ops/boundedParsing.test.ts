/**
 * What an attacker's drop into the inbox does to `pipeline run` (issue #28, bounded parsing), run
 * as the real CLI with its heap capped at 512 MB: a ~240 KB XLSX of one cell at column XFD on
 * 20,000 rows, a 2.5 KB HTML table of 60 cells spanning 1,000 columns and rows and a 35 KB page of
 * 5,000 nested elements are refused while files are recognised, quickly, naming the file and the limit, and the batch is rejected cleanly
 * (the published snapshot keeps serving, the raw file is stored, STATUS.json and /health say so).
 * Links (to /etc/passwd, a loop, a dangling one) and a FIFO in the inbox are skipped with a warning
 * each and the run goes on; control characters in a dropped file's name are printed escaped.
 */

import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { get, startServer } from "../support/server.ts"
import { spanBomb, sparseXlsx } from "../support/workbooks.ts"
import { readStatusFile, runCli, writeMiniSample } from "./support/ops.ts"

process.env.FDS_STALE_AFTER_HOURS = "1000000" // /health must not depend on today's date here

// Far above what the mini sample's run needs; far below what the two files cost before the limits.
const HEAP = { NODE_OPTIONS: "--max-old-space-size=512" }

let work: string
let mini: string
let dataDir: string
let served: string

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")
const stored = (sha: string): boolean => existsSync(join(dataDir, "raw", sha.slice(0, 2), sha))
const current = (): string => readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()

/** A copy of the mini sample's inbox with `add` done to it. */
const inboxWith = (name: string, add: (dir: string) => void): string => {
  const dir = join(work, name)
  cpSync(mini, dir, { recursive: true })
  add(dir)
  return dir
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-bounded-"))
  mini = (await writeMiniSample(join(work, "mini"))).mini
  dataDir = join(work, "data")
  const run = await runCli(dataDir, ["pipeline", "run", "--source", mini])
  expect(run.stdout).toMatch(/^published 2026-11-20: /)
  served = current()
}, 120_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The run was rejected for `reason`, on stderr and in STATUS.json; the served snapshot is unchanged. */
const expectRejected = (run: { code: number | null; stderr: string }, reason: string): void => {
  expect(run.code, run.stderr).toBe(1)
  expect(run.stderr).toContain(`batch rejected: ${reason}`)
  const status = readStatusFile(dataDir)
  expect(status?.outcome).toBe("rejected")
  expect(status?.reason).toContain(reason)
  expect(current()).toBe(served)
}

describe("bounded parsing: pipeline run on an attacker's inbox", () => {
  it("refuses an XLSX with one cell at column XFD on 20,000 rows, naming the file, sheet and MAX_COLUMNS; /health says the run was rejected", async () => {
    const bomb = sparseXlsx(16_383, 20_000)
    expect(bomb.length).toBeLessThan(300_000)
    const inbox = inboxWith("xfd", (dir) => writeFileSync(join(dir, "fmdfm_costos_202610.xlsx"), bomb))
    const started = performance.now()
    const run = await runCli(dataDir, ["pipeline", "run", "--source", inbox], { env: HEAP })
    expectRejected(
      run,
      `${inbox}/fmdfm_costos_202610.xlsx cannot be read as a workbook: refused unread: sheet part "xl/worksheets/sheet1.xml": ` +
        "its dimension A1:XFD20000 reaches column XFD (16,384), over the limit MAX_COLUMNS = 256",
    )
    expect(performance.now() - started).toBeLessThan(20_000)
    expect(stored(sha256(bomb)), "the refused file is kept in the raw store").toBe(true)
    const server = await startServer({ dataDir })
    try {
      const health = (await get(`${server.url}/health`)).body as { status: string; reasons: string[] }
      expect(health.status).toBe("degraded")
      expect(health.reasons).toContainEqual(expect.stringMatching(/^the last pipeline run \(.+\) was rejected: see STATUS\.json/))
    } finally {
      await server.close()
    }
  }, 60_000)

  it("refuses a 2.5 KB HTML table of 60 cells spanning 1,000 columns and rows within seconds, naming the file, table and MAX_SPAN", async () => {
    const bomb = spanBomb(60, 1000, 0)
    expect(bomb.length).toBeLessThan(3000)
    const inbox = inboxWith("spans", (dir) => writeFileSync(join(dir, "fmdfm_costos_202610.xls"), bomb))
    const started = performance.now()
    const run = await runCli(dataDir, ["pipeline", "run", "--source", inbox], { env: HEAP })
    expectRejected(
      run,
      `${inbox}/fmdfm_costos_202610.xls cannot be read as a workbook: refused unread: table 1: row 1 has a cell spanning 1,000, over the limit MAX_SPAN = 256`,
    )
    // the CLI's start and the collect included (the table alone took 29 s and 2.7 GB)
    expect(performance.now() - started).toBeLessThan(15_000)
    expect(stored(sha256(bomb))).toBe(true)
  }, 60_000)

  it("refuses a 35 KB FI page of 5,000 nested elements naming the file and MAX_DEPTH (it overflowed the stack and failed the run)", async () => {
    const nested = 5000
    const page =
      "<html><body><p>R.U.T.: 9251-7</p><table><tr><td>Fecha</td><td>Valor Libro</td></tr>" +
      `<tr><td>02/01/2025</td><td>${"<b>".repeat(nested)}1${"</b>".repeat(nested)}</td></tr></table></body></html>`
    expect(page.length).toBeLessThan(40_000)
    const inbox = inboxWith("nested", (dir) => writeFileSync(join(dir, "valores_9251.html"), page))
    const run = await runCli(dataDir, ["pipeline", "run", "--source", inbox], { env: HEAP })
    expectRejected(
      run,
      `${inbox}/valores_9251.html cannot be read: refused unread: the page: elements nested 513 deep or more, over the limit MAX_DEPTH = 512`,
    )
    expect(stored(sha256(Buffer.from(page)))).toBe(true)
  }, 60_000)

  it("skips links (to /etc/passwd, a loop, a dangling one) and a FIFO with a warning each, and the run goes on", async () => {
    const evil = "evil\x1b[31mlink"
    const inbox = inboxWith("links", (dir) => {
      symlinkSync("/etc/passwd", join(dir, "passwd.txt"))
      symlinkSync(join(dir, "loop-b"), join(dir, "loop-a"))
      symlinkSync(join(dir, "loop-a"), join(dir, "loop-b"))
      symlinkSync(join(dir, "nowhere"), join(dir, "dangling"))
      symlinkSync("/etc/passwd", join(dir, evil))
      execFileSync("mkfifo", [join(dir, "fifo")])
    })
    const run = await runCli(dataDir, ["pipeline", "run", "--source", inbox], { env: HEAP })
    expect(run.code, run.stderr).toBe(0)
    for (const name of ["passwd.txt", "loop-a", "loop-b", "dangling"]) {
      expect(run.stderr).toContain(`inbox: ${inbox}/${name} skipped: a symbolic link`)
    }
    expect(run.stderr).toContain(`inbox: ${inbox}/fifo skipped: not a regular file`)
    // the name's escape character printed as \x1b, in the message and in the JSON line alike
    expect(run.stderr).toContain(`inbox: ${inbox}/evil\\\\x1b[31mlink skipped: a symbolic link`)
    expect(run.stderr).not.toContain("\x1b")
    expect(readStatusFile(dataDir)?.outcome).toBe("unchanged")
    expect(current()).toBe(served)
    const passwd = sha256(readFileSync("/etc/passwd"))
    expect(stored(passwd), "nothing of /etc/passwd in the raw store").toBe(false)
    const rawFiles = readdirSync(join(dataDir, "raw"), { recursive: true }).map(String)
    expect(rawFiles.some((f) => f.endsWith(passwd))).toBe(false)
  }, 60_000)

  it("prints control characters in a dropped file's name escaped, on stderr and in STATUS.json", async () => {
    const name = "junk\x1b]0;pwned\x07\n.txt"
    const inbox = inboxWith("names", (dir) => writeFileSync(join(dir, name), "hola\n"))
    const run = await runCli(dataDir, ["pipeline", "run", "--source", inbox], { env: HEAP })
    expectRejected(run, `${inbox}/junk\\x1b]0;pwned\\x07\\x0a.txt matches no CMF data set we read`)
    for (const raw of ["\x07", "\x1b"]) expect(run.stderr).not.toContain(raw)
    for (const raw of ["\x07", "\x1b", "\n"]) expect(String(readStatusFile(dataDir)?.reason)).not.toContain(raw)
  }, 60_000)
})
