/**
 * Signed, chained releases (issue #31, item 2), end to end: two batches published through the
 * real pipeline CLI into a real data folder, served by a real server on an ephemeral port. Each
 * batch's release lists its files with the size and SHA-256 this test computes from the files
 * itself; the second names the first's release by its SHA-256; the signatures verify with
 * node:crypto and with openssl (the README's command); the routes serve the bytes; `fds verify
 * --from` passes on the good server and fails, naming what failed, when a file's bytes, a
 * signature or a chain link is altered.
 */
import { spawn, spawnSync } from "node:child_process"
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createKey, get, type RunningServer, startServer } from "../support/server.ts"
import { root, runCli, writeMiniSample } from "../ops/support/ops.ts"

let work: string
let mini: string
let dataDir: string
let snapshots: string
let server: RunningServer
let apiKey: string
const ids: string[] = []

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")
const releaseOf = (id: string) => readFileSync(join(snapshots, `${id}.release.json`))
const signatureOf = (id: string) => readFileSync(join(snapshots, `${id}.release.sig`))

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `node ops/main.ts verify …`, as ./fds runs it. */
const fdsVerify = (...args: string[]): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "ops", "main.ts"), "verify", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString()
    })
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString()
    })
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

/** Runs `body` with the file at `path` altered by `alter`, then puts its bytes back. */
const withAltered = async (path: string, alter: (bytes: Buffer) => Buffer, body: () => Promise<void>): Promise<void> => {
  const original = readFileSync(path)
  writeFileSync(path, alter(Buffer.from(original)))
  try {
    await body()
  } finally {
    writeFileSync(path, original)
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "fds-releases-"))
  ;({ mini } = await writeMiniSample(join(work, "mini")))
  dataDir = join(work, "data")
  snapshots = join(dataDir, "snapshots")
  for (const date of ["2026-11-19", "2026-11-20"]) {
    const r = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", date])
    expect(r.stdout, r.stderr).toMatch(new RegExp(`^published ${date}: `))
    ids.push(readFileSync(join(snapshots, "CURRENT"), "utf8").trim().replace(/\.sqlite$/, ""))
  }
  server = await startServer({ dataDir })
  apiKey = (await createKey(dataDir, { email: "verifier@example.cl" })).key
}, 240_000)
afterAll(async () => {
  await server?.close()
  if (work !== undefined) rmSync(work, { recursive: true, force: true })
})

describe("release manifests", () => {
  it("list every file of the batch with the size and SHA-256 of its bytes; the second names the first's release", () => {
    const [first, second] = ids as [string, string]
    for (const id of ids) {
      const release = JSON.parse(releaseOf(id).toString("utf8"))
      expect(release).toMatchObject({ format: "fds-release/1", batch_id: id, batch_date: id.slice(0, 10) })
      const parquet = readdirSync(join(snapshots, `${id}.parquet`)).map((f) => `${id}.parquet/${f}`)
      expect(parquet).toContain(`${id}.parquet/returns.parquet`)
      const expected = [`${id}.manifest.json`, ...parquet.sort(), `${id}.sqlite`].map((name) => {
        const bytes = readFileSync(join(snapshots, name))
        return { name, size: bytes.length, sha256: sha256(bytes) }
      })
      expect(release.files).toEqual(expected)
    }
    expect(JSON.parse(releaseOf(first).toString("utf8")).previous).toBeNull()
    expect(JSON.parse(releaseOf(second).toString("utf8")).previous).toEqual({ batch_id: first, release_sha256: sha256(releaseOf(first)) })
  })

  it("are signed with the data folder's generated key (0600), whose public half the well-known path serves without a key", async () => {
    const keyFile = join(dataDir, "release-signing-key.pem")
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    const res = await fetch(`${server.url}/.well-known/fds-release-key.pem`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("application/x-pem-file")
    const pem = await res.text()
    expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/)
    expect(pem).toBe(createPublicKey(createPrivateKey(readFileSync(keyFile))).export({ type: "spki", format: "pem" }).toString())
    const publicKey = createPublicKey(pem)
    for (const id of ids) {
      expect(verify(null, releaseOf(id), publicKey, signatureOf(id)), id).toBe(true)
      const release = JSON.parse(releaseOf(id).toString("utf8"))
      expect(release.key_sha256).toBe(sha256(publicKey.export({ type: "spki", format: "der" })))
    }
    // one flipped byte of the manifest: the signature no longer holds
    const altered = Buffer.from(releaseOf(ids[0]!))
    altered[10] = altered[10]! ^ 1
    expect(verify(null, altered, publicKey, signatureOf(ids[0]!))).toBe(false)
  })

  it("verify with openssl, as the README says (and openssl refuses an altered one)", async () => {
    const dir = mkdtempSync(join(work, "openssl-"))
    writeFileSync(join(dir, "key.pem"), await (await fetch(`${server.url}/.well-known/fds-release-key.pem`)).text())
    writeFileSync(join(dir, "manifest.json"), releaseOf(ids[1]!))
    writeFileSync(join(dir, "manifest.sig"), signatureOf(ids[1]!))
    const args = ["pkeyutl", "-verify", "-pubin", "-inkey", "key.pem", "-rawin", "-in", "manifest.json", "-sigfile", "manifest.sig"]
    const good = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" })
    expect([good.status, good.stdout.trim()], good.stderr).toEqual([0, "Signature Verified Successfully"])
    writeFileSync(join(dir, "manifest.json"), Buffer.concat([releaseOf(ids[1]!), Buffer.from(" ")]))
    const bad = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" })
    expect(bad.status).not.toBe(0)
  })
})

