/**
 * `./fds follow` (node ops/main.ts follow) over loopback, as separate processes: a primary API
 * (`serve`) on batches the real pipeline CLI published from the small sample, a follower process,
 * and a replica API on the follower's data folder. Between the follower and the primary, a proxy
 * in this test can cut a snapshot transfer halfway or flip one of its bytes. Checked: a cut
 * download resumes with Range and the replica serves the primary's batch, byte for byte; a batch
 * the primary publishes is published on the replica by the first poll that finds the primary
 * serving it; a corrupted
 * transfer is refused and the replica keeps serving the batch it had; a rollback on the primary
 * is followed; the replica's ledger gives its /api/batches and its own downloads.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { request } from "undici"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCli, writeMiniSample } from "../ops/support/ops.ts"
import { type Replica, root, startReplica, stopReplica } from "../replicas/support/replica.ts"
import { createKey, waitFor } from "../support/server.ts"
import { logChildOutput } from "../support/testLog.ts"

// biome-ignore lint/suspicious/noExplicitAny: log lines and answers are plain JSON
type Json = any

const env = { FDS_STALE_AFTER_HOURS: "1000000", FDS_RATE_LIMIT_PER_SECOND: "0" }

/** What the proxy does to the next snapshot transfer. */
type Fault = { readonly kind: "cut"; readonly afterShare: number } | { readonly kind: "flip"; readonly atShare: number }

