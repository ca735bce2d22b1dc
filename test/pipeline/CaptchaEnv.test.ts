/**
 * The captcha command is a third party's program: it runs with PATH, HOME and the locale only,
 * never the pipeline's secrets (issue #28). A real `/bin/sh` command that writes its environment
 * to a file, then prints a code.
 */
import { Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { commandSolver } from "../../pipeline/fetch/CaptchaSolver.ts"

const dir = mkdtempSync(join(tmpdir(), "fds-captcha-env-"))
const SET = {
  FDS_ACCOUNTS_URL: "postgres://fds:hunter2@db/accounts",
  FDS_CMF_API_KEY: "cmf-key-secret",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  SOME_SECRET: "s3cr3t",
  LANG: "es_CL.UTF-8",
  LC_NUMERIC: "C",
}
const saved = Object.fromEntries(Object.keys(SET).map((k) => [k, process.env[k]]))
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  rmSync(dir, { recursive: true, force: true })
})

describe("the captcha command's environment", () => {
  it("holds PATH, HOME and the locale variables, and none of the pipeline's secrets", async () => {
    Object.assign(process.env, SET)
    const out = join(dir, "env.txt")
    const code = await Effect.runPromise(commandSolver(`env > "${out}"; echo ABC123`, { tries: 1, timeoutMillis: 5000 }).solve(new Uint8Array([1])))
    expect(code).toBe("ABC123")
    const env = Object.fromEntries(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    )
    // /bin/sh adds PWD (and may add SHLVL, _) of its own
    const names = Object.keys(env).filter((k) => !["PWD", "SHLVL", "_", "OLDPWD"].includes(k))
    expect(names.sort()).toEqual(["HOME", "LANG", "LC_NUMERIC", "PATH"].filter((k) => process.env[k] !== undefined).sort())
    expect(env.PATH).toBe(process.env.PATH)
    expect(env.LANG).toBe("es_CL.UTF-8")
    const text = readFileSync(out, "utf8")
    for (const secret of ["hunter2", "cmf-key-secret", "aws-secret", "s3cr3t"]) expect(text).not.toContain(secret)
  })
})
