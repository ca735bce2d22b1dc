/**
 * Key authentication over real HTTP (undici) against the in-process server on the fixture snapshot.
 */

import { createHash, randomBytes } from "node:crypto"
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generateKey, parseKey } from "../../accounts/ApiKey.ts"
import {
  type CreatedKey,
  createKey,
  expectErrorShape,
  get,
  header,
  type RunningServer,
  runKeysCli,
  startServer,
} from "../support/server.ts"
import { makeFixtureA, testCrc32 } from "../support/snapshotFixture.ts"

const DATA_ROUTE = "/api/asset_providers"
const KEY_SHAPE = /^fds_[0-9A-Za-z]{8}_[0-9A-Za-z]{49}$/

/** 401 with `WWW-Authenticate: Bearer…` and the one error shape. */
const expect401 = (res: Awaited<ReturnType<typeof get>>): void => {
  expect(res.status).toBe(401)
  expect(header(res, "www-authenticate")).toMatch(/^Bearer/)
  expectErrorShape(res.body, 401)
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
/** The 6 bytes whose base62 spelling (8 chars) is `lookup`: to forge a key with a known lookup. */
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

describe("API key authentication", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let free: CreatedKey
  let institutional: CreatedKey
  let internal: CreatedKey
  let revoked: CreatedKey

  beforeAll(async () => {
    free = await createKey(fx.dataDir, { email: "free@example.cl", name: "Free tester" })
    institutional = await createKey(fx.dataDir, { email: "inst@example.cl", tier: "institutional" })
    internal = await createKey(fx.dataDir, { email: "ops@example.cl", tier: "internal" })
    revoked = await createKey(fx.dataDir, { email: "gone@example.cl" })
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  it("no key → 401 with WWW-Authenticate: Bearer and the error shape", async () => {
    expect401(await get(server.url + DATA_ROUTE))
    expect401(await get(server.url + "/api/key/info"))
    expect401(await get(`${server.url}/api/conceptual_assets/${testCrc32("fm:8043")}/real_assets`))
  })

  it("the key check comes before parameter validation (no key + bad parameter → 401, not 422)", async () => {
    expect401(await get(server.url + "/api/asset_providers/abc/conceptual_assets"))
    expect401(await get(server.url + "/api/real_assets/1/days?from_date=2026-02-30"))
  })

  it("malformed keys → 401", async () => {
    for (const bad of ["hello", "fds_", "fds_short_key", free.key.slice(0, -1), free.key + "x", ` ${free.key}x`]) {
      expect401(await get(server.url + DATA_ROUTE, { "x-api-key": bad }))
    }
  })

  it("a well-formed key with a wrong checksum → 401", async () => {
    const last = free.key.at(-1)!
    const wrong = free.key.slice(0, -1) + (last === "0" ? "1" : "0")
    expect(wrong).toMatch(KEY_SHAPE)
    expect(parseKey(wrong)).toBeNull()
    const res = await get(server.url + DATA_ROUTE, { "x-api-key": wrong })
    expect401(res)
    expect(res.text).not.toContain(wrong.slice(12)) // the answer does not echo the key
  })

  it("a valid-looking unknown key → 401", async () => {
    const unknown = generateKey().key
    expect(parseKey(unknown)).not.toBeNull()
    expect401(await get(server.url + DATA_ROUTE, { "x-api-key": unknown }))
  })

  it("a well-formed key with a known lookup but another secret → 401 (the hash decides)", async () => {
    let calls = 0
    const forged = generateKey((n) => (calls++ === 0 ? lookupBytes(free.lookup) : randomBytes(n))).key
    expect(forged.startsWith(`fds_${free.lookup}_`)).toBe(true)
    expect(forged).not.toBe(free.key)
    expect(parseKey(forged)).toEqual({ lookup: free.lookup })
    expect401(await get(server.url + DATA_ROUTE, { "x-api-key": forged }))
  })

  it("X-Api-Key with a valid key → 200", async () => {
    const res = await get(server.url + DATA_ROUTE, { "x-api-key": free.key })
    expect(res.status).toBe(200)
  })

  it("a revoked key → 401", async () => {
    expect((await get(server.url + DATA_ROUTE, { "x-api-key": revoked.key })).status).toBe(200)
    const db = new Database(join(fx.dataDir, "accounts.sqlite"))
    try {
      const changed = db
        .prepare("UPDATE api_keys SET revoked_at = ? WHERE lookup = ?")
        .run(new Date().toISOString(), revoked.lookup).changes
      expect(changed).toBe(1)
    } finally {
      db.close()
    }
    expect401(await get(server.url + DATA_ROUTE, { "x-api-key": revoked.key }))
    expect401(await get(server.url + "/api/key/info", { "x-api-key": revoked.key }))
  })

  it("Authorization: Bearer <key> is accepted", async () => {
    const res = await get(server.url + DATA_ROUTE, { authorization: `Bearer ${free.key}` })
    expect(res.status).toBe(200)
    expect((res.body as { data: unknown[] }).data.length).toBe(2)
  })

  it("a Bearer token without the fds_ prefix → 401, even when the rest is a real key", async () => {
    expect401(await get(server.url + DATA_ROUTE, { authorization: `Bearer ${free.key.slice(4)}` }))
    expect401(await get(server.url + DATA_ROUTE, { authorization: "Bearer abc.def.ghi" }))
    expect401(await get(server.url + DATA_ROUTE, { authorization: `Basic ${Buffer.from(`u:${free.key}`).toString("base64")}` }))
  })

  it("a valid key in the query string → 401", async () => {
    for (const name of ["api_key", "apikey", "key"]) {
      expect401(await get(`${server.url}${DATA_ROUTE}?${name}=${encodeURIComponent(free.key)}`))
    }
  })

  it("a key in the query string → 401 even alongside a valid X-Api-Key header", async () => {
    const res = await get(`${server.url}${DATA_ROUTE}?token=${encodeURIComponent(free.key)}`, { "x-api-key": free.key })
    expect401(res)
    expect((res.body as { message: string }).message).toMatch(/query string/)
  })

  it("/health and /openapi.json need no key", async () => {
    const health = await get(server.url + "/health")
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ status: "ok", last_scraped_date: fx.snapshot.data.batchDate })

    const openapi = await get(server.url + "/openapi.json")
    expect(openapi.status).toBe(200)
    const doc = openapi.body as {
      openapi: string
      components: { securitySchemes: Record<string, { type: string; in: string; name: string }> }
    }
    expect(doc.openapi).toMatch(/^3\.1/)
    const schemes = Object.values(doc.components.securitySchemes)
    expect(schemes).toContainEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "X-Api-Key" }))
  })

  it("/api/key/info shows tier and quota per tier, with Cache-Control: no-store", async () => {
    const info = await get(server.url + "/api/key/info", { "x-api-key": free.key })
    expect(info.status).toBe(200)
    expect(header(info, "cache-control")).toBe("no-store")
    expect(info.body).toMatchObject({ name: "Free tester", tier: "free", daily_quota: 300 })
    const body = info.body as Record<string, unknown>
    expect(typeof body.quota_enforced).toBe("boolean")
    expect(typeof body.created_at).toBe("string")
    expect(Number.isNaN(Date.parse(body.created_at as string))).toBe(false)

    expect(body.quota_enforced).toBe(true)
    const inst = await get(server.url + "/api/key/info", { authorization: `Bearer ${institutional.key}` })
    expect(inst.body).toMatchObject({ tier: "institutional", daily_quota: 25000, name: "inst@example.cl", quota_enforced: true })
    const ops = await get(server.url + "/api/key/info", { "x-api-key": internal.key })
    expect(ops.body).toMatchObject({ tier: "internal", daily_quota: null, quota_enforced: false })
  })

  it("requests_today counts data requests (4xx included) but not /api/key/info itself", async () => {
    const k = await createKey(fx.dataDir, { email: "count@example.cl" })
    const info = async () => {
      const res = await get(server.url + "/api/key/info", { "x-api-key": k.key })
      expect(res.status).toBe(200)
      return (res.body as { requests_today: number }).requests_today
    }
    expect(await info()).toBe(0)
    expect(await info()).toBe(0)

    const h = { "x-api-key": k.key }
    expect((await get(server.url + DATA_ROUTE, h)).status).toBe(200)
    expect((await get(server.url + "/api/asset_providers/12345/conceptual_assets", h)).status).toBe(404)
    expect((await get(server.url + "/api/asset_providers/abc/conceptual_assets", h)).status).toBe(422)
    expect((await get(server.url + "/api/real_assets/1/days?from_date=2026-02-30", h)).status).toBe(422)
    expect(await info()).toBe(4)

    // another key's requests and unauthenticated ones do not count against this key
    await get(server.url + DATA_ROUTE, { "x-api-key": free.key })
    await get(server.url + DATA_ROUTE)
    expect(await info()).toBe(4)
  })

  it("the clear key is not stored: accounts.sqlite holds only its SHA-256", async () => {
    const k = await createKey(fx.dataDir, { email: "secret@example.cl" })
    expect((await get(server.url + DATA_ROUTE, { "x-api-key": k.key })).status).toBe(200)
    const base = join(fx.dataDir, "accounts.sqlite")
    const bytes = Buffer.concat(
      [base, `${base}-wal`, `${base}-journal`].filter((p) => existsSync(p)).map((p) => readFileSync(p)),
    )
    const secretPart = k.key.slice(`fds_${k.lookup}_`.length)
    expect(bytes.includes(k.key)).toBe(false)
    expect(bytes.includes(secretPart)).toBe(false)
    expect(bytes.includes(secretPart.slice(0, 20))).toBe(false)

    const sha = createHash("sha256").update(k.key, "utf8").digest("hex")
    const db = new Database(base, { readonly: true })
    try {
      const row = db.prepare("SELECT * FROM api_keys WHERE lookup = ?").get(k.lookup) as Record<string, unknown>
      expect(row.hash).toBe(sha)
      for (const v of Object.values(row)) expect(String(v)).not.toContain(secretPart.slice(0, 20))
    } finally {
      db.close()
    }
  })

  it("keys create (CLI) prints the key alone on stdout, and that key works", async () => {
    const { stdout } = await runKeysCli(fx.dataDir, ["--email", "cli@example.cl", "--tier", "institutional", "--quota", "1234"])
    expect(stdout.endsWith("\n")).toBe(true)
    const key = stdout.trim()
    expect(stdout).toBe(key + "\n")
    expect(key).toMatch(KEY_SHAPE)
    expect(parseKey(key)).not.toBeNull()
    const info = await get(server.url + "/api/key/info", { "x-api-key": key })
    expect(info.status).toBe(200)
    expect(info.body).toMatchObject({ tier: "institutional", daily_quota: 1234, name: "cli@example.cl" })
  })
})