describe("the release routes", () => {
  it("serve the release, its signature and the build manifest byte for byte, keyed; 404 for a batch with none", async () => {
    const id = ids[1]!
    const h = { "x-api-key": apiKey }
    const release = await fetch(`${server.url}/api/batches/${id}/release`, { headers: h })
    expect(release.status).toBe(200)
    expect(release.headers.get("batch-id")).toBe(id)
    expect(release.headers.get("etag")).toMatch(/^"/)
    expect(Buffer.from(await release.arrayBuffer()).equals(releaseOf(id))).toBe(true)
    const sig = await fetch(`${server.url}/api/batches/${id}/release.sig`, { headers: h })
    expect([sig.status, sig.headers.get("content-type")]).toEqual([200, "application/octet-stream"])
    expect(Buffer.from(await sig.arrayBuffer()).equals(signatureOf(id))).toBe(true)
    const manifest = await fetch(`${server.url}/api/batches/${id}/manifest.json`, { headers: h })
    expect(Buffer.from(await manifest.arrayBuffer()).equals(readFileSync(join(snapshots, `${id}.manifest.json`)))).toBe(true)
    expect((await get(`${server.url}/api/batches/${id}/release`)).status).toBe(401)
    const none = await get(`${server.url}/api/batches/2026-11-18-0123456789abcdef/release`, h)
    expect(none.status).toBe(404)
    expect(String(none.headers["content-type"])).toContain("application/problem+json")
    expect((await get(`${server.url}/api/batches/garbage/release.sig`, h)).status).toBe(422)
  })
})

describe("fds verify --from", () => {
  it("passes on the good server: key, signature, files, and the chain back (all of it, --to, --back)", async () => {
    const all = await fdsVerify("--from", server.url, "--key", apiKey)
    expect(all.code, all.stderr).toBe(0)
    expect(all.stdout).toContain(`file ${ids[1]}.sqlite: `)
    expect(all.stdout).toContain(`verified: ${ids[1]} and its files; the chain back to ${ids[0]} (2 release(s))`)
    const to = await fdsVerify("--from", server.url, "--key", apiKey, "--to", ids[0]!)
    expect(to.code, to.stderr).toBe(0)
    const back = await fdsVerify("--from", server.url, "--key", apiKey, "--back", "2")
    expect([back.code, back.stderr]).toEqual([1, expect.stringContaining(`the chain starts at ${ids[0]}, 1 link(s) back, not 2`)])
    expect((await fdsVerify("--key", apiKey)).code).toBe(2)
  }, 60_000)

  it("fails naming the file whose bytes were altered", async () => {
    const name = `${ids[1]}.manifest.json`
    await withAltered(
      join(snapshots, name),
      (b) => {
        // one byte, the same size: only the SHA-256 tells
        const at = b.indexOf("pipeline_version")
        b[at] = "P".charCodeAt(0)
        return b
      },
      async () => {
        const r = await fdsVerify("--from", server.url, "--key", apiKey)
        expect(r.code).toBe(1)
        expect(r.stderr).toContain(`verify failed: batch ${ids[1]}: file ${name} has SHA-256 `)
      },
    )
  }, 60_000)

  it("--files DIR checks the batch's files as downloaded before, and names one whose bytes differ or that is missing", async () => {
    const id = ids[1]!
    const dir = mkdtempSync(join(work, "downloaded-"))
    for (const name of [`${id}.sqlite`, `${id}.manifest.json`]) {
      const res = await fetch(`${server.url}/api/batches/${id}/${name.endsWith(".sqlite") ? "snapshot" : "manifest.json"}`, { headers: { "x-api-key": apiKey } })
      writeFileSync(join(dir, name), Buffer.from(await res.arrayBuffer()))
    }
    // the Parquet files, in `<batch id>.parquet/` as the release names them
    mkdirSync(join(dir, `${id}.parquet`))
    for (const file of readdirSync(join(snapshots, `${id}.parquet`))) {
      const res = await fetch(`${server.url}/api/batches/${id}/parquet/${file}`, { headers: { "x-api-key": apiKey } })
      expect(res.status).toBe(200)
      writeFileSync(join(dir, `${id}.parquet`, file), Buffer.from(await res.arrayBuffer()))
    }
    const good = await fdsVerify("--from", server.url, "--key", apiKey, "--batch", id, "--files", dir, "--back", "0")
    expect(good.code, good.stderr).toBe(0)
    const sqlite = join(dir, `${id}.sqlite`)
    await withAltered(
      sqlite,
      (b) => b.subarray(0, b.length - 1),
      async () => {
        const r = await fdsVerify("--from", server.url, "--key", apiKey, "--batch", id, "--files", dir)
        expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(`verify failed: batch ${id}: file ${id}.sqlite is ${statSync(sqlite).size} bytes, the release says`)])
      },
    )
    rmSync(sqlite)
    const missing = await fdsVerify("--from", server.url, "--key", apiKey, "--batch", id, "--files", dir)
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining(`file ${id}.sqlite is not in ${dir}`)])
  }, 60_000)

  it("fails when a signature was altered, naming the release", async () => {
    for (const id of ids) {
      await withAltered(
        join(snapshots, `${id}.release.sig`),
        (b) => {
          b[0] = b[0]! ^ 0xff
          return b
        },
        async () => {
          const r = await fdsVerify("--from", server.url, "--key", apiKey)
          expect(r.code).toBe(1)
          expect(r.stderr).toContain(`verify failed: release ${id}: the signature does not verify`)
        },
      )
    }
  }, 60_000)

  it("fails when the chain link is broken: an earlier release replaced (validly signed) by another", async () => {
    const [first, second] = ids as [string, string]
    const key = createPrivateKey(readFileSync(join(dataDir, "release-signing-key.pem")))
    const forged = Buffer.from(releaseOf(first).toString("utf8").replace(/"created_at": "[^"]*"/, '"created_at": "2000-01-01T00:00:00.000Z"'))
    expect(forged.equals(releaseOf(first))).toBe(false)
    await withAltered(
      join(snapshots, `${first}.release.json`),
      () => forged,
      () =>
        withAltered(
          join(snapshots, `${first}.release.sig`),
          () => sign(null, forged, key),
          async () => {
            const r = await fdsVerify("--from", server.url, "--key", apiKey)
            expect(r.code).toBe(1)
            expect(r.stderr).toContain(`verify failed: chain broken between ${first} and ${second}: release ${first} has SHA-256 ${sha256(forged)}`)
            // checking the newest release alone (no link followed) still holds
            expect((await fdsVerify("--from", server.url, "--key", apiKey, "--back", "0")).code).toBe(0)
          },
        ),
    )
  }, 60_000)
})

