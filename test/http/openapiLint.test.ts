/**
 * The served /openapi.json passes two independent OpenAPI linters without an error or a warning:
 * Spectral with its `spectral:oas` ruleset (tools/spectral/ruleset.yaml) and Redocly with its
 * `recommended` rules (tools/redocly/redocly.yaml), with the exceptions its ignore file lists and
 * justifies (tools/redocly/.redocly.lint-ignore.yaml), each of which must still match a finding.
 * Each runs from its own folder under tools/ (`make test` installs them from their lockfiles) on
 * the document fetched from a real server.
 */
import { execFile } from "node:child_process"
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeMarketFixture } from "../market/marketSnapshot.ts"
import { get, type RunningServer, startServer } from "../support/server.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))
const SPECTRAL = join(repoRoot, "tools", "spectral", "node_modules", "@stoplight", "spectral-cli", "dist", "index.js")
const SPECTRAL_RULESET = join(repoRoot, "tools", "spectral", "ruleset.yaml")
const REDOCLY = join(repoRoot, "tools", "redocly", "node_modules", "@redocly", "cli", "bin", "cli.js")
const REDOCLY_CONFIG = join(repoRoot, "tools", "redocly", "redocly.yaml")
/** Keyed by the document's path from the config's folder: both are copied beside `openapi.json`. */
const REDOCLY_IGNORE = join(repoRoot, "tools", "redocly", ".redocly.lint-ignore.yaml")

interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a linter's script with the project's Node, offline; never throws (the exit code is in the result). */
const node = (cwd: string, args: ReadonlyArray<string>): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      {
        cwd,
        // no telemetry, no update check: the linters need no network
        env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        resolve({ code, stdout, stderr })
      },
    )
  })

/** One finding, as the failure message prints it. */
interface Finding {
  readonly severity: "error" | "warning" | "info" | "hint"
  readonly rule: string
  readonly where: string
  readonly message: string
}

/** Spectral's JSON: an array of diagnostics, severity 0 error, 1 warning, 2 info, 3 hint. */
const spectralFindings = (stdout: string): Finding[] => {
  const levels = ["error", "warning", "info", "hint"] as const
  const diagnostics = JSON.parse(stdout) as Array<{ code: string; message: string; path: string[]; severity: number }>
  return diagnostics.map((d) => ({
    severity: levels[d.severity] ?? "error",
    rule: String(d.code),
    where: `#/${d.path.join("/")}`,
    message: d.message,
  }))
}

/** Redocly's JSON: `problems`, each with a severity, a ruleId and its locations' pointers. */
const redoclyFindings = (stdout: string): Finding[] => {
  const report = JSON.parse(stdout) as {
    problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>
  }
  return report.problems.map((p) => ({
    severity: p.severity === "error" ? "error" : p.severity === "warn" ? "warning" : "info",
    rule: p.ruleId,
    where: p.location.map((l) => l.pointer ?? "").join(", "),
    message: p.message,
  }))
}

const listed = (findings: ReadonlyArray<Finding>): string[] => findings.map((f) => `${f.severity} ${f.rule} at ${f.where}: ${f.message}`)

describe("/openapi.json through Spectral (spectral:oas) and Redocly (recommended)", () => {
  const fx = makeMarketFixture()
  const dir = mkdtempSync(join(tmpdir(), "fds-lint-"))
  const file = join(dir, "openapi.json")
  let server: RunningServer

  beforeAll(async () => {
    server = await startServer({ dataDir: fx.dataDir })
    const spec = await get(`${server.url}/openapi.json`)
    expect(spec.status).toBe(200)
    writeFileSync(file, spec.text)
    copyFileSync(REDOCLY_CONFIG, join(dir, "redocly.yaml"))
    copyFileSync(REDOCLY_IGNORE, join(dir, ".redocly.lint-ignore.yaml"))
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
    rmSync(dir, { recursive: true, force: true })
  })

  it("spectral lint reports no error and no warning", { timeout: 120_000 }, async () => {
    const run = await node(dir, [SPECTRAL, "lint", "--ruleset", SPECTRAL_RULESET, "--format", "json", "--quiet", file])
    expect(run.stdout.trim().startsWith("["), `spectral printed no JSON (exit ${run.code}): ${run.stdout}${run.stderr}`).toBe(true)
    const findings = spectralFindings(run.stdout).filter((f) => f.severity === "error" || f.severity === "warning")
    expect(listed(findings)).toEqual([])
    expect(run.code).toBe(0)
  })

  it("redocly lint reports no error and no warning", { timeout: 120_000 }, async () => {
    const run = await node(dir, [REDOCLY, "lint", "--config", join(dir, "redocly.yaml"), "--format", "json", file])
    expect(run.stdout.trim().startsWith("{"), `redocly printed no JSON (exit ${run.code}): ${run.stdout}${run.stderr}`).toBe(true)
    const findings = redoclyFindings(run.stdout).filter((f) => f.severity === "error" || f.severity === "warning")
    expect(listed(findings)).toEqual([])
    expect(run.code).toBe(0)
    // each listed exception still matches a finding (none stale, none added unseen)
    const exceptions = readFileSync(REDOCLY_IGNORE, "utf8").split("\n").filter((line) => /^\s+- '#\//.test(line))
    expect(exceptions.length).toBe(2)
    expect((JSON.parse(run.stdout) as { totals: { ignored: number } }).totals.ignored).toBe(exceptions.length)
  })
})
