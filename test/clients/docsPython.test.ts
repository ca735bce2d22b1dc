/**
 * Every ```python and ```sh block of docs/clients.md runs, as a reader would paste it, against a
 * real server holding the analyst's fixture (five funds with fourteen months of weekday quotas):
 * the python blocks of one section make one script, run by Debian's python3 (with its pandas) with
 * FDS_BASE_URL and FDS_API_KEY set and the package on PYTHONPATH; the sh blocks of the package's
 * command line (those that call `fds_client`; the TypeScript section's `npx` line is not Python's) run
 * line by line in bash. `123` and `456`, the page's placeholder ids, become two of the fixture's series. Each
 * exits 0 with nothing on stderr, and the analyst's block asserts its own 1-year returns equal
 * /returns; the values it prints are checked here against the fixture's closed form.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { D3 } from "../market/fixtureFunds.ts"
import { createKey, type RunningServer, startServer } from "../support/server.ts"
import { makeDataDir } from "../support/snapshotFixture.ts"
import { ANALYST_DATES, ANALYST_RUNS, analystId, analystPrice, publishAnalystSnapshot } from "./analystFixture.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const DOC = readFileSync(join(repoRoot, "docs", "clients.md"), "utf8")
const PYTHON = "/usr/bin/python3"

/** The blocks of `language`, grouped by the heading they are under, in order. */
const sections = (language: string): Array<{ readonly heading: string; readonly code: string }> => {
  const found: Array<{ heading: string; code: string }> = []
  let heading = ""
  const fence = new RegExp(`^(#{1,6} .*|\`\`\`${language}\\n[\\s\\S]*?^\`\`\`)$`, "m")
  for (const part of DOC.split(fence)) {
    if (/^#{1,6} /.test(part)) heading = part
    else if (part.startsWith(`\`\`\`${language}\n`)) {
      const code = part.slice(`\`\`\`${language}\n`.length, -"```".length)
      const last = found.at(-1)
      if (last?.heading === heading) last.code += `\n${code}`
      else found.push({ heading, code })
    }
  }
  return found
}

/** The sh blocks that run the Python package's command line. */
const shellBlocks = () => sections("sh").filter((s) => s.code.includes("fds_client"))

interface Ran {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

describe("docs/clients.md's Python and shell blocks", () => {
  const dir = makeDataDir()
  const work = mkdtempSync(join(tmpdir(), "fds-docs-py-"))
  let server: RunningServer
  let key = ""
  const [first, second] = [String(analystId(ANALYST_RUNS[0])), String(analystId(ANALYST_RUNS[1]))]

  const run = (file: string, args: readonly string[]): Promise<Ran> =>
    new Promise((resolve) => {
      const env = {
        PATH: `/usr/bin:/bin`,
        HOME: work,
        LANG: "C.UTF-8",
        PYTHONPATH: join(repoRoot, "clients", "python"),
        PYTHONDONTWRITEBYTECODE: "1",
        FDS_BASE_URL: server.url,
        FDS_API_KEY: key,
      }
      execFile(file, [...args], { cwd: work, env, timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }),
      )
    })
  const placeholders = (code: string): string => code.replaceAll("123", first).replaceAll("456", second)

  beforeAll(async () => {
    publishAnalystSnapshot(dir.snapshotsDir)
    key = (await createKey(dir.dataDir, { email: "docs-py@example.cl", tier: "internal" })).key
    server = await startServer({ dataDir: dir.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    dir.cleanup()
    rmSync(work, { recursive: true, force: true })
  })

  it("the page opens with five lines of Python and has a Python package section", () => {
    const opening = sections("python").find((s) => s.heading === "### Python")
    expect(opening?.code.trimEnd().split("\n")).toHaveLength(5)
    expect(sections("python").some((s) => s.heading === "## Python package")).toBe(true)
    expect(shellBlocks().length).toBeGreaterThan(0)
  })

  for (const [index, section] of sections("python").entries()) {
    it(`${section.heading} runs (${section.code.split("\n").length} lines of Python)`, async () => {
      const file = join(work, `block${index}.py`)
      writeFileSync(file, placeholders(section.code))
      const ran = await run(PYTHON, [file])
      expect(ran.stderr).toBe("")
      expect(ran.code).toBe(0)
      expect(ran.stdout).not.toContain(key)
      if (section.heading === "## Python package") {
        // The 1-year returns it prints (in %), worked out here from the closed form: the base is the
        // last weekday on or before D3 − 12 months (2025-03-04, a Tuesday, a quota day).
        const last = ANALYST_DATES.length - 1
        const base = ANALYST_DATES.lastIndexOf(ANALYST_DATES.filter((d) => d <= "2025-03-04").at(-1)!)
        expect(ANALYST_DATES[last]).toBe(D3)
        expect(ANALYST_DATES[base]).toBe("2025-03-04")
        for (const run of ANALYST_RUNS) {
          const oneYear = (analystPrice(run, last) / analystPrice(run, base) - 1) * 100
          expect(ran.stdout).toMatch(new RegExp(`^${analystId(run)}\\s+${oneYear.toFixed(2).replace(".", "\\.")}$`, "m"))
        }
      }
    })
  }

  for (const [index, section] of shellBlocks().entries()) {
    it(`${section.heading}'s shell lines run (block ${index})`, async () => {
      for (const line of placeholders(section.code).split("\n").filter((l) => l.trim() !== "")) {
        const ran = await run("/bin/bash", ["-c", line])
        expect(ran.stderr, line).toBe("")
        expect(ran.code, line).toBe(0)
        expect(ran.stdout.length, line).toBeGreaterThan(0)
        expect(ran.stdout).not.toContain(key)
      }
    })
  }
})
