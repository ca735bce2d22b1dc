/**
 * Every error code the sources write (a 503's `reason`, an `error` written by hand, a declared
 * error's `code`, Node's refusals, the market vehicles' `unavailable`) is in the catalogue /docs
 * lists (schemas/Problem.ts), so no problem document's `type` is `about:blank`: the contract sweep
 * meets only the codes its requests provoke, this reads them all where they are written.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { PROBLEM_KINDS } from "../../schemas/Problem.ts"

const root = fileURLToPath(new URL("../..", import.meta.url))

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => readFileSync(join(root, dir, f), "utf8"))

/** The codes a source writes, by the shapes errors are written in. */
const codesIn = (text: string): string[] => [
  // new ServiceUnavailable({ reason: "x", … }) (on one line or the next)
  ...[...text.matchAll(/new ServiceUnavailable\(\{\s*reason: "([a-z_]+)"/g)].map((m) => m[1]!),
  // { error: "x", status: 4xx/5xx, … } written by hand
  ...[...text.matchAll(/error: "([a-z_]+)"(?: as const)?,\s*status: [45]\d\d/g)].map((m) => m[1]!),
  // a declared error's code: { status: 4xx, code: "x", … }
  ...[...text.matchAll(/status: [45]\d\d,\s*code: "([a-z_]+)"/g)].map((m) => m[1]!),
  // [status, reason phrase, code, message] of Node's refusals; jsonError(status, code, message); the vehicles' 503 reason
  ...[...text.matchAll(/\[\d{3}, "[A-Za-z ]+", "([a-z_]+)"/g)].map((m) => m[1]!),
  ...[...text.matchAll(/jsonError\(\d{3}, "([a-z_]+)"/g)].map((m) => m[1]!),
  ...[...text.matchAll(/unavailable: "([a-z_]+)"/g)].map((m) => m[1]!),
]

describe("the catalogue of error codes", () => {
  it("has every code the API writes, and a title and an explanation for each", () => {
    const written = new Set([...sources("api"), ...sources("schemas")].flatMap(codesIn))
    // the reading finds the codes of each shape (a regular expression that stopped matching would pass quietly)
    for (const code of ["snapshot_changed", "exports_busy", "not_found", "rate_limited", "headers_too_large", "payload_too_large", "fi_unavailable", "quota_exceeded"]) {
      expect(written.has(code), code).toBe(true)
    }
    expect([...written].filter((code) => !Object.hasOwn(PROBLEM_KINDS, code)).sort()).toEqual([])
    for (const [code, kind] of Object.entries(PROBLEM_KINDS)) {
      expect(kind.title.length, code).toBeGreaterThan(0)
      expect(kind.about.length, code).toBeGreaterThan(0)
      expect(kind.status >= 400 && kind.status < 600, code).toBe(true)
    }
  })
})
