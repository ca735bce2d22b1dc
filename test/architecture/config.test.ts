/**
 * One configuration (issue #28, item 5): every setting of schemas/, snapshots/, pipeline/, api/,
 * accounts/ and ops/ is an effect `Config` read through the ConfigProvider (the commands install
 * the environment's, tests one over a record). A read of `process.env` there fails here, unless
 * it builds the environment of a child process: those are allowed by name, each with its reason.
 */
import { describe, expect, it } from "vitest"
import { sources } from "./sources.ts"


/** `process.env`, `process["env"]`, `process?.env` and `{ env } = process`: the environment read directly. */
const ENV_READ = /\bprocess\s*(?:\?\.|\.)\s*env\b|\bprocess\s*(?:\?\.)?\[\s*["'`]env["'`]\s*\]|\{[^{}]*\benv\b[^{}]*\}\s*=\s*(?:globalThis\.)?process\b/g

/** Where the environment may be read: to build a child's, by the expression that builds it. */
const CHILD_ENV_BUILDERS: Readonly<Record<string, readonly [expression: string, why: string]>> = {
  "pipeline/fetch/CaptchaSolver.ts": [
    "env: captchaEnv(process.env)",
    "the captcha command's environment is built from ours, keeping only PATH, HOME and the locale: a solver is a third party's program and ours holds secrets",
  ],
}

describe("settings through Config and the ConfigProvider", () => {
  it("the pattern finds each way of reading the environment", () => {
    for (const read of ["process.env.FDS_X", "process.env", 'process["env"]', "process?.env", "const { env } = process", "const { env: e } = globalThis.process"]) {
      expect(read.match(ENV_READ), read).not.toBeNull()
    }
    for (const other of ["options.env", "env: captchaEnv(record)", "processEnv", "ConfigProvider.fromEnv()"]) {
      expect(other.match(ENV_READ), other).toBeNull()
    }
  })

  it("no module reads process.env, except to build a child's environment (named, with its reason)", () => {
    const found: Record<string, number> = {}
    const misplaced: string[] = []
    for (const { path, text } of sources()) {
      for (const m of text.matchAll(ENV_READ)) {
        found[path] = (found[path] ?? 0) + 1
        const builder = CHILD_ENV_BUILDERS[path]
        const line = text.slice(text.lastIndexOf("\n", m.index) + 1, text.indexOf("\n", m.index))
        if (builder === undefined || !line.includes(builder[0])) misplaced.push(`${path}: ${line.trim()}`)
      }
    }
    expect(misplaced, "read the setting through Config (pipeline/Settings.ts, api/system/Settings.ts) instead").toEqual([])
    // each builder still there, once: a stale entry would allow a read nobody reviewed
    expect(found).toEqual(Object.fromEntries(Object.keys(CHILD_ENV_BUILDERS).map((path) => [path, 1])))
    for (const [, why] of Object.values(CHILD_ENV_BUILDERS)) expect(why.length).toBeGreaterThan(20)
  })
})