/** A proxy to the primary that applies the queued faults to snapshot transfers, one each. */
const startProxy = async (target: string) => {
  const faults: Fault[] = []
  const seen: Array<{ readonly url: string; readonly range: string | undefined; readonly status: number; readonly fault: string | null }> = []
  const upstream = new URL(target)
  const server: Server = createServer((req, res) => {
    const up = httpRequest(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const snapshot = /\/snapshot$/.test(req.url ?? "") && (answer.statusCode === 200 || answer.statusCode === 206)
        const fault = snapshot ? (faults.shift() ?? null) : null
        seen.push({ url: req.url ?? "", range: req.headers.range, status: answer.statusCode ?? 0, fault: fault?.kind ?? null })
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        const length = Number(answer.headers["content-length"] ?? 0)
        let at = 0
        answer.on("data", (chunk: Buffer) => {
          let out = chunk
          if (fault?.kind === "flip") {
            const k = Math.floor(length * fault.atShare)
            if (k >= at && k < at + chunk.length) {
              out = Buffer.from(chunk)
              out[k - at] = out[k - at]! ^ 0xff
            }
          }
          if (fault?.kind === "cut" && at + chunk.length > length * fault.afterShare) {
            res.write(out.subarray(0, Math.max(0, Math.floor(length * fault.afterShare) - at)))
            answer.destroy()
            res.socket?.destroy()
            return
          }
          at += chunk.length
          res.write(out)
        })
        answer.on("end", () => res.end())
      },
    )
    up.on("error", () => res.socket?.destroy())
    req.pipe(up)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    faults,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

interface Follower {
  readonly child: ChildProcess
  readonly lines: Json[]
}

const startFollower = (dataDir: string, from: string, key: string): Follower => {
  const child = spawn(process.execPath, [join(root, "ops", "main.ts"), "follow", "--from", from, "--every", "1"], {
    cwd: root,
    env: { ...process.env, FDS_DATA_DIR: dataDir, FDS_FOLLOW_KEY: key },
    stdio: ["ignore", "pipe", "pipe"],
  })
  logChildOutput(child, `follow (pid ${child.pid})`)
  const lines: Json[] = []
  let buffer = ""
  child.stdout!.on("data", (c: Buffer) => {
    buffer += c.toString()
    const parts = buffer.split("\n")
    buffer = parts.pop()!
    for (const p of parts) if (p.trim().startsWith("{")) lines.push(JSON.parse(p))
  })
  return { child, lines }
}

const sha256 = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex")

describe("./fds follow: a replica kept in step with a primary through its API", () => {
  const work = mkdtempSync(join(tmpdir(), "fds-follow-"))
  const primaryDir = join(work, "primary")
  const replicaDir = join(work, "replica")
  let mini: string
  let primary: Replica
  let replica: Replica
  let proxy: Awaited<ReturnType<typeof startProxy>>
  let follower: Follower
  let replicaKey: string

  const publish = async (date: string) => {
    const r = await runCli(primaryDir, ["pipeline", "run", "--source", mini, "--date", date], { env })
    expect(r.code, r.stderr).toBe(0)
    return readFileSync(join(primaryDir, "snapshots", "CURRENT"), "utf8").trim()
  }
  const replicaCurrent = (): string | null => {
    const path = join(replicaDir, "snapshots", "CURRENT")
    return existsSync(path) ? readFileSync(path, "utf8").trim() : null
  }
  const replicaServes = async (): Promise<string | null> => {
    const res = await request(`${replica.url}/health`)
    const body = (await res.body.json()) as Json
    return body.last_scraped_date ?? null
  }
  const logged = (msg: string) => follower.lines.filter((l) => l.msg === msg)
  beforeAll(async () => {
    mini = (await writeMiniSample(join(work, "mini"))).mini
    await publish("2026-11-17")
    primary = await startReplica({ ...env, FDS_DATA_DIR: primaryDir })
    const key = (await createKey(primaryDir, { email: "replica@example.cl", tier: "internal" })).key
    proxy = await startProxy(primary.url)
    replica = await startReplica({ ...env, FDS_DATA_DIR: replicaDir })
    replicaKey = (await createKey(replicaDir, { email: "reader@example.cl", tier: "internal" })).key
    // the first transfer is cut after 40 % of its bytes
    proxy.faults.push({ kind: "cut", afterShare: 0.4 })
    follower = startFollower(replicaDir, proxy.url, key)
  }, 120_000)

  afterAll(async () => {
    if (follower !== undefined && follower.child.exitCode === null) {
      const exited = new Promise((resolve) => follower.child.once("exit", resolve))
      follower.child.kill("SIGTERM")
      await exited
    }
    await stopReplica(replica)
    await stopReplica(primary)
    await proxy?.close()
    rmSync(work, { recursive: true, force: true })
  })

  it("a download cut halfway resumes with Range; the replica then serves the primary's batch, byte for byte", async () => {
    const file = readFileSync(join(primaryDir, "snapshots", "CURRENT"), "utf8").trim()
    expect(await waitFor(async () => (await replicaServes()) === "2026-11-17", 60_000, 200)).toBe(true)
    expect(replicaCurrent()).toBe(file)
    expect(sha256(join(replicaDir, "snapshots", file))).toBe(sha256(join(primaryDir, "snapshots", file)))
    // its manifest beside it, as the primary's API gives it (the digests the daily build reuses are not part of it)
    const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "snapshots", file.replace(".sqlite", ".manifest.json")), "utf8"))
    const [mine, theirs] = [manifestOf(replicaDir), manifestOf(primaryDir)]
    for (const field of ["format_version", "pipeline_version", "batch_date", "file", "content_hash", "inputs", "row_counts", "repairs"]) {
      expect(mine[field], field).toEqual(theirs[field])
    }
    // the cut transfer, then one that asked for the rest
    const transfers = proxy.seen.filter((s) => s.url.endsWith(`${file.replace(".sqlite", "")}/snapshot`))
    expect(transfers.map((t) => [t.status, t.fault])).toEqual([
      [200, "cut"],
      [206, null],
    ])
    const size = readFileSync(join(primaryDir, "snapshots", file)).length
    const resumedFrom = Number(/^bytes=(\d+)-$/.exec(transfers[1]!.range ?? "")?.[1])
    expect(resumedFrom).toBeGreaterThan(0)
    expect(resumedFrom).toBeLessThanOrEqual(Math.floor(size * 0.4))
    expect(logged("poll failed; the replica keeps what it serves").length).toBeGreaterThan(0)
    expect(logged("batch downloaded and checked").at(-1)).toMatchObject({ resumed_from: resumedFrom, bytes: size })
    // nothing of the transfer is left beside the snapshots
    expect(readdirSync(join(replicaDir, "snapshots")).filter((f) => f.startsWith(".follow-"))).toEqual([])
  }, 90_000)

  it("a batch the primary publishes is published on the replica by the first poll that finds the primary serving it", async () => {
    const file = await publish("2026-11-18")
    const id = file.replace(".sqlite", "")
    // the first poll that found the primary serving it (its line is written once the poll is done)
    const polls = () => follower.lines.filter((l) => l.msg === "polled")
    expect(await waitFor(async () => polls().some((l) => l.primary === id), 60_000, 100)).toBe(true)
    expect(replicaCurrent()).toBe(file)
    const first = polls().find((l) => l.primary === id)
    expect(first).toMatchObject({ outcome: "published", primary: id, batches: [id] })
    expect(await waitFor(async () => (await replicaServes()) === "2026-11-18", 60_000, 200)).toBe(true)
  }, 120_000)

  it("a corrupted transfer is refused, and the replica keeps serving the batch it had", async () => {
    const served = replicaCurrent()
    proxy.faults.push({ kind: "flip", atShare: 0.5 })
    const file = await publish("2026-11-19")
    expect(await waitFor(async () => logged("poll failed; the replica keeps what it serves").some((l) => /SHA-256/.test(l.error)), 60_000, 100)).toBe(
      true,
    )
    const refusal = logged("poll failed; the replica keeps what it serves").find((l) => /SHA-256/.test(l.error))
    expect(refusal.error).toContain(file.replace(".sqlite", ""))
    // refused: CURRENT did not move, the old batch still answers
    expect(replicaCurrent()).toBe(served)
    expect(await replicaServes()).toBe("2026-11-18")
    // the next transfer (whole again: the refused bytes were dropped) is published
    expect(await waitFor(async () => replicaCurrent() === file, 60_000, 100)).toBe(true)
    const transfers = proxy.seen.filter((s) => s.url.endsWith(`${file.replace(".sqlite", "")}/snapshot`))
    expect(transfers.map((t) => [t.status, t.range ?? null, t.fault])).toEqual([
      [200, null, "flip"],
      [200, null, null],
    ])
    expect(sha256(join(replicaDir, "snapshots", file))).toBe(sha256(join(primaryDir, "snapshots", file)))
    expect(await waitFor(async () => (await replicaServes()) === "2026-11-19", 60_000, 200)).toBe(true)
  }, 120_000)

  it("a rollback on the primary is followed, and recorded in the replica's ledger", async () => {
    const back = await runCli(primaryDir, ["pipeline", "rollback", "--to", "2026-11-18", "--reason", "test"], { env })
    expect(back.code, back.stderr).toBe(0)
    const file = readFileSync(join(primaryDir, "snapshots", "CURRENT"), "utf8").trim()
    expect(file.startsWith("2026-11-18-")).toBe(true)
    expect(await waitFor(async () => replicaCurrent() === file, 60_000, 100)).toBe(true)
    expect(await waitFor(async () => (await replicaServes()) === "2026-11-18", 60_000, 200)).toBe(true)
    // the replica's /api/batches: the batches it published, the rolled-back-to one current
    const res = await request(`${replica.url}/api/batches`, { headers: { "x-api-key": replicaKey } })
    const listed = ((await res.body.json()) as Json).data as Json[]
    expect(listed.map((b) => [b.attributes.batch_date, b.attributes.current])).toEqual([
      ["2026-11-19", false],
      ["2026-11-18", true],
      ["2026-11-17", false],
    ])
    for (const b of listed) {
      const manifest = JSON.parse(readFileSync(join(primaryDir, "snapshots", `${b.id}.manifest.json`), "utf8"))
      expect(b.attributes.content_hash).toBe(manifest.content_hash)
    }
    // and the replica hands out the same file as the primary
    const copy = await request(`${replica.url}/api/batches/${file.replace(".sqlite", "")}/snapshot`, { headers: { "x-api-key": replicaKey } })
    const bytes = Buffer.from(await copy.body.arrayBuffer())
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(sha256(join(primaryDir, "snapshots", file)))
  }, 120_000)
})
