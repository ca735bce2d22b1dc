/**
 * The secrets stay secret. Over a session of ordinary and failing requests (registration, data
 * calls, errors, quota, a broken store), every log line, error body, database file and mail is
 * searched for the clear key and for request headers; keys are compared with timingSafeEqual.
 */

import * as crypto from "node:crypto"
import { randomBytes } from "node:crypto"
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { generateKey } from "../../accounts/ApiKey.ts"
import { createKey } from "../support/server.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { type AccountsServer, call, openRegistrationLink, type Reply, startAccountsServer } from "./support/accountsServer.ts"
import { linkIn, outbox } from "./support/mail.ts"

vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:crypto")>()
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) }
})

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
/** The 6 random bytes whose base62 spelling is `lookup`, to forge a key with a known lookup token. */
const lookupBytes = (lookup: string): Uint8Array => {
  let n = 0n
  for (const ch of lookup) n = n * 62n + BigInt(ALPHABET.indexOf(ch))
  const out = new Uint8Array(6)
  for (let i = 5; i >= 0; i--) {
    out[i] = Number(n & 255n)
    n >>= 8n
  }
  return out
}

describe("no clear key or request header leaks", () => {
  const fx = makeFixtureA()
  const logged: string[] = []
  const replies: Reply[] = []
  const canary = `canary-${randomBytes(8).toString("hex")}`
  let server: AccountsServer
  let registered: string
  let cliKey: string

  const get = async (path: string, headers: Record<string, string>) => {
    const reply = await call(server.url + path, { headers: { "x-canary": canary, cookie: `trace=${canary}`, ...headers } })
    replies.push(reply)
    return reply
  }

  beforeAll(async () => {
    for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a) ?? String(a))).join(" "))
      })
    }
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, "write").mockImplementation((chunk: unknown) => {
        logged.push(String(chunk))
        return true
      })
    }
    cliKey = (await createKey(fx.dataDir, { email: "cli@example.cl", dailyQuota: 3 })).key
    server = await startAccountsServer({ dataDir: fx.dataDir })

    // a key from /register, shown on its page
    await call(`${server.url}/register`, { method: "POST", form: { email: "leak@example.cl" }, headers: { origin: server.url } })
    const page = await openRegistrationLink(linkIn(outbox(fx.dataDir).at(-1)!, `${server.url}/register/verify?token=`))
    registered = /fds_[0-9A-Za-z]{8}_[0-9A-Za-z]{49}/.exec(page.text)![0]

    for (const key of [registered, cliKey]) {
      await get("/api/asset_providers", { "x-api-key": key })
      await get("/api/asset_providers", { authorization: `Bearer ${key}` })
      await get("/api/asset_providers/99/conceptual_assets", { "x-api-key": key })
      await get("/api/real_assets/1/days?from_date=2026-02-30", { "x-api-key": key })
      await get(`/api/asset_providers?api_key=${encodeURIComponent(key)}`, {})
      await get("/no/such/route", { "x-api-key": key })
      await get("/api/asset_providers", { "x-api-key": `${key}x` })
    }
    for (let i = 0; i < 3; i++) await get("/api/asset_providers", { "x-api-key": cliKey }) // into the quota 429
  })
  afterAll(async () => {
    await server?.close()
    vi.restoreAllMocks()
    fx.cleanup()
  })

  const secrets = () => [registered, cliKey, registered.slice(13, 40), cliKey.slice(13, 40)]

  it("the registration gave a real key, and the session did hit errors and the quota", () => {
    expect(registered).toMatch(/^fds_[0-9A-Za-z]{8}_[0-9A-Za-z]{49}$/)
    const statuses = new Set(replies.map((r) => r.status))
    for (const s of [200, 401, 404, 422, 429]) expect(statuses).toContain(s)
  })

  it("no error body repeats a key", () => {
    for (const reply of replies.filter((r) => r.status >= 400)) {
      for (const secret of secrets()) expect(reply.text).not.toContain(secret)
    }
  })

  it("no database file and no mail holds a key", () => {
    const files = readdirSync(fx.dataDir)
      .filter((n) => n.startsWith("accounts.sqlite"))
      .map((n) => join(fx.dataDir, n))
    expect(files.length).toBeGreaterThan(0)
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)))
    for (const secret of secrets()) expect(bytes.includes(secret)).toBe(false)
    for (const mail of outbox(fx.dataDir)) for (const secret of secrets()) expect(mail).not.toContain(secret)
  })

  it("with the store broken (503), still no log line holds a key or any request header", async () => {
    const accounts = join(fx.dataDir, "accounts.sqlite")
    for (const path of [accounts, `${accounts}-wal`, `${accounts}-shm`]) {
      if (!existsSync(path)) continue
      const size = statSync(path).size
      const fd = openSync(path, "r+")
      try {
        writeSync(fd, Buffer.alloc(size, 0x5a), 0, size, 0)
      } finally {
        closeSync(fd)
      }
    }
    expect((await get("/api/asset_providers", { "x-api-key": cliKey })).status).toBe(503)
    await call(`${server.url}/register`, { method: "POST", form: { email: "later@example.cl" }, headers: { "x-canary": canary } })
    const text = logged.join("\n")
    // the capture works: the server's own lines are in it
    expect(text).toContain("snapshot swapped in")
    expect(text).toContain("Listening on")
    for (const secret of [...secrets(), canary]) expect(text).not.toContain(secret)
  })

  it("keys are compared in constant time (timingSafeEqual on the SHA-256 digests)", async () => {
    const compare = vi.mocked(crypto.timingSafeEqual)
    const fresh = makeFixtureA()
    const other = await startAccountsServer({ dataDir: fresh.dataDir })
    try {
      const real = (await createKey(fresh.dataDir, { email: "ct@example.cl" })).key
      const lookup = real.slice(4, 12)
      let first = true
      const forged = generateKey((n) => {
        const bytes = first ? lookupBytes(lookup) : randomBytes(n)
        first = false
        return bytes
      }).key
      compare.mockClear()
      expect((await call(`${other.url}/api/key/info`, { headers: { "x-api-key": forged } })).status).toBe(401)
      expect(compare).toHaveBeenCalledTimes(1)
      const [a, b] = compare.mock.calls[0]! as [Buffer, Buffer]
      expect([a.length, b.length]).toEqual([32, 32])
      compare.mockClear()
      expect((await call(`${other.url}/api/key/info`, { headers: { "x-api-key": real } })).status).toBe(200)
      expect(compare).toHaveBeenCalledTimes(1)
    } finally {
      await other.close()
      fresh.cleanup()
    }
  })
})