describe("publishing with the signing key", () => {
  it("a key that is not Ed25519, or a lost key file, stops the run before the build, naming the setting or the file, never the key; the next run chains to the last batch published", async () => {
    const before = readFileSync(join(snapshots, "CURRENT"), "utf8")
    const files = readdirSync(snapshots).sort()
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()
    const refused = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-18"], { env: { FDS_RELEASE_SIGNING_KEY: rsa } })
    expect(refused.code).not.toBe(0)
    expect(refused.stdout + refused.stderr).toContain("FDS_RELEASE_SIGNING_KEY holds a rsa key")
    expect(refused.stdout + refused.stderr).not.toContain("PRIVATE KEY")
    expect(readFileSync(join(snapshots, "CURRENT"), "utf8")).toBe(before)
    // checked before the build: no snapshot of the day was written
    expect(readdirSync(snapshots).sort()).toEqual(files)
    // the generated key lost: refused, not regenerated (the chain would go on under another key)
    const keyFile = join(dataDir, "release-signing-key.pem")
    const kept = readFileSync(keyFile)
    rmSync(keyFile)
    const lost = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-18"])
    expect(lost.code).not.toBe(0)
    expect(lost.stdout + lost.stderr).toContain(`${keyFile} is missing, but releases were signed before`)
    expect(existsSync(keyFile)).toBe(false)
    expect(readdirSync(snapshots).sort()).toEqual(files)
    writeFileSync(keyFile, kept, { mode: 0o600 })
    // an earlier day published on purpose: its release names the batch published last (2026-11-20), not the day before it
    const published = await runCli(dataDir, ["pipeline", "run", "--source", mini, "--date", "2026-11-18"])
    expect(published.stdout, published.stderr).toMatch(/^published 2026-11-18: /)
    const third = readFileSync(join(snapshots, "CURRENT"), "utf8").trim().replace(/\.sqlite$/, "")
    expect(JSON.parse(releaseOf(third).toString("utf8")).previous).toEqual({ batch_id: ids[1], release_sha256: sha256(releaseOf(ids[1]!)) })
  }, 120_000)
})
