/**
 * `./fds pipeline daemon` (ops/main.ts) with FDS_BUCKET set: after the run that publishes, the
 * batch is in the bucket (an s3rver on loopback) and the index names it current, said in the
 * "after publish finished" line beside the alert mails' fields.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bucketSettings } from "../../ops/Bucket.ts"
import { bucketSource } from "../../ops/BucketSource.ts"
import { writeSolver } from "../support/captchaSolver.ts"
import { type BucketServer, startBucketServer } from "../support/bucketServer.ts"
import { type CmfServer, startCmfServer } from "../support/cmfServer.ts"
import { waitFor } from "../support/server.ts"
import { logChildOutput } from "../support/testLog.ts"
import { root, writeMiniSample } from "./support/ops.ts"
import { envProvider, readSettings } from "../../pipeline/Settings.ts"

// biome-ignore lint/suspicious/noExplicitAny: log lines are plain JSON
type Json = any

describe("pipeline daemon with a bucket", () => {
  let work: string
  let cmf: CmfServer
  let server: BucketServer
  let child: ChildProcess | null = null

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "fds-bucket-daemon-"))
    const { full } = await writeMiniSample(join(work, "mini"))
    cmf = await startCmfServer(full)
    server = await startBucketServer()
  })
  afterAll(async () => {
    child?.kill("SIGKILL")
    await cmf?.close()
    await server?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("uploads the batch it published, then the index, after the run", async () => {
    const dataDir = join(work, "data")
    const lines: Json[] = []
    let stderr = ""
    child = spawn(process.execPath, [join(root, "ops", "main.ts"), "pipeline", "daemon"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...(process.env as Record<string, string>),
        ...server.env("daemon"),
        FDS_DATA_DIR: dataDir,
        FDS_CMF_BASE_URL: cmf.url,
        FDS_CAPTCHA_COMMAND: writeSolver(work),
        FDS_HISTORY_START: "2026-10-01",
        FDS_PIPELINE_CRON: "* * * * * *",
        FDS_FETCH_RETRIES: "0",
        FDS_PIPELINE_RETRIES: "0",
      },
    })
    logChildOutput(child, `pipeline daemon (pid ${child.pid})`)
    let buffer = ""
    child.stdout!.on("data", (c: Buffer) => {
      buffer += c.toString()
      const parts = buffer.split("\n")
      buffer = parts.pop()!
      for (const p of parts) if (p.trim().startsWith("{")) lines.push(JSON.parse(p))
    })
    child.stderr!.on("data", (c: Buffer) => {
      stderr += c.toString()
    })
    const exited = new Promise<number | null>((resolve) => child!.on("exit", (code) => resolve(code)))
    const hookLine = () => lines.find((l) => l.msg === "after publish finished" || l.msg === "after publish failed")
    expect(await waitFor(async () => hookLine() !== undefined, 90_000, 50), `${JSON.stringify(lines)}\n${stderr.slice(-2000)}`).toBe(true)
    child.kill("SIGTERM")
    expect(await exited).toBe(0)

    const file = readFileSync(join(dataDir, "snapshots", "CURRENT"), "utf8").trim()
    const id = file.replace(/\.sqlite$/, "")
    expect(hookLine()).toMatchObject({ level: "info", bucket_uploaded: [id], bucket_index: "written", alert_mails: expect.any(Object) })
    const uploadedAt = lines.findIndex((l) => l.msg === "batch uploaded" && l.batch === id)
    const indexAt = lines.findIndex((l) => l.msg === "bucket index written")
    expect(uploadedAt).toBeGreaterThan(lines.findIndex((l) => l.msg === "run finished" && l.outcome === "published"))
    expect(indexAt).toBeGreaterThan(uploadedAt)
    const listed = await bucketSource({ settings: readSettings(bucketSettings, envProvider(server.env("daemon")))! }).listBatches()
    expect(listed.map((b) => [b.id, b.attributes.current, b.attributes.retained])).toEqual([[id, true, true]])
  }, 150_000)
})