describe("accounts store unavailable → 503 with Retry-After: 5, never a pass-through", () => {
  const fx = makeFixtureA()
  let server: RunningServer
  let key: CreatedKey
  const accounts = join(fx.dataDir, "accounts.sqlite")

  beforeAll(async () => {
    key = await createKey(fx.dataDir, { email: "fail@example.cl" })
    server = await startServer({ dataDir: fx.dataDir })
  })
  afterAll(async () => {
    await server?.close()
    fx.cleanup()
  })

  const expect503 = (res: Awaited<ReturnType<typeof get>>): void => {
    expect(res.status).toBe(503)
    expect(header(res, "retry-after")).toBe("5")
    expectErrorShape(res.body, 503)
  }

  it("while another connection holds the write lock, counting fails and the data route answers 503", async () => {
    expect((await get(server.url + DATA_ROUTE, { "x-api-key": key.key })).status).toBe(200)
    const locker = new Database(accounts)
    try {
      locker.exec("BEGIN IMMEDIATE")
      // the server's busy timeout (2 s) runs out: its usage counter cannot be written
      expect503(await get(server.url + DATA_ROUTE, { "x-api-key": key.key }))
    } finally {
      locker.exec("ROLLBACK")
      locker.close()
    }
    expect((await get(server.url + DATA_ROUTE, { "x-api-key": key.key })).status).toBe(200)
  })

  it("when the store's files turn to garbage under the running server, data routes and key info answer 503", async () => {
    expect((await get(server.url + DATA_ROUTE, { "x-api-key": key.key })).status).toBe(200)
    // Overwrite the database, its WAL and its shared-memory index in place (same inode, same size:
    // the server keeps them open and mapped) so that every query of the open connection fails.
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
    expect503(await get(server.url + DATA_ROUTE, { "x-api-key": key.key }))
    expect503(await get(server.url + "/api/key/info", { "x-api-key": key.key }))
    expect503(await get(`${server.url}/api/conceptual_assets/${testCrc32("fm:8043")}/real_assets`, { authorization: `Bearer ${key.key}` }))
    // a missing or malformed key needs no store: still 401
    expect((await get(server.url + DATA_ROUTE)).status).toBe(401)
    // the public route still answers, and tells a balancer the truth: keyed requests cannot be served
    const health = await get(server.url + "/health")
    expect(health.status).toBe(503)
    expect((health.body as { reasons: string[] }).reasons.some((r) => r.startsWith("the accounts store"))).toBe(true)
  })
})
