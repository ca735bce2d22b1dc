/**
 * The service secret (the HMAC key of the unsubscribe links) as `./fds serve` (node api/main.ts
 * serve, a child process) reads it: a key under 32 bytes, from data/secret.key or FDS_SECRET, is
 * refused at start with what to do; a fresh data folder gets a whole key written atomically (a
 * temp file, fsync, then its name), which a crash at any moment cannot leave empty.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { logChildOutput } from "../support/testLog.ts"

const root = join(import.meta.dirname, "..", "..")
const crashAt = join(root, "test", "ops", "support", "crashAt.ts")

type Serve = { readonly listening: true; readonly stderr: string } | { readonly listening: false; readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stderr: string }

/** `serve` on an ephemeral port until it listens (then SIGKILL) or exits; bounded to 20 s. */
const serve = (dataDir: string, env: Record<string, string> = {}, preload: string[] = []): Promise<Serve> => {
  const base = { ...process.env } as Record<string, string>
  delete base.FDS_SECRET
  delete base.FDS_ACCOUNTS_URL
  const child = spawn(process.execPath, [...preload, join(root, "api", "main.ts"), "serve"], {
    cwd: root,
    env: { ...base, FDS_DATA_DIR: dataDir, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  logChildOutput(child, `serve (pid ${child.pid})`)
  let out = ""
  return new Promise((resolve) => {
    let listening = false
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      if (!listening && /Listening on http:\/\//.test(out)) {
        listening = true
        child.kill("SIGKILL")
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve(listening ? { listening: true, stderr: out } : { listening: false, code, signal, stderr: out })
    })
  })
}

const dirs: string[] = []
const freshDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "fds-secret-"))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe("the service secret at ./fds serve", () => {
  it("an empty, short or non-hex data/secret.key is refused at start, naming the file and the fix; the file is left as it was", async () => {
    for (const content of ["", "\n", `${"ab".repeat(31)}\n`, "correct horse battery staple and more words\n"]) {
      const dir = freshDir()
      writeFileSync(join(dir, "secret.key"), content, { mode: 0o600 })
      const run = await serve(dir)
      expect(run.listening, `${JSON.stringify(content)}: ${run.stderr}`).toBe(false)
      if (run.listening) continue
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(join(dir, "secret.key"))
      expect(run.stderr).toMatch(/at least 32 bytes/)
      expect(run.stderr).toMatch(/delete it .*new one/)
      expect(run.stderr).toMatch(/FDS_SECRET/)
      expect(readFileSync(join(dir, "secret.key"), "utf8")).toBe(content)
    }
  })

  it("an FDS_SECRET under 32 bytes is refused at start, naming FDS_SECRET and not echoing it; 32 bytes start; empty is unset", async () => {
    for (const secret of ["x", "hunter2-hunter2-hunter2-hunter2"]) {
      const run = await serve(freshDir(), { FDS_SECRET: secret })
      expect(run.listening, run.stderr).toBe(false)
      if (run.listening) continue
      expect(run.code).toBe(2)
      // checked with every setting before the server starts (api/system/Settings.ts): named, never echoed
      expect(run.stderr).toContain("fds: FDS_SECRET=*** is not valid: at least 32 bytes")
      if (secret.length > 1) expect(run.stderr).not.toContain(secret)
    }
    const dir = freshDir()
    expect((await serve(dir, { FDS_SECRET: "hunter2-hunter2-hunter2-hunter2!" })).listening).toBe(true)
    expect(readdirSync(dir)).not.toContain("secret.key")
    // an empty FDS_SECRET reads as unset (Effect's environment provider): the generated file's key
    expect((await serve(dir, { FDS_SECRET: "" })).listening).toBe(true)
    expect(readFileSync(join(dir, "secret.key"), "utf8")).toMatch(/^[0-9a-f]{64}\n$/)
  })

  it("a fresh data folder gets secret.key: 0600, 32 random bytes in hex, no temp file left; a restart keeps it", async () => {
    const dir = freshDir()
    expect((await serve(dir)).listening).toBe(true)
    const path = join(dir, "secret.key")
    expect(statSync(path).mode & 0o777).toBe(0o600)
    const key = readFileSync(path, "utf8")
    expect(key).toMatch(/^[0-9a-f]{64}\n$/)
    expect(readdirSync(dir).filter((n) => n.startsWith("secret"))).toEqual(["secret.key"])
    expect((await serve(dir)).listening).toBe(true)
    expect(readFileSync(path, "utf8")).toBe(key)
  })

  it("killed while the key is written (temp file created, or written and synced), the next start finds no half key and writes a whole one", async () => {
    for (const crash of [
      { FDS_CRASH_FN: "openSync", FDS_CRASH_WHEN: "after" },
      { FDS_CRASH_FN: "linkSync", FDS_CRASH_WHEN: "before" },
    ]) {
      const dir = freshDir()
      const killed = await serve(dir, { ...crash, FDS_CRASH_PATH: "secret\\.key" }, ["--import", crashAt])
      expect(killed.listening ? "listening" : killed.signal, `${crash.FDS_CRASH_FN}: ${killed.stderr}`).toBe("SIGKILL")
      expect(readdirSync(dir)).not.toContain("secret.key")
      expect((await serve(dir)).listening).toBe(true)
      expect(readFileSync(join(dir, "secret.key"), "utf8")).toMatch(/^[0-9a-f]{64}\n$/)
    }
  })
})
