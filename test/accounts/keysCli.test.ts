/**
 * `./fds keys create|list|revoke|set-quota|usage` (node api/main.ts keys …) on a real accounts
 * store, checked against a running server. Only `create` ever prints a key.
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, startAccountsServer } from "./support/accountsServer.ts"

const root = join(import.meta.dirname, "..", "..")
const KEY = /fds_[0-9A-Za-z]{8}_[0-9A-Za-z]{49}/

describe("./fds keys", () => {
  const fx = makeFixtureA()
  let server: AccountsServer
  const keys = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(root, "api/main.ts"), "keys", ...args], {
        env: { ...process.env, FDS_DATA_DIR: fx.dataDir },
        timeout: 20_000,
      })
      return { code: 0, stdout, stderr }
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string }
      return { code: err.code, stdout: err.stdout, stderr: err.stderr }
    }
  }
  const status = async (key: string) => (await call(`${server.url}/api/key/info`, { headers: { "x-api-key": key } })).status

  beforeAll(async () => {
    server = await startAccountsServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("create prints the key alone; list shows lookup, e-mail, tier, quota, created, revoked, and no key", async () => {
    const made = await keys("create", "--email", "list@example.cl", "--tier", "institutional", "--quota", "5000")
    expect(made.code).toBe(0)
    const key = made.stdout.trim()
    expect(made.stdout).toBe(`${key}\n`)
    expect(key).toMatch(KEY)
    const lookup = key.slice(4, 12)
    const listed = await keys("list")
    expect(listed.code).toBe(0)
    const [header, ...lines] = listed.stdout.trimEnd().split("\n")
    expect(header!.split(/\s+/)).toEqual(["lookup", "email", "tier", "quota", "created", "revoked"])
    const row = lines.find((l) => l.startsWith(lookup))!
    expect(row.split(/\s{2,}/)).toEqual([lookup, "list@example.cl", "institutional", "5000 (key)", expect.stringMatching(/^\d{4}-\d\d-\d\dT/)])
    expect(listed.stdout).not.toMatch(KEY)
    expect((await keys("list", "--email", "nobody@example.cl")).stdout.trim().split("\n")).toHaveLength(1)
  })

  it("set-quota changes a key's daily quota (or returns it to its tier's); the server applies it", async () => {
    const key = (await keys("create", "--email", "quota@example.cl")).stdout.trim()
    const lookup = key.slice(4, 12)
    expect((await keys("set-quota", lookup, "2")).stdout).toBe(`${lookup} daily quota 2\n`)
    const headers = { "x-api-key": key }
    const first = await call(`${server.url}/api/asset_providers`, { headers })
    expect(first.headers["x-ratelimit-limit"]).toBe("2")
    await call(`${server.url}/api/asset_providers`, { headers })
    expect((await call(`${server.url}/api/asset_providers`, { headers })).status).toBe(429)
    await keys("set-quota", lookup, "tier")
    expect((await call(`${server.url}/api/asset_providers`, { headers })).headers["x-ratelimit-limit"]).toBe("300")
    expect((await keys("set-quota", lookup, "-1")).code).toBe(2)
    expect((await keys("set-quota", "ZZZZZZZZ", "5")).code).toBe(1)
  })

  it("revoke takes the lookup token (or the whole key) and the key then gets 401", async () => {
    const key = (await keys("create", "--email", "revoke@example.cl")).stdout.trim()
    expect(await status(key)).toBe(200)
    const out = await keys("revoke", key.slice(4, 12))
    expect(out).toMatchObject({ code: 0, stdout: `revoked ${key.slice(4, 12)}\n` })
    expect(await status(key)).toBe(401)
    expect((await keys("revoke", key)).code).toBe(1) // already revoked
    const listed = (await keys("list", "--email", "revoke@example.cl")).stdout
    expect(listed.trimEnd().split("\n")[1]!.split(/\s{2,}/)[5]).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it("usage shows requests per key per Santiago day", async () => {
    const key = (await keys("create", "--email", "usage@example.cl")).stdout.trim()
    for (let i = 0; i < 3; i++) await call(`${server.url}/api/asset_providers`, { headers: { "x-api-key": key } })
    const out = await keys("usage", key.slice(4, 12))
    const lines = out.stdout.trimEnd().split("\n")
    expect(lines[0]!.split(/\s+/)).toEqual(["lookup", "day", "requests"])
    expect(lines.slice(1).map((l) => l.split(/\s+/))).toEqual([[key.slice(4, 12), expect.stringMatching(/^\d{4}-\d\d-\d\d$/), "3"]])
    expect(out.stdout).not.toMatch(KEY)
  })

  it("unknown subcommands and bad arguments exit 2", async () => {
    expect((await keys("rotate")).code).toBe(2)
    expect((await keys("create")).code).toBe(2)
    expect((await keys("create", "--email", "t@example.cl", "--tier", "gold")).code).toBe(2)
    expect((await keys("revoke")).code).toBe(2)
    // an option's value that looks like an option, numbers not in decimal digits, an address that could not receive mail
    for (const args of [
      ["create", "--email", "t@example.cl", "--quota", "-1"],
      ["create", "--email", "t@example.cl", "--quota", "1e3"],
      ["create", "--email", "t@example.cl", "--quota", "0x10"],
      ["create", "--email", "t@example.cl", "--quota", "9999999999999999"], // past 2⁵³: not held exactly
      ["usage", "--days", "0"],
      ["create", "--email", "a@b"],
      ["create", "--email", "t@example.cl\u001b"],
      ["usage", "--days", "1e1"],
      ["list", "--nope"],
    ]) {
      const out = await keys(...args)
      expect(out.code, args.join(" ")).toBe(2)
      expect(out.stderr, args.join(" ")).not.toMatch(/\n\s+at /) // a message, not a stack trace
    }
  })
})
