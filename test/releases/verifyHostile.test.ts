/**
 * `./fds verify --from` against servers that are not ours or lie: a real HTTP server on an
 * ephemeral port serving a release signed with a key made here, each route replaceable per test.
 * Every failure must be one line naming the URL and what was wrong, exit 1, no stack: HTML on
 * /health, answers that never end (key, signature, release, /health) cut at their caps, a file
 * longer than its release states, a release naming another key, a server that never answers (the
 * timeout). The key fetched from the server itself is warned about (trust on first use); a
 * private key given as --pubkey is refused.
 */
import { spawn } from "node:child_process"
import { createHash, generateKeyPairSync, type KeyObject } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { verifyCommand } from "../../ops/VerifyCommand.ts"
import { makeRelease, publicKeyPem, releaseBytes, signRelease } from "../../snapshots/releases/Release.ts"
import { root } from "../ops/support/ops.ts"

const id = "2026-11-20-0123456789abcdef"
const snapshot = Buffer.alloc(4096, 7)
const manifest = Buffer.from(`{"file":"${id}.sqlite"}\n`)
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex")
const { privateKey } = generateKeyPairSync("ed25519")
const other = generateKeyPairSync("ed25519").privateKey

/** A release of the batch signed by `signer`, naming `named`'s fingerprint. */
const releaseOf = (signer: KeyObject, named: KeyObject) => {
  const bytes = releaseBytes({
    ...makeRelease({
      batchId: id,
      createdAt: "2026-11-20T21:00:00.000Z",
      key: named,
      files: [
        { name: `${id}.sqlite`, size: snapshot.length, sha256: sha256(snapshot) },
        { name: `${id}.manifest.json`, size: manifest.length, sha256: sha256(manifest) },
      ],
      previous: null,
    }),
  })
  return { bytes, sig: signRelease(bytes, signer) }
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void
const send = (body: Uint8Array | string, type = "application/octet-stream"): Handler => (_req, res) => {
  res.writeHead(200, { "content-type": type })
  res.end(body)
}
/** An answer that never ends: 64 KiB pieces until the client goes away. */
const endless: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/octet-stream" })
  const piece = Buffer.alloc(64 * 1024, 0x41)
  const more = () => {
    while (!res.destroyed && res.write(piece)) {}
    if (!res.destroyed) res.once("drain", more)
  }
  res.on("close", () => res.removeAllListeners("drain"))
  more()
}
/** Headers, then nothing. */
const silent: Handler = (_req, res) => {
  res.writeHead(200, { "content-type": "application/octet-stream" })
  res.write("x")
}

const good = releaseOf(privateKey, privateKey)
const goodRoutes = (): Record<string, Handler> => ({
  "/.well-known/fds-release-key.pem": send(publicKeyPem(privateKey), "application/x-pem-file"),
  "/health": send(JSON.stringify({ status: "ok", batch_id: id }), "application/json"),
  [`/api/batches/${id}/release`]: send(good.bytes, "application/json"),
  [`/api/batches/${id}/release.sig`]: send(good.sig),
  [`/api/batches/${id}/snapshot`]: send(snapshot),
  [`/api/batches/${id}/manifest.json`]: send(manifest, "application/json"),
})

let routes = goodRoutes()
let server: Server
let url: string
let work: string
let pubkey: string

beforeAll(async () => {
  server = createServer((req, res) => {
    const handler = routes[new URL(req.url ?? "/", "http://x").pathname]
    if (handler === undefined) {
      res.writeHead(404, { "content-type": "text/html" }).end("<html>not here</html>")
      return
    }
    handler(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  work = mkdtempSync(join(tmpdir(), "fds-verify-hostile-"))
  pubkey = join(work, "key.pem")
  writeFileSync(pubkey, publicKeyPem(privateKey))
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  rmSync(work, { recursive: true, force: true })
})

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `fds verify --from <the fake server> --key k …` in this process (its console captured), with `routes` changed by `change`. */
const verify = async (change: Record<string, Handler>, ...args: string[]): Promise<Run> => {
  routes = { ...goodRoutes(), ...change }
  let stdout = ""
  let stderr = ""
  const log = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
    stdout += `${String(line)}\n`
  })
  const error = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
    stderr += `${String(line)}\n`
  })
  try {
    const code = await verifyCommand(["--from", url, "--key", "k", ...args])
    return { code, stdout, stderr }
  } finally {
    log.mockRestore()
    error.mockRestore()
  }
}

