/**
 * `./fds publish` as the operator runs it (node ops/main.ts publish, a child process) against
 * s3rver on loopback: exit 0 and its JSON lines, nothing new the second time; exit 2 with the
 * variable named (and no secret) for bad settings, here and for the daemon at start. The daemon's
 * hook: the bucket upload and the alert mails composed, each run even when the other fails.
 */
import { spawn } from "node:child_process"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { afterPublishHooks } from "../../ops/AfterPublish.ts"
import { bucketAfterPublish } from "../../ops/BucketPublish.ts"
import { publishCommand } from "../../ops/PublishCommand.ts"
import type { Published } from "../../pipeline/daemon/Daemon.ts"
import { recordPublished } from "../downloads/ledger.ts"
import { type BucketServer, startBucketServer } from "../support/bucketServer.ts"
import { makeFixtureA } from "../support/snapshotFixture.ts"
import { envProvider } from "../../pipeline/Settings.ts"

// biome-ignore lint/suspicious/noExplicitAny: log lines are plain JSON
type Json = any

const root = join(import.meta.dirname, "..", "..")
const SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY"
const compileCache = join(tmpdir(), "fds-bucket-cli-compile-cache")

const run = (args: string[], env: Record<string, string>): Promise<{ code: number | null; lines: Json[]; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, "ops", "main.ts"), ...args], {
      cwd: root,
      // the compiled modules kept between the runs, as ./fds keeps them
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_COMPILE_CACHE: compileCache, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let out = ""
    let stderr = ""
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString()
    })
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString()
    })
    child.on("exit", (code) =>
      resolve({ code, stderr, lines: out.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Json) }),
    )
  })

describe("./fds publish", () => {
  let server: BucketServer
  const fixture = makeFixtureA()
  const a = fixture.snapshot.finished
  const id = a.file.replace(/\.sqlite$/, "")

  beforeAll(async () => {
    server = await startBucketServer()
    recordPublished(fixture.dataDir, { batchDate: "2026-02-06", file: a.file, contentHash: a.contentHash })
  })
  afterAll(async () => {
    await server?.close()
    fixture.cleanup()
  })

  it("uploads the published batches, then nothing new when run again", async () => {
    const env = { ...server.env("cli"), FDS_DATA_DIR: fixture.dataDir }
    const first = await run(["publish"], env)
    expect(first.code, first.stderr).toBe(0)
    expect(first.lines.map((l) => l.msg)).toEqual(["batch uploaded", "bucket index written", "published to the bucket"])
    expect(first.lines.at(-1)).toMatchObject({
      bucket: `s3://${server.bucket}/cli at ${server.endpoint}`,
      uploaded: [id],
      index: "written",
      current: id,
    })
    const second = await run(["publish"], env)
    expect(second.code, second.stderr).toBe(0)
    expect(second.lines).toHaveLength(1)
    expect(second.lines[0]).toMatchObject({ msg: "published to the bucket", uploaded: [], index: "unchanged" })
    expect(JSON.stringify([first, second])).not.toContain("S3RVER")
  })

  it("in-process: a bucket that cannot be reached exits 1 in one line; bad settings or arguments, or no bucket, exit 2 naming the variable, no secret printed", async () => {
    const said: string[] = []
    const lines: Json[] = []
    const log = (level: string, msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, ...fields })
    const spy = vi.spyOn(console, "error").mockImplementation((m: unknown) => {
      said.push(String(m))
    })
    try {
      const unreachable = { ...server.env("cli"), FDS_BUCKET_ENDPOINT: "http://127.0.0.1:9", FDS_DATA_DIR: fixture.dataDir }
      expect(await publishCommand([], envProvider(unreachable), log)).toBe(1)
      expect(lines.at(-1)).toMatchObject({ level: "error", msg: expect.stringMatching(/^publishing to the bucket failed/) })
      const bad = { FDS_BUCKET: "fds-batches", FDS_BUCKET_SECRET_ACCESS_KEY: SECRET, FDS_DATA_DIR: fixture.dataDir }
      expect(await publishCommand([], envProvider(bad), log)).toBe(2)
      expect(said.at(-1)).toContain("FDS_BUCKET_SECRET_ACCESS_KEY is set but FDS_BUCKET_ACCESS_KEY_ID is not")
      expect(await publishCommand([], envProvider({ FDS_DATA_DIR: fixture.dataDir }), log)).toBe(2)
      expect(said.at(-1)).toContain("no bucket is configured (FDS_BUCKET is not set)")
      expect(await publishCommand(["--now"], envProvider({ ...server.env("cli"), FDS_DATA_DIR: fixture.dataDir }), log)).toBe(2)
      expect(said.at(-1)).toContain("--now")
      expect(JSON.stringify([said, lines])).not.toContain(SECRET)
    } finally {
      spy.mockRestore()
    }
  })

  it("the daemon refuses to start on a bad bucket setting", async () => {
    const r = await run(["pipeline", "daemon"], { FDS_BUCKET: "Not_A_Bucket", FDS_DATA_DIR: fixture.dataDir })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/FDS_BUCKET must be a bucket name/)
  })

  it("the daemon's hook: the upload after a publish, composed with the alert mails", async () => {
    expect(bucketAfterPublish(envProvider({ FDS_DATA_DIR: fixture.dataDir }), () => undefined)).toBeNull()
    const upload = bucketAfterPublish(envProvider({ ...server.env("daemon"), FDS_DATA_DIR: fixture.dataDir }), () => undefined)!
    const published = { outcome: "published", batchDate: "2026-02-06", file: a.file } as unknown as Published
    const calls: string[] = []
    const hook = afterPublishHooks({
      bucket: upload,
      alerts: async () => {
        calls.push("alerts")
        throw new Error("SMTP said no")
      },
    })
    // the mails fail; the upload was done, and both are said
    await expect(hook(published, new AbortController().signal)).rejects.toThrow(
      /^alerts: SMTP said no \(done: \{"bucket_uploaded":\[".+"\],"bucket_index":"written"\}\)$/,
    )
    expect(calls).toEqual(["alerts"])
    // a bucket that fails does not keep the mails from going
    const failing = afterPublishHooks({
      bucket: async () => {
        throw new Error("bucket down")
      },
      alerts: async () => ({ mails: 3 }),
    })
    await expect(failing(published, new AbortController().signal)).rejects.toThrow('bucket: bucket down (done: {"mails":3})')
    // one hook alone keeps its own error and fields
    const alone = afterPublishHooks({ alerts: async () => ({ mails: 2 }) })
    expect(await alone(published, new AbortController().signal)).toEqual({ mails: 2 })
    const err = new Error("SMTP said no")
    await expect(afterPublishHooks({ alerts: () => Promise.reject(err) })(published, new AbortController().signal)).rejects.toBe(err)
  })
})