/** The same as a child process, as ./fds runs it: a crash would show there as a stack on stderr. */
const verifyChild = (change: Record<string, Handler>, ...args: string[]): Promise<Run> => {
  routes = { ...goodRoutes(), ...change }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "ops", "main.ts"), "verify", "--from", url, "--key", "k", ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    })
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
}

/** Exit 1 and one line on stderr starting `verify failed: ` with `words`, no stack. */
const expectOneLineFailure = (r: Run, ...words: string[]) => {
  expect(r.code, r.stderr).toBe(1)
  const lines = r.stderr.trim().split("\n").filter((l) => !l.startsWith("warning: "))
  expect(lines, r.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^verify failed: /)
  for (const w of words) expect(lines[0]).toContain(w)
  expect(r.stderr).not.toMatch(/\n\s+at /)
}

describe("fds verify against a server that is not ours or lies", () => {
  it("passes on the fake server's good release; warns when the key came from the server, not with --pubkey", async () => {
    const tofu = await verify({})
    expect(tofu.code, tofu.stderr).toBe(0)
    expect(tofu.stderr).toContain(`warning: the public key came from ${url}/.well-known/fds-release-key.pem`)
    expect(tofu.stderr).toContain("--pubkey")
    const pinned = await verify({}, "--pubkey", pubkey)
    expect(pinned.code, pinned.stderr).toBe(0)
    expect(pinned.stderr).toBe("")
  })

  it("/health in HTML or not JSON: one line naming the URL (with --pubkey, when /health is the first request)", async () => {
    const html = await verifyChild({ "/health": send("<!doctype html><html><body>Welcome</body></html>", "text/html") }, "--pubkey", pubkey)
    expectOneLineFailure(html, `GET ${url}/health: the answer is not JSON (text/html)`)
    const noBatch = await verify({ "/health": send("[1,2]", "application/json") }, "--pubkey", pubkey)
    expectOneLineFailure(noBatch, `GET ${url}/health: the answer is not a JSON object`)
  })

  it("cuts answers that never end at their caps: key, /health, release, signature", async () => {
    const cases: Array<[string, string[], string]> = [
      ["/.well-known/fds-release-key.pem", [], "16384"],
      ["/health", ["--pubkey", pubkey], "65536"],
      [`/api/batches/${id}/release`, ["--pubkey", pubkey], "4194304"],
      [`/api/batches/${id}/release.sig`, ["--pubkey", pubkey], "1024"],
    ]
    for (const [path, args, cap] of cases) {
      const r = await verify({ [path]: endless }, ...args)
      expectOneLineFailure(r, `GET ${url}${path}: more than ${cap} bytes`)
    }
  }, 30_000)

  it("stops a file download once it passes the size its release states, naming the file", async () => {
    const r = await verify({ [`/api/batches/${id}/snapshot`]: endless }, "--pubkey", pubkey)
    expectOneLineFailure(r, `file ${id}.sqlite is more than the ${snapshot.length} bytes its release states`)
  })

  it("refuses a release whose key_sha256 is not the key it is checked with (signed by it all the same)", async () => {
    const lying = releaseOf(privateKey, other)
    const r = await verify(
      { [`/api/batches/${id}/release`]: send(lying.bytes), [`/api/batches/${id}/release.sig`]: send(lying.sig) },
      "--pubkey",
      pubkey,
    )
    expectOneLineFailure(r, `release ${id}: names key_sha256 `, "not the key it is checked with")
  })

  it("gives up on a server that does not answer, or stalls mid-answer, after --timeout", async () => {
    const started = performance.now()
    const r = await verify({ [`/api/batches/${id}/release`]: () => undefined }, "--pubkey", pubkey, "--timeout", "1")
    expectOneLineFailure(r, `GET ${url}/api/batches/${id}/release: no answer within 1 s`)
    const stalled = await verify({ [`/api/batches/${id}/snapshot`]: silent }, "--pubkey", pubkey, "--timeout", "1")
    expectOneLineFailure(stalled, `GET ${url}/api/batches/${id}/snapshot: the answer stalled for 1 s`)
    expect(performance.now() - started).toBeLessThan(15_000)
    expect((await verify({}, "--timeout", "0")).code).toBe(2)
  }, 30_000)

  it("refuses a private key given as --pubkey, before asking the server anything", async () => {
    const file = join(work, "private.pem")
    writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }))
    const r = await verify({}, "--pubkey", file)
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${file} holds a private key`)
    expect(r.stderr).not.toContain("PRIVATE KEY-----")
  })
})
